// Celu: elementwise max(0, x) + min(0, alpha * (e^(x/alpha) - 1)); alpha = 1 by default
// (version 12; the schema lists float only, the other floating types compute the same formula).
#include "op_params.h"
#include "params/activation.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> celu(OpContext& ctx) {
  double alpha = ActivationParams::read(ctx, ctx.version()).alpha;
  return one(float_unary(ctx, ctx.input(0), [&](double x) {
    if (std::isnan(x)) return x;
    double positive = x > 0.0 ? x : 0.0;
    double e = alpha * std::expm1(x / alpha);
    double negative = e < 0.0 ? e : 0.0;
    return positive + negative;
  }));
}
}  // namespace
SONNX_PARAMS("", "Celu", (12), ActivationParams);
SONNX_KERNEL("", "Celu", 12, celu, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Celu", (12), same_as_input_rule);
}  // namespace sonnx
