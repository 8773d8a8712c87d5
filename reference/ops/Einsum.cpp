// Einsum: Einstein summation over the inputs as numpy.einsum does it. The equation is
// "term1,term2,...[->output]" (spaces ignored); a term is a list of letters plus at most one
// "..." standing for the same number of broadcast dimensions in every operand (right-aligned,
// numpy broadcasting). A letter repeated inside one term takes the diagonal. Without "->" the
// output is the ellipsis dimensions followed by the letters that occur exactly once, sorted
// (implicit mode). Letters missing from the output are summed over. Dimensions of size 1 broadcast
// against the other operands' size for the same letter (as numpy allows). Products and sums are
// computed in compute_t<T> (integers wrap).
#include <cctype>
#include <map>

#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
constexpr int kLetters = 52;  // a-z -> 0..25, A-Z -> 26..51; ellipsis dim j -> kLetters + j

struct Term {
  std::vector<int> letters_before, letters_after;  // around the ellipsis (all in `before` if none)
  bool ellipsis = false;
};

Term parse_term(const OpContext& ctx, const std::string& s) {
  Term t;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    int label = -1;
    if (c >= 'a' && c <= 'z') label = c - 'a';
    else if (c >= 'A' && c <= 'Z') label = 26 + (c - 'A');
    if (label >= 0) {
      (t.ellipsis ? t.letters_after : t.letters_before).push_back(label);
    } else if (c == '.') {
      if (t.ellipsis || s.compare(i, 3, "...") != 0) ctx.fail("malformed ellipsis in einsum term '" + s + "'");
      t.ellipsis = true;
      i += 2;
    } else {
      ctx.fail("invalid character '" + std::string(1, c) + "' in einsum equation");
    }
  }
  return t;
}

size_t letter_count(const Term& t) { return t.letters_before.size() + t.letters_after.size(); }

// The label of every axis of a term once the ellipsis stands for `dims` of the `total` ellipsis dims.
std::vector<int> axis_labels(const Term& t, int64_t dims, int64_t total) {
  std::vector<int> labels = t.letters_before;
  for (int64_t j = 0; j < dims; ++j) labels.push_back(kLetters + static_cast<int>(total - dims + j));
  labels.insert(labels.end(), t.letters_after.begin(), t.letters_after.end());
  return labels;
}

