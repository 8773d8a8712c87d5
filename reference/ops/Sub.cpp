// Sub: elementwise A - B. Versions 1 and 6 broadcast B to A only when broadcast=1 (legacy
// broadcasting); from version 7 on both inputs broadcast multidirectionally. Version 14 adds the
// 8- and 16-bit integer types; the formula never changes.
#include "op_params.h"
#include "params/broadcast.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

Tensor sub(OpContext& ctx, const Tensor& a, const Tensor& b) {
  require_same_type(ctx, a, b);
  return visit_real(ctx, a.dtype(), [&]<class T>() {
    return binary_elementwise<T, T>(ctx, a, b, [](T x, T y) {
      if constexpr (std::is_integral_v<T>) return wrap_sub<T>(x, y);  // overflow wraps
      else return to_storage<T>(static_cast<compute_t<T>>(x) - static_cast<compute_t<T>>(y));
    });
  });
}
}  // namespace
SONNX_PARAMS("", "Sub", (1, 6), LegacyBroadcastParams);
SONNX_KERNEL("", "Sub", 1, binary_legacy<sub>, Accuracy::Rounding);
SONNX_KERNEL("", "Sub", 7, binary_multidirectional<sub>, Accuracy::Rounding);
namespace {
void sub_shape(InferContext& ctx) { arithmetic_rule(ctx, '-'); }
}  // namespace
SONNX_SHAPE_RULE("", "Sub", (1, 6, 7, 13, 14), sub_shape);
}  // namespace sonnx
