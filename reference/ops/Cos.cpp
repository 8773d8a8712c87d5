// Cos: elementwise cosine (radians).
#include "util_a.h"

namespace sonnx {
namespace {
using namespace ops_a;

std::vector<Value> cos_kernel(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) { return std::cos(x); }));
}
}  // namespace
SONNX_KERNEL("", "Cos", 7, cos_kernel, Accuracy::Rounding);
}  // namespace sonnx