std::vector<Value> einsum(OpContext& ctx) {
  if (!ctx.has_attr("equation")) ctx.fail("attribute 'equation' is required");
  std::string eq;
  for (char c : ctx.attr_string("equation", ""))
    if (c != ' ') eq += c;
  size_t n = ctx.num_inputs();
  if (n == 0) ctx.fail("at least one input is required");
  for (size_t k = 0; k < n; ++k)
    if (ctx.input(k).dtype() != ctx.input(0).dtype()) ctx.fail("inputs have different element types");

  size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow);
  std::vector<Term> terms;
  for (size_t begin = 0;;) {
    size_t comma = lhs.find(',', begin);
    terms.push_back(parse_term(ctx, lhs.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin)));
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  if (terms.size() != n)
    ctx.fail("equation has " + std::to_string(terms.size()) + " terms for " + std::to_string(n) + " inputs");

  // Ellipsis dims per operand and overall.
  int64_t ell_total = 0;
  std::vector<int64_t> ell_dims(n, 0);
  for (size_t k = 0; k < n; ++k) {
    int64_t rank = ctx.input(k).rank(), letters = static_cast<int64_t>(letter_count(terms[k]));
    if (terms[k].ellipsis ? rank < letters : rank != letters)
      ctx.fail("term " + std::to_string(k) + " does not match the rank " + std::to_string(rank) + " of its input");
    ell_dims[k] = rank - letters;
    ell_total = std::max(ell_total, ell_dims[k]);
  }

  // Sizes of all labels, broadcasting 1 against anything.
  std::vector<int64_t> size(static_cast<size_t>(kLetters + ell_total), -1);
  std::vector<int> occurrences(static_cast<size_t>(kLetters), 0);
  std::vector<std::vector<int>> labels(n);
  for (size_t k = 0; k < n; ++k) {
    labels[k] = axis_labels(terms[k], ell_dims[k], ell_total);
    const Tensor& t = ctx.input(k);
    for (size_t a = 0; a < labels[k].size(); ++a) {
      int l = labels[k][a];
      int64_t d = t.dim(static_cast<int64_t>(a));
      if (l < kLetters) ++occurrences[static_cast<size_t>(l)];
      for (size_t b = 0; b < a; ++b)
        if (labels[k][b] == l && t.dim(static_cast<int64_t>(b)) != d)
          ctx.fail("a repeated letter in term " + std::to_string(k) + " spans dimensions of different sizes");
      int64_t& s = size[static_cast<size_t>(l)];
      if (s == -1 || s == 1) s = d;
      else if (d != s && d != 1)
        ctx.fail("operand dimensions " + std::to_string(s) + " and " + std::to_string(d) + " do not match");
    }
  }

  // Output labels.
  std::vector<int> out_labels;
  if (arrow != std::string::npos) {
    std::string rhs = eq.substr(arrow + 2);
    Term o = parse_term(ctx, rhs);
    if (!o.ellipsis && ell_total > 0) ctx.fail("the output must contain '...' when the inputs' ellipsis has dimensions");
    out_labels = axis_labels(o, o.ellipsis ? ell_total : 0, ell_total);
    std::vector<bool> used(size.size(), false);
    for (int l : out_labels) {
      if (l < kLetters && occurrences[static_cast<size_t>(l)] == 0) ctx.fail("output letter does not occur in the inputs");
      if (used[static_cast<size_t>(l)]) ctx.fail("output letter repeated");
      used[static_cast<size_t>(l)] = true;
    }
  } else {
    for (int64_t j = 0; j < ell_total; ++j) out_labels.push_back(kLetters + static_cast<int>(j));
    // Sorted in ASCII order, as numpy does: upper case (labels 26..51) before lower case.
    for (int l = 26; l < kLetters; ++l)
      if (occurrences[static_cast<size_t>(l)] == 1) out_labels.push_back(l);
    for (int l = 0; l < 26; ++l)
      if (occurrences[static_cast<size_t>(l)] == 1) out_labels.push_back(l);
  }
  // Summed labels: every other label that occurs.
  std::vector<bool> in_output(size.size(), false);
  for (int l : out_labels) in_output[static_cast<size_t>(l)] = true;
  std::vector<int> sum_labels;
  for (size_t l = 0; l < size.size(); ++l)
    if (!in_output[l] && size[l] >= 0) sum_labels.push_back(static_cast<int>(l));

  // Loop positions: output labels then summed labels. coeff[k][p] is operand k's stride for loop
  // position p (0 where the operand broadcasts; repeated letters add up, giving the diagonal).
  std::vector<int> loop = out_labels;
  loop.insert(loop.end(), sum_labels.begin(), sum_labels.end());
  std::vector<int> position_of(size.size(), -1);
  for (size_t p = 0; p < loop.size(); ++p) position_of[static_cast<size_t>(loop[p])] = static_cast<int>(p);
  std::vector<std::vector<int64_t>> coeff(n, std::vector<int64_t>(loop.size(), 0));
  for (size_t k = 0; k < n; ++k) {
    const Tensor& t = ctx.input(k);
    auto strides = strides_of(t.shape());
    for (size_t a = 0; a < labels[k].size(); ++a) {
      int l = labels[k][a];
      if (t.dim(static_cast<int64_t>(a)) == 1 && size[static_cast<size_t>(l)] != 1) continue;  // broadcast
      coeff[k][static_cast<size_t>(position_of[static_cast<size_t>(l)])] += strides[a];
    }
  }
  Shape out_shape, sum_shape;
  for (int l : out_labels) out_shape.push_back(size[static_cast<size_t>(l)]);
  for (int l : sum_labels) sum_shape.push_back(size[static_cast<size_t>(l)]);
  size_t n_out = out_labels.size();

  // Offset that each combination of summed indices adds, per operand: sum_offset[s * n + k].
  int64_t sum_count = shape_size(sum_shape);
  std::vector<int64_t> sum_offset(static_cast<size_t>(sum_count) * n);
  for_each_index(sum_shape, [&](const std::vector<int64_t>& si, int64_t slin) {
    for (size_t k = 0; k < n; ++k) {
      int64_t off = 0;
      for (size_t p = 0; p < si.size(); ++p) off += si[p] * coeff[k][n_out + p];
      sum_offset[static_cast<size_t>(slin) * n + k] = off;
    }
  });

  DType type = ctx.input(0).dtype();
  Tensor out(type, out_shape);
  visit_real(ctx, type, [&]<class T>() {
    using C = compute_t<T>;
    std::vector<const T*> src(n);
    for (size_t k = 0; k < n; ++k) src[k] = ctx.input(k).data<T>();
    T* dst = out.data<T>();
    std::vector<int64_t> base(n);
    for_each_index(out_shape, [&](const std::vector<int64_t>& oi, int64_t olin) {
      for (size_t k = 0; k < n; ++k) {
        base[k] = 0;
        for (size_t p = 0; p < n_out; ++p) base[k] += oi[p] * coeff[k][p];
      }
      C acc = C(0);
      for (int64_t s = 0; s < sum_count; ++s) {
        C prod = C(1);
        for (size_t k = 0; k < n; ++k) {
          C v = static_cast<C>(src[k][base[k] + sum_offset[static_cast<size_t>(s) * n + k]]);
          if constexpr (std::is_integral_v<C>) prod = wrap_mul(prod, v);
          else prod = prod * v;
        }
        if constexpr (std::is_integral_v<C>) acc = wrap_add(acc, prod);
        else acc = acc + prod;
      }
      dst[olin] = to_storage<T>(acc);
    });
  });
  return one(std::move(out));
}
}  // namespace
SONNX_KERNEL("", "Einsum", 12, einsum, Accuracy::Rounding);
namespace {
// The output subscripts (explicit after "->", else the letters used once, sorted) pick the dims
// of the operands' letters; "..." stands for the broadcast of the operands' remaining dims.
void einsum_shape(InferContext& ctx) {
  std::string eq;
  for (char c : ctx.attr_string("equation", ""))
    if (c != ' ') eq += c;
  std::vector<size_t> all;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) all.push_back(i);
  DType t = common_elem(ctx, all);
  size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> terms;
  for (size_t p = 0;;) {
    size_t c = lhs.find(',', p);
    terms.push_back(lhs.substr(p, c == std::string::npos ? std::string::npos : c - p));
    if (c == std::string::npos) break;
    p = c + 1;
  }
  if (terms.size() != ctx.num_inputs())
    ctx.fail("the equation has " + std::to_string(terms.size()) + " operands, the node " + std::to_string(ctx.num_inputs()));
  std::map<char, Dim> letters;
  std::map<char, int> count;
  std::vector<const Dims*> ellipses;
  std::vector<Dims> ell_store(terms.size());
  bool any_ellipsis = false;
  for (size_t i = 0; i < terms.size(); ++i) {
    const Dims* s = ctx.input_shape(i);
    if (!s) return ctx.set_output(0, t, std::nullopt);
    std::string term = terms[i];
    size_t e = term.find("...");
    size_t named = term.size() - (e == std::string::npos ? 0 : 3);
    if (named > s->size()) ctx.fail("operand " + std::to_string(i) + " has fewer dims than subscripts");
    size_t ell = s->size() - named;
    if (e == std::string::npos && ell != 0) ctx.fail("operand " + std::to_string(i) + " has more dims than subscripts");
    size_t k = 0;
    for (size_t j = 0; j < term.size();) {
      if (term.compare(j, 3, "...") == 0) {
        any_ellipsis = true;
        ell_store[i] = Dims(s->begin() + static_cast<std::ptrdiff_t>(k), s->begin() + static_cast<std::ptrdiff_t>(k + ell));
        ellipses.push_back(&ell_store[i]);
        k += ell;
        j += 3;
        continue;
      }
      char c = term[j++];
      if (!std::isalpha(static_cast<unsigned char>(c))) ctx.fail(std::string("invalid subscript '") + c + "'");
      const Dim& d = (*s)[k++];
      auto it = letters.find(c);
      if (it == letters.end()) letters[c] = d;
      else if (it->second.value && d.value && *it->second.value != *d.value && *it->second.value != 1 && *d.value != 1)
        ctx.fail(std::string("subscript '") + c + "' has sizes " + std::to_string(*it->second.value) + " and " +
                 std::to_string(*d.value));
      else if (d.value && (!it->second.value || *it->second.value == 1)) it->second = d;
      ++count[c];
    }
  }
  auto ell = broadcast_shapes(ctx, ellipses);
  std::string out_terms;
  if (arrow != std::string::npos) out_terms = eq.substr(arrow + 2);
  else {
    if (any_ellipsis) out_terms = "...";
    for (const auto& [c, n] : count)
      if (n == 1) out_terms += c;
  }
  Dims o;
  for (size_t j = 0; j < out_terms.size();) {
    if (out_terms.compare(j, 3, "...") == 0) {
      if (ell) o.insert(o.end(), ell->begin(), ell->end());
      j += 3;
      continue;
    }
    char c = out_terms[j++];
    auto it = letters.find(c);
    if (it == letters.end()) ctx.fail(std::string("output subscript '") + c + "' is not an input subscript");
    o.push_back(it->second);
  }
  ctx.set_output(0, t, o);
}
}  // namespace
SONNX_SHAPE_RULE("", "Einsum", (12), einsum_shape);
}  // namespace sonnx
