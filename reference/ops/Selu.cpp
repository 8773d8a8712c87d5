// Selu: elementwise gamma * (alpha * e^x - alpha) for x <= 0, gamma * x for x > 0.
// The defaults differ between versions: version 1 declares alpha = 1.6732, gamma = 1.0507;
// version 6 the full-precision 1.67326319217681884765625 and 1.05070102214813232421875 (as float).
#include "op_params.h"
#include "params/activation.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> selu(OpContext& ctx) {
  ActivationParams p = ActivationParams::read(ctx, ctx.version());
  double alpha = p.alpha, gamma = p.gamma;
  return one(
      float_unary(ctx, ctx.input(0), [&](double x) { return x <= 0.0 ? gamma * (alpha * std::exp(x) - alpha) : gamma * x; }));
}
}  // namespace
SONNX_PARAMS("", "Selu", (1, 6, 22), ActivationParams);
SONNX_KERNEL("", "Selu", 1, selu, Accuracy::Rounding);
SONNX_KERNEL("", "Selu", 6, selu, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "Selu", 22, selu, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Selu", (1, 6, 22), same_as_input_rule);
}  // namespace sonnx
