// Einsum: Einstein summation over the inputs as numpy.einsum does it. The equation is
// "term1,term2,...[->output]" (spaces ignored); a term is a list of letters plus at most one
// "..." standing for the same number of broadcast dimensions in every operand (right-aligned,
// numpy broadcasting). A letter repeated inside one term takes the diagonal. Without "->" the
// output is the ellipsis dimensions followed by the letters that occur exactly once, sorted
// (implicit mode). Letters missing from the output are summed over. Dimensions of size 1 broadcast
// against the other operands' size for the same letter (as numpy allows). Products and sums are
// computed in compute_t<T> (integers wrap).
#include <optional>
#include <string>

#include "op_params.h"
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
constexpr int kLetters = 52;  // a-z -> 0..25, A-Z -> 26..51; ellipsis dim j -> kLetters + j

char label_char(int label) { return static_cast<char>(label < 26 ? 'a' + label : 'A' + (label - 26)); }

// One term of the equation: the labels of its letters around its ellipsis.
struct EinsumTerm {
  std::vector<int> letters_before, letters_after;  // around the ellipsis (all in `before` if none)
  bool ellipsis = false;

  size_t letter_count() const { return letters_before.size() + letters_after.size(); }
  // The label of every axis of the term once the ellipsis stands for `dims` of the `total` ellipsis
  // dims (right-aligned).
  std::vector<int> axis_labels(int64_t dims, int64_t total) const {
    std::vector<int> labels = letters_before;
    for (int64_t j = 0; j < dims; ++j) labels.push_back(kLetters + static_cast<int>(total - dims + j));
    labels.insert(labels.end(), letters_after.begin(), letters_after.end());
    return labels;
  }
};

EinsumTerm parse_einsum_term(const AttrReader& r, const std::string& s) {
  EinsumTerm t;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    int label = -1;
    if (c >= 'a' && c <= 'z') label = c - 'a';
    else if (c >= 'A' && c <= 'Z') label = 26 + (c - 'A');
    if (label >= 0) {
      (t.ellipsis ? t.letters_after : t.letters_before).push_back(label);
    } else if (c == '.') {
      if (t.ellipsis || s.compare(i, 3, "...") != 0) r.fail("malformed ellipsis in einsum term '" + s + "'");
      t.ellipsis = true;
      i += 2;
    } else {
      r.fail("invalid character '" + std::string(1, c) + "' in einsum equation");
    }
  }
  return t;
}

// The equation parsed: one term per operand and the output term. Read by the kernel and the shape
// rule, so they cannot parse it differently.
struct EinsumParams {
  std::string equation;            // the attribute (required), its spaces dropped
  std::vector<EinsumTerm> inputs;  // one per operand (their count is checked against the node's inputs later)
  // After "->" (explicit mode: each letter once, each from the inputs; checked). Implicit mode: the
  // ellipsis when some input term has one, then the letters used exactly once, in ASCII order
  // (upper case first), as numpy does.
  EinsumTerm output;
  bool explicit_output = false;  // the equation has "->"
  static EinsumParams read(const AttrReader& r, int64_t version);
  // "" when the equation has a term for each of `n` operands, else why not.
  std::string operands(size_t n) const {
    if (inputs.size() == n) return "";
    return "equation has " + std::to_string(inputs.size()) + " terms for " + std::to_string(n) + " inputs";
  }
};

EinsumParams EinsumParams::read(const AttrReader& r, int64_t /*version*/) {
  if (!r.has_attr("equation")) r.fail("attribute 'equation' is required");
  EinsumParams p;
  for (char c : r.attr_string("equation", ""))
    if (c != ' ') p.equation += c;
  size_t arrow = p.equation.find("->");
  std::string lhs = p.equation.substr(0, arrow);
  for (size_t begin = 0;;) {
    size_t comma = lhs.find(',', begin);
    p.inputs.push_back(parse_einsum_term(r, lhs.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin)));
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  std::vector<int> occurrences(static_cast<size_t>(kLetters), 0);
  bool any_ellipsis = false;
  for (const EinsumTerm& t : p.inputs) {
    for (int l : t.letters_before) ++occurrences[static_cast<size_t>(l)];
    for (int l : t.letters_after) ++occurrences[static_cast<size_t>(l)];
    any_ellipsis = any_ellipsis || t.ellipsis;
  }
  p.explicit_output = arrow != std::string::npos;
  if (p.explicit_output) {
    p.output = parse_einsum_term(r, p.equation.substr(arrow + 2));
    std::vector<bool> used(static_cast<size_t>(kLetters), false);
    for (const std::vector<int>* part : {&p.output.letters_before, &p.output.letters_after})
      for (int l : *part) {
        const std::string letter(1, label_char(l));
        if (occurrences[static_cast<size_t>(l)] == 0) r.fail("output letter does not occur in the inputs: '" + letter + "'");
        if (used[static_cast<size_t>(l)]) r.fail("output letter repeated: '" + letter + "'");
        used[static_cast<size_t>(l)] = true;
      }
  } else {
    p.output.ellipsis = any_ellipsis;
    // Sorted in ASCII order, as numpy does: upper case (labels 26..51) before lower case.
    for (int l = 26; l < kLetters; ++l)
      if (occurrences[static_cast<size_t>(l)] == 1) p.output.letters_after.push_back(l);
    for (int l = 0; l < 26; ++l)
      if (occurrences[static_cast<size_t>(l)] == 1) p.output.letters_after.push_back(l);
  }
  return p;
}

