// LeakyRelu: elementwise alpha * x for x < 0, x otherwise; alpha = 0.01 by default. Versions 1, 6
// and 16 (16 adds bfloat16) compute the same function.
#include "op_params.h"
#include "params/activation.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> leaky_relu(OpContext& ctx) {
  double alpha = ActivationParams::read(ctx, ctx.version()).alpha;
  return one(float_unary(ctx, ctx.input(0), [&](double x) { return x < 0.0 ? alpha * x : x; }));
}
}  // namespace
SONNX_PARAMS("", "LeakyRelu", (1, 6, 16), ActivationParams);
SONNX_KERNEL("", "LeakyRelu", 1, leaky_relu, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "LeakyRelu", (1, 6, 16), same_as_input_rule);
}  // namespace sonnx
