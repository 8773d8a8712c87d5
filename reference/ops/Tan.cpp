// Tan: elementwise tangent (radians).
#include "util_a.h"

namespace sonnx {
namespace {
using namespace ops_a;

std::vector<Value> tan_kernel(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) { return std::tan(x); }));
}
}  // namespace
SONNX_KERNEL("", "Tan", 7, tan_kernel, Accuracy::Rounding);
}  // namespace sonnx
