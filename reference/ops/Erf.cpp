// Erf: elementwise error function (version 9; 13 adds bfloat16). The schema also admits integer
// types: the value is computed in double and converted back toward zero (so only 0 and ±1 occur).
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> erf_kernel(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  return one(visit_real(ctx, x.dtype(), [&]<class T>() {
    return unary_elementwise<T, T>(x, [](T v) -> T {
      double r = std::erf(static_cast<double>(static_cast<compute_t<T>>(v)));
      if constexpr (std::is_integral_v<T>) return saturating_cast<T>(r);
      else return round_from_double<T>(r);
    });
  }));
}
}  // namespace
SONNX_KERNEL("", "Erf", 9, erf_kernel, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Erf", (9, 13), same_as_input_rule);
}  // namespace sonnx
