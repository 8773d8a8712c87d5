// Sqrt: elementwise square root (NaN for negative x, -0 for -0). Versions 1, 6, 13 (13 adds
// bfloat16) compute the same function.
#include "op_params.h"
#include "params/legacy.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> sqrt_kernel(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) { return std::sqrt(x); }));
}
}  // namespace
// Version 1's only attribute is the legacy consumed_inputs.
SONNX_PARAMS("", "Sqrt", (1), LegacyConsumedInputsParams);
SONNX_KERNEL("", "Sqrt", 1, sqrt_kernel, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Sqrt", (1, 6, 13), same_as_input_rule);
}  // namespace sonnx