std::vector<Value> einsum(OpContext& ctx) {
  const EinsumParams params = EinsumParams::read(ctx, ctx.version());
  const std::vector<EinsumTerm>& terms = params.inputs;
  size_t n = ctx.num_inputs();
  if (n == 0) ctx.fail("at least one input is required");
  for (size_t k = 0; k < n; ++k)
    if (ctx.input(k).dtype() != ctx.input(0).dtype()) ctx.fail("inputs have different element types");
  if (std::string why = params.operands(n); !why.empty()) ctx.fail(why);

  // Ellipsis dims per operand and overall.
  int64_t ell_total = 0;
  std::vector<int64_t> ell_dims(n, 0);
  for (size_t k = 0; k < n; ++k) {
    int64_t rank = ctx.input(k).rank(), letters = static_cast<int64_t>(terms[k].letter_count());
    if (terms[k].ellipsis ? rank < letters : rank != letters)
      ctx.fail("term " + std::to_string(k) + " does not match the rank " + std::to_string(rank) + " of its input");
    ell_dims[k] = rank - letters;
    ell_total = std::max(ell_total, ell_dims[k]);
  }

  // Sizes of all labels, broadcasting 1 against anything.
  std::vector<int64_t> size(static_cast<size_t>(kLetters + ell_total), -1);
  std::vector<std::vector<int>> labels(n);
  for (size_t k = 0; k < n; ++k) {
    labels[k] = terms[k].axis_labels(ell_dims[k], ell_total);
    const Tensor& t = ctx.input(k);
    for (size_t a = 0; a < labels[k].size(); ++a) {
      int l = labels[k][a];
      int64_t d = t.dim(static_cast<int64_t>(a));
      for (size_t b = 0; b < a; ++b)
        if (labels[k][b] == l && t.dim(static_cast<int64_t>(b)) != d)
          ctx.fail("a repeated letter in term " + std::to_string(k) + " spans dimensions of different sizes");
      int64_t& s = size[static_cast<size_t>(l)];
      if (s == -1 || s == 1) s = d;
      else if (d != s && d != 1)
        ctx.fail("operand dimensions " + std::to_string(s) + " and " + std::to_string(d) + " do not match");
    }
  }

  // Output labels: the output term's, its ellipsis standing for all the ellipsis dims.
  if (!params.output.ellipsis && ell_total > 0)
    ctx.fail("the output must contain '...' when the inputs' ellipsis has dimensions");
  const std::vector<int> out_labels = params.output.axis_labels(params.output.ellipsis ? ell_total : 0, ell_total);
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
SONNX_PARAMS("", "Einsum", (12), EinsumParams);
SONNX_KERNEL("", "Einsum", 12, einsum, Accuracy::Rounding);
namespace {
// The output subscripts (explicit after "->", else the letters used once, sorted) pick the dims
// of the operands' letters; "..." stands for the broadcast of the operands' remaining dims.
void einsum_shape(InferContext& ctx) {
  const EinsumParams p = EinsumParams::read(ctx, ctx.version());
  std::vector<size_t> all;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) all.push_back(i);
  DType t = common_elem(ctx, all);
  if (std::string why = p.operands(ctx.num_inputs()); !why.empty()) ctx.fail(why);
  std::vector<std::optional<Dim>> letters(static_cast<size_t>(kLetters));  // each letter's dim (1 broadcasts)
  std::vector<Dims> ell_store(p.inputs.size());
  std::vector<const Dims*> ellipses;
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    const Dims* s = ctx.input_shape(i);
    if (!s) return ctx.set_output(0, t, std::nullopt);
    const EinsumTerm& term = p.inputs[i];
    size_t named = term.letter_count();
    if (named > s->size()) ctx.fail("operand " + std::to_string(i) + " has fewer dims than subscripts");
    auto ell = static_cast<int64_t>(s->size() - named);
    if (!term.ellipsis && ell != 0) ctx.fail("operand " + std::to_string(i) + " has more dims than subscripts");
    const std::vector<int> labels = term.axis_labels(ell, ell);
    std::vector<std::optional<Dim>> in_term(static_cast<size_t>(kLetters));  // a repeated letter takes a diagonal
    for (size_t a = 0; a < labels.size(); ++a) {
      const Dim& d = (*s)[a];
      const int l = labels[a];
      if (l >= kLetters) {
        ell_store[i].push_back(d);
        continue;
      }
      std::optional<Dim>& first = in_term[static_cast<size_t>(l)];
      if (!first) first = d;
      else if (first->value && d.value && *first->value != *d.value)
        ctx.fail("a repeated letter in term " + std::to_string(i) + " spans dimensions of different sizes");
      std::optional<Dim>& known = letters[static_cast<size_t>(l)];
      if (!known) known = d;
      else if (known->value && d.value && *known->value != *d.value && *known->value != 1 && *d.value != 1)
        ctx.fail(std::string("subscript '") + label_char(l) + "' has sizes " + std::to_string(*known->value) + " and " +
                 std::to_string(*d.value));
      else if (d.value && (!known->value || *known->value == 1)) known = d;
    }
    if (term.ellipsis) ellipses.push_back(&ell_store[i]);
  }
  auto ell = broadcast_shapes(ctx, ellipses);
  if (!p.output.ellipsis && ell && !ell->empty())
    ctx.fail("the output must contain '...' when the inputs' ellipsis has dimensions");
  auto letter_dim = [&](int l) { return letters[static_cast<size_t>(l)].value_or(Dim{}); };
  Dims o;
  for (int l : p.output.letters_before) o.push_back(letter_dim(l));
  if (p.output.ellipsis && ell) o.insert(o.end(), ell->begin(), ell->end());
  for (int l : p.output.letters_after) o.push_back(letter_dim(l));
  ctx.set_output(0, t, o);
}
}  // namespace
SONNX_SHAPE_RULE("", "Einsum", (12), einsum_shape);
}  // namespace sonnx
