// Which elements of Einsum's operands meet (EinsumParams, reference/ops/params/einsum.h): each output
// element is the sum of `products` products, each of one element from every operand. Read by the
// reference kernel and the enclosure (enclose/enclose_einsum.cpp), so both sum the same terms.
// A letter repeated inside one term takes the diagonal; a dimension of size 1 broadcasts against
// the other operands' size for the same letter (as numpy allows); letters missing from the output
// are summed over.
#pragma once
#include <cstdint>
#include <vector>

#include "kernel.h"
#include "reference/ops/params/einsum.h"

namespace sonnx::support {

struct EinsumPlan {
  Shape out_shape;
  size_t operands = 0;
  int64_t products = 0;  // the products each output element sums (1 when no letter is summed)

  // Operand k's offset of output element `out` (its multi-index) in every product: bases[k].
  void bases(const std::vector<int64_t>& out, std::vector<int64_t>& bases) const {
    bases.assign(operands, 0);
    for (size_t k = 0; k < operands; ++k)
      for (size_t p = 0; p < out.size(); ++p) bases[k] += out[p] * coeff[k][p];
  }
  // Operand k's element in product s of the output element whose bases are `b`.
  int64_t element(const std::vector<int64_t>& b, int64_t s, size_t k) const {
    return b[k] + sum_offset[static_cast<size_t>(s) * operands + k];
  }
  // f(output multi-index, linear index, bases) for every output element in row-major order.
  template <class F>
  void for_each_output(F f) const {
    std::vector<int64_t> b;
    for_each_index(out_shape, [&](const std::vector<int64_t>& oi, int64_t olin) {
      bases(oi, b);
      f(oi, olin, static_cast<const std::vector<int64_t>&>(b));
    });
  }

  // coeff[k][p]: operand k's stride for loop position p (the output letters, then the summed ones;
  // 0 where the operand broadcasts; a repeated letter's strides add up, giving the diagonal).
  std::vector<std::vector<int64_t>> coeff;
  // The offset each combination of summed indices adds, per operand: sum_offset[s * operands + k].
  std::vector<int64_t> sum_offset;
};

// The plan for operands of these shapes; fail()s through `r` where a term does not match its
// operand's rank, a repeated letter spans different sizes, sizes do not broadcast, or the output
// lacks the ellipsis the inputs' has dimensions for.
EinsumPlan einsum_plan(const AttrReader& r, const EinsumParams& params, const std::vector<Shape>& shapes);

}  // namespace sonnx::support
