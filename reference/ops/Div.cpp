// Div: elementwise A / B. Versions 1 and 6 broadcast B to A only when broadcast=1 (legacy
// broadcasting); from version 7 on both inputs broadcast multidirectionally. Version 14 adds the
// 8- and 16-bit integer types.
// Integer division truncates toward zero (as C++ and the ONNX backend tests do); division by zero
// traps; the one overflowing case, lowest / -1, wraps to lowest. Floats follow IEEE (x/0 = ±inf,
// 0/0 = NaN).
#include "op_params.h"
#include "params/broadcast.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

Tensor div(OpContext& ctx, const Tensor& a, const Tensor& b) {
  require_same_type(ctx, a, b);
  return visit_real(ctx, a.dtype(), [&]<class T>() {
    return binary_elementwise<T, T>(ctx, a, b, [&](T x, T y) -> T {
      if constexpr (std::is_integral_v<T>) {
        if (y == T(0)) ctx.fail("integer division by zero");
        if constexpr (std::is_signed_v<T>) {
          if (y == T(-1)) return wrap_neg<T>(x);  // lowest / -1 overflows: wraps to lowest
        }
        return static_cast<T>(x / y);
      } else {
        return to_storage<T>(static_cast<compute_t<T>>(x) / static_cast<compute_t<T>>(y));
      }
    });
  });
}
}  // namespace
SONNX_PARAMS("", "Div", (1, 6), LegacyBroadcastParams);
SONNX_KERNEL("", "Div", 1, binary_legacy<div>, Accuracy::Rounding);
SONNX_KERNEL("", "Div", 7, binary_multidirectional<div>, Accuracy::Rounding);
namespace {
void div_shape(InferContext& ctx) { arithmetic_rule(ctx, '/'); }
}  // namespace
SONNX_SHAPE_RULE("", "Div", (1, 6, 7, 13, 14), div_shape);
}  // namespace sonnx
