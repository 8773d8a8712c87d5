// Gelu (version 20): the Gaussian error linear unit, elementwise on a floating tensor.
//   approximate = "none" (default): y = 0.5 * x * (1 + erf(x / sqrt(2)))
//   approximate = "tanh":           y = 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))
// Any other value of approximate traps. The schema's function body computes the same formula step
// by step in T; this kernel evaluates it in double and rounds once to the element type.
#include <numbers>

#include "op_params.h"
#include "params/activation.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {
double gelu_exact(double x) { return 0.5 * x * (1.0 + std::erf(x / std::numbers::sqrt2)); }

double gelu_tanh(double x) {
  const double k = std::sqrt(2.0 / std::numbers::pi);
  return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
}

std::vector<Value> gelu(OpContext& ctx) {
  bool tanh = GeluParams::read(ctx, ctx.version()).tanh;
  return one(float_unary(ctx, ctx.input(0), tanh ? gelu_tanh : gelu_exact));
}
}  // namespace
SONNX_PARAMS("", "Gelu", (20), GeluParams);
SONNX_KERNEL("", "Gelu", 20, gelu, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Gelu", (20), same_as_input_rule);
}  // namespace sonnx
