// Reciprocal: elementwise 1/x (±inf at ±0). Versions 1, 6, 13 (13 adds bfloat16) compute the
// same function.
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> reciprocal_kernel(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) { return 1.0 / x; }));
}
}  // namespace
SONNX_KERNEL("", "Reciprocal", 1, reciprocal_kernel, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Reciprocal", (1, 6, 13), same_as_input_rule);
}  // namespace sonnx
