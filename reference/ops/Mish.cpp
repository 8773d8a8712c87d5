// Mish: y = x * tanh(softplus(x)) = x * tanh(ln(1 + e^x)), elementwise. Version 18 is a primitive
// operator; version 22 adds bfloat16 and is defined by a function body computing the same formula
// (Softplus, Tanh, Mul) in T. Both evaluate in double and round once to the element type;
// softplus is taken as max(x, 0) + ln(1 + e^-|x|) so that e^x cannot overflow for large x.
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {
double mish_one(double x) {
  if (std::isnan(x)) return x;
  double softplus = (x > 0.0 ? x : 0.0) + std::log1p(std::exp(-std::fabs(x)));
  return x * std::tanh(softplus);
}

std::vector<Value> mish(OpContext& ctx) { return one(float_unary(ctx, ctx.input(0), mish_one)); }
}  // namespace
SONNX_KERNEL("", "Mish", 18, mish, Accuracy::Rounding);
SONNX_KERNEL("", "Mish", 22, mish, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Mish", (18, 22), same_as_input_rule);
}  // namespace sonnx
