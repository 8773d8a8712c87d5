// Relu: y = max(0, x). Version 14 added integer types; the formula is the same.
// Relies on ops/ops.mlw Relu.relu_idempotent: Relu is idempotent and nonnegative.
#include "op_params.h"
#include "params/legacy.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> relu(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  return one(visit_real(ctx, x.dtype(), [&]<class T>() {
    return unary_elementwise<T, T>(x, [](T v) {
      auto c = static_cast<compute_t<T>>(v);
      // NaN stays NaN (a comparison with NaN is false, so keep the input).
      return c < compute_t<T>(0) ? to_storage<T>(compute_t<T>(0)) : v;
    });
  }));
}
}  // namespace
// Version 1's only attribute is the legacy consumed_inputs.
SONNX_PARAMS("", "Relu", (1), LegacyConsumedInputsParams);
SONNX_KERNEL("", "Relu", 1, relu, Accuracy::Exact);
SONNX_SHAPE_RULE("", "Relu", (1, 6, 13, 14), same_as_input_rule);
}  // namespace sonnx
