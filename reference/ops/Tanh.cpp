// Tanh: elementwise hyperbolic tangent. Versions 1, 6, 13 (13 adds bfloat16) compute the
// same function.
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> tanh_kernel(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) { return std::tanh(x); }));
}
}  // namespace
SONNX_KERNEL("", "Tanh", 1, tanh_kernel, Accuracy::Rounding);
}  // namespace sonnx
