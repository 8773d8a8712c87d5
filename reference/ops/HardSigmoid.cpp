// HardSigmoid: elementwise max(0, min(1, alpha * x + beta)), alpha = 0.2 and beta = 0.5 by
// default. Versions 1 and 6 compute the same function. NaN stays NaN.
#include "op_params.h"
#include "params/activation.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> hard_sigmoid(OpContext& ctx) {
  ActivationParams p = ActivationParams::read(ctx, ctx.version());
  double alpha = p.alpha, beta = p.beta;
  return one(float_unary(ctx, ctx.input(0), [&](double x) {
    double y = alpha * x + beta;
    if (std::isnan(y)) return y;
    return y < 0.0 ? 0.0 : (y > 1.0 ? 1.0 : y);
  }));
}
}  // namespace
SONNX_PARAMS("", "HardSigmoid", (1, 6, 22), ActivationParams);
SONNX_KERNEL("", "HardSigmoid", 1, hard_sigmoid, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "HardSigmoid", 22, hard_sigmoid, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "HardSigmoid", (1, 6, 22), same_as_input_rule);
}  // namespace sonnx
