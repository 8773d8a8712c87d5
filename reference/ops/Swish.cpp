// Swish (version 24): y = x * sigmoid(alpha * x), elementwise on a floating tensor; alpha is a
// float attribute, 1.0 by default (alpha = 1 gives SiLU). The schema's function body computes it
// as Mul(X, Sigmoid(Mul(alpha, X))) in T; this kernel evaluates it in double (alpha as the float
// the attribute holds) and rounds once to the element type.
#include "op_params.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {
// 1 / (1 + e^-z), without overflow of e^-z for large negative z.
double sigmoid(double z) {
  if (z >= 0.0) return 1.0 / (1.0 + std::exp(-z));
  double e = std::exp(z);
  return e / (1.0 + e);
}

struct SwishParams {
  float alpha = 1.0f;
  static SwishParams read(const AttrReader& r, int64_t /*version*/) { return {r.attr_float("alpha", 1.0f)}; }
};

std::vector<Value> swish(OpContext& ctx) {
  auto alpha = static_cast<double>(SwishParams::read(ctx, ctx.version()).alpha);
  return one(float_unary(ctx, ctx.input(0), [alpha](double x) { return x * sigmoid(alpha * x); }));
}
}  // namespace
SONNX_PARAMS("", "Swish", (24), SwishParams);
SONNX_KERNEL("", "Swish", 24, swish, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Swish", (24), same_as_input_rule);
}  // namespace sonnx
