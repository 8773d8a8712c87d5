// Neg: elementwise -x. Version 6 adds signed integer types, 13 bfloat16. Negating a signed
// integer's lowest value wraps to itself (two's complement). For floats only the sign flips
// (-0 for 0, NaN stays NaN).
#include "op_params.h"
#include "params/legacy.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> neg(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  return one(visit_real(ctx, x.dtype(), [&]<class T>() {
    return unary_elementwise<T, T>(x, [](T v) -> T {
      if constexpr (std::is_integral_v<T>) return wrap_neg<T>(v);
      else return to_storage<T>(-static_cast<compute_t<T>>(v));
    });
  }));
}
}  // namespace
// Version 1's only attribute is the legacy consumed_inputs.
SONNX_PARAMS("", "Neg", (1), LegacyConsumedInputsParams);
SONNX_KERNEL("", "Neg", 1, neg, Accuracy::Exact);
SONNX_SHAPE_RULE("", "Neg", (1, 6, 13), same_as_input_rule);
}  // namespace sonnx
