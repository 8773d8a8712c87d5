// Atan: elementwise arctangent.
#include "util_a.h"

namespace sonnx {
namespace {
using namespace ops_a;

std::vector<Value> atan_kernel(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) { return std::atan(x); }));
}
}  // namespace
SONNX_KERNEL("", "Atan", 7, atan_kernel, Accuracy::Rounding);
}  // namespace sonnx
