// Sigmoid: elementwise 1 / (1 + e^-x). Versions 1, 6, 13 (13 adds bfloat16) compute the same
// function. In double, e^-x overflowing to inf for very negative x still gives the right limit 0.
#include "op_params.h"
#include "params/legacy.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> sigmoid(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) { return 1.0 / (1.0 + std::exp(-x)); }));
}
}  // namespace
// Version 1's only attribute is the legacy consumed_inputs.
SONNX_PARAMS("", "Sigmoid", (1), LegacyConsumedInputsParams);
SONNX_KERNEL("", "Sigmoid", 1, sigmoid, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Sigmoid", (1, 6, 13), same_as_input_rule);
}  // namespace sonnx
