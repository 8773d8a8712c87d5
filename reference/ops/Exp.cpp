// Exp: elementwise e^x. Versions 1, 6, 13 (13 adds bfloat16) compute the same function.
#include "op_params.h"
#include "params/legacy.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> exp_kernel(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) { return std::exp(x); }));
}
}  // namespace
// Version 1's only attribute is the legacy consumed_inputs.
SONNX_PARAMS("", "Exp", (1), LegacyConsumedInputsParams);
SONNX_KERNEL("", "Exp", 1, exp_kernel, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Exp", (1, 6, 13), same_as_input_rule);
}  // namespace sonnx
