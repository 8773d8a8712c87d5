// Sign: elementwise 1 for x > 0, -1 for x < 0, 0 for x == 0 (version 9; 13 adds bfloat16).
// NaN has no sign and stays NaN.
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> sign(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  return one(visit_real(ctx, x.dtype(), [&]<class T>() {
    return unary_elementwise<T, T>(x, [](T v) -> T {
      using C = compute_t<T>;
      C c = static_cast<C>(v);
      if (c > C(0)) return to_storage<T>(C(1));
      if constexpr (std::is_signed_v<C>) {
        if (c < C(0)) return to_storage<T>(C(-1));
      }
      if (c == C(0)) return to_storage<T>(C(0));
      return v;  // NaN
    });
  }));
}
}  // namespace
SONNX_KERNEL("", "Sign", 9, sign, Accuracy::Exact);
SONNX_SHAPE_RULE("", "Sign", (9, 13), same_as_input_rule);
}  // namespace sonnx
