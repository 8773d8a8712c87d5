// Asinh: elementwise inverse hyperbolic sine.
#include "util_a.h"

namespace sonnx {
namespace {
using namespace ops_a;

std::vector<Value> asinh_kernel(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) { return std::asinh(x); }));
}
}  // namespace
SONNX_KERNEL("", "Asinh", 9, asinh_kernel, Accuracy::Rounding);
}  // namespace sonnx
