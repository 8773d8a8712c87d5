#include "einsum.h"

namespace sonnx::support {

EinsumPlan einsum_plan(const AttrReader& r, const EinsumParams& params, const std::vector<Shape>& shapes) {
  constexpr int kLetters = EinsumTerm::kLetters;
  const std::vector<EinsumTerm>& terms = params.inputs;
  const size_t n = shapes.size();
  if (std::string why = params.operands(n); !why.empty()) r.fail(why);

  // Ellipsis dims per operand and overall.
  int64_t ell_total = 0;
  std::vector<int64_t> ell_dims(n, 0);
  for (size_t k = 0; k < n; ++k) {
    int64_t rank = static_cast<int64_t>(shapes[k].size()), letters = static_cast<int64_t>(terms[k].letter_count());
    if (terms[k].ellipsis ? rank < letters : rank != letters)
      r.fail("term " + std::to_string(k) + " does not match the rank " + std::to_string(rank) + " of its input");
    ell_dims[k] = rank - letters;
    ell_total = std::max(ell_total, ell_dims[k]);
  }

  // Sizes of all labels, broadcasting 1 against anything.
  std::vector<int64_t> size(static_cast<size_t>(kLetters + ell_total), -1);
  std::vector<std::vector<int>> labels(n);
  for (size_t k = 0; k < n; ++k) {
    labels[k] = terms[k].axis_labels(ell_dims[k], ell_total);
    const Shape& t = shapes[k];
    for (size_t a = 0; a < labels[k].size(); ++a) {
      int l = labels[k][a];
      int64_t d = t[a];
      for (size_t b = 0; b < a; ++b)
        if (labels[k][b] == l && t[b] != d)
          r.fail("a repeated letter in term " + std::to_string(k) + " spans dimensions of different sizes");
      int64_t& s = size[static_cast<size_t>(l)];
      if (s == -1 || s == 1) s = d;
      else if (d != s && d != 1)
        r.fail("operand dimensions " + std::to_string(s) + " and " + std::to_string(d) + " do not match");
    }
  }

  // Output labels: the output term's, its ellipsis standing for all the ellipsis dims.
  if (!params.output.ellipsis && ell_total > 0) r.fail("the output must contain '...' when the inputs' ellipsis has dimensions");
  const std::vector<int> out_labels = params.output.axis_labels(params.output.ellipsis ? ell_total : 0, ell_total);
  // Summed labels: every other label that occurs.
  std::vector<bool> in_output(size.size(), false);
  for (int l : out_labels) in_output[static_cast<size_t>(l)] = true;
  std::vector<int> sum_labels;
  for (size_t l = 0; l < size.size(); ++l)
    if (!in_output[l] && size[l] >= 0) sum_labels.push_back(static_cast<int>(l));

  EinsumPlan plan;
  plan.operands = n;
  std::vector<int> loop = out_labels;
  loop.insert(loop.end(), sum_labels.begin(), sum_labels.end());
  std::vector<int> position_of(size.size(), -1);
  for (size_t p = 0; p < loop.size(); ++p) position_of[static_cast<size_t>(loop[p])] = static_cast<int>(p);
  plan.coeff.assign(n, std::vector<int64_t>(loop.size(), 0));
  for (size_t k = 0; k < n; ++k) {
    auto strides = strides_of(shapes[k]);
    for (size_t a = 0; a < labels[k].size(); ++a) {
      int l = labels[k][a];
      if (shapes[k][a] == 1 && size[static_cast<size_t>(l)] != 1) continue;  // broadcast
      plan.coeff[k][static_cast<size_t>(position_of[static_cast<size_t>(l)])] += strides[a];
    }
  }
  Shape sum_shape;
  for (int l : out_labels) plan.out_shape.push_back(size[static_cast<size_t>(l)]);
  for (int l : sum_labels) sum_shape.push_back(size[static_cast<size_t>(l)]);
  const size_t n_out = out_labels.size();

  plan.products = shape_size(sum_shape);
  plan.sum_offset.assign(static_cast<size_t>(plan.products) * n, 0);
  for_each_index(sum_shape, [&](const std::vector<int64_t>& si, int64_t slin) {
    for (size_t k = 0; k < n; ++k) {
      int64_t off = 0;
      for (size_t p = 0; p < si.size(); ++p) off += si[p] * plan.coeff[k][n_out + p];
      plan.sum_offset[static_cast<size_t>(slin) * n + k] = off;
    }
  });
  return plan;
}

}  // namespace sonnx::support
