// Elu: elementwise alpha * (e^x - 1) for x < 0, x otherwise; alpha = 1 by default. Versions 1 and 6
// compute the same function.
#include "op_params.h"
#include "params/activation.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> elu(OpContext& ctx) {
  double alpha = ActivationParams::read(ctx, ctx.version()).alpha;
  return one(float_unary(ctx, ctx.input(0), [&](double x) { return x < 0.0 ? alpha * std::expm1(x) : x; }));
}
}  // namespace
SONNX_PARAMS("", "Elu", (1, 6, 22), ActivationParams);
SONNX_KERNEL("", "Elu", 1, elu, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "Elu", 22, elu, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Elu", (1, 6, 22), same_as_input_rule);
}  // namespace sonnx
