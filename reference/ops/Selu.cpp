// Selu: elementwise gamma * (alpha * e^x - alpha) for x <= 0, gamma * x for x > 0.
// The defaults differ between versions: version 1 declares alpha = 1.6732, gamma = 1.0507;
// version 6 the full-precision 1.67326319217681884765625 and 1.05070102214813232421875 (as float).
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

Tensor selu(OpContext& ctx, float default_alpha, float default_gamma) {
  double alpha = ctx.attr_float("alpha", default_alpha);
  double gamma = ctx.attr_float("gamma", default_gamma);
  return float_unary(ctx, ctx.input(0), [&](double x) { return x <= 0.0 ? gamma * (alpha * std::exp(x) - alpha) : gamma * x; });
}

std::vector<Value> selu_v1(OpContext& ctx) { return one(selu(ctx, 1.6732f, 1.0507f)); }
std::vector<Value> selu_v6(OpContext& ctx) { return one(selu(ctx, 1.67326319217681884765625f, 1.05070102214813232421875f)); }
}  // namespace
SONNX_KERNEL("", "Selu", 1, selu_v1, Accuracy::Rounding);
SONNX_KERNEL("", "Selu", 6, selu_v6, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "Selu", 22, selu_v6, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Selu", (1, 6, 22), same_as_input_rule);
}  // namespace sonnx
