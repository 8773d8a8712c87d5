// ThresholdedRelu: elementwise x for x > alpha, 0 otherwise; alpha = 1 by default (version 10).
// NaN stays NaN (as in Relu).
#include "op_params.h"
#include "params/activation.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> thresholded_relu(OpContext& ctx) {
  double alpha = ActivationParams::read(ctx, ctx.version()).alpha;
  return one(float_unary(ctx, ctx.input(0), [&](double x) {
    if (std::isnan(x)) return x;
    return x > alpha ? x : 0.0;
  }));
}
}  // namespace
SONNX_PARAMS("", "ThresholdedRelu", (10, 22), ActivationParams);
SONNX_KERNEL("", "ThresholdedRelu", 10, thresholded_relu, Accuracy::Exact);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "ThresholdedRelu", 22, thresholded_relu, Accuracy::Exact);
SONNX_SHAPE_RULE("", "ThresholdedRelu", (10, 22), same_as_input_rule);
}  // namespace sonnx
