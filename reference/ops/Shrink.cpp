// Shrink: elementwise x + bias for x < -lambd, x - bias for x > lambd, 0 otherwise; lambd = 0.5 and
// bias = 0 by default (version 9). Floats: computed in double, rounded once; NaN stays NaN.
// Integers: computed in double and converted back toward zero (saturating), so e.g. with
// bias = 0.5 the integer 3 gives 2.
#include "op_params.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

struct ShrinkParams {
  float lambd = 0.5f, bias = 0.0f;
  static ShrinkParams read(const AttrReader& r, int64_t /*version*/) {
    return {r.attr_float("lambd", 0.5f), r.attr_float("bias", 0.0f)};
  }
};

std::vector<Value> shrink(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  ShrinkParams p = ShrinkParams::read(ctx, ctx.version());
  double lambd = p.lambd;
  double bias = p.bias;
  auto f = [&](double v) {
    if (std::isnan(v)) return v;
    if (v < -lambd) return v + bias;
    if (v > lambd) return v - bias;
    return 0.0;
  };
  return one(visit_real(ctx, x.dtype(), [&]<class T>() {
    return unary_elementwise<T, T>(x, [&](T v) -> T {
      double r = f(static_cast<double>(static_cast<compute_t<T>>(v)));
      if constexpr (std::is_integral_v<T>) return saturating_cast<T>(r);
      else return round_from_double<T>(r);
    });
  }));
}
}  // namespace
SONNX_PARAMS("", "Shrink", (9), ShrinkParams);
SONNX_KERNEL("", "Shrink", 9, shrink, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Shrink", (9), same_as_input_rule);
}  // namespace sonnx
