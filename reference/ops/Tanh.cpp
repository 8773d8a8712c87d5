// Tanh: elementwise hyperbolic tangent. Versions 1, 6, 13 (13 adds bfloat16) compute the
// same function.
#include "op_params.h"
#include "params/legacy.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> tanh_kernel(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) { return std::tanh(x); }));
}
}  // namespace
// Version 1's only attribute is the legacy consumed_inputs.
SONNX_PARAMS("", "Tanh", (1), LegacyConsumedInputsParams);
SONNX_KERNEL("", "Tanh", 1, tanh_kernel, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Tanh", (1, 6, 13), same_as_input_rule);
}  // namespace sonnx
