// Exp: elementwise e^x. Versions 1, 6, 13 (13 adds bfloat16) compute the same function.
#include "util_a.h"

namespace sonnx {
namespace {
using namespace ops_a;

std::vector<Value> exp_kernel(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) { return std::exp(x); }));
}
}  // namespace
SONNX_KERNEL("", "Exp", 1, exp_kernel, Accuracy::Rounding);
}  // namespace sonnx
