// Ceil: elementwise smallest integer ≥ x. Versions 1, 6, 13 (13 adds bfloat16) compute the
// same function.
#include "op_params.h"
#include "params/legacy.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> ceil_kernel(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) { return std::ceil(x); }));
}
}  // namespace
// Version 1's only attribute is the legacy consumed_inputs.
SONNX_PARAMS("", "Ceil", (1), LegacyConsumedInputsParams);
SONNX_KERNEL("", "Ceil", 1, ceil_kernel, Accuracy::Exact);
SONNX_SHAPE_RULE("", "Ceil", (1, 6, 13), same_as_input_rule);
}  // namespace sonnx
