// Abs: elementwise |x|. Version 6 adds integer types, 13 bfloat16. The absolute value of a signed
// integer's lowest value wraps to itself (two's complement); unsigned values are unchanged.
#include "op_params.h"
#include "params/legacy.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> abs_kernel(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  return one(visit_real(ctx, x.dtype(), [&]<class T>() {
    return unary_elementwise<T, T>(x, [](T v) -> T {
      if constexpr (std::is_integral_v<T>) {
        if constexpr (std::is_signed_v<T>) return v < T(0) ? wrap_neg<T>(v) : v;
        else return v;
      } else {
        return to_storage<T>(std::fabs(static_cast<compute_t<T>>(v)));  // clears the sign bit
      }
    });
  }));
}
}  // namespace
// Version 1's only attribute is the legacy consumed_inputs.
SONNX_PARAMS("", "Abs", (1), LegacyConsumedInputsParams);
SONNX_KERNEL("", "Abs", 1, abs_kernel, Accuracy::Exact);
SONNX_SHAPE_RULE("", "Abs", (1, 6, 13), same_as_input_rule);
}  // namespace sonnx
