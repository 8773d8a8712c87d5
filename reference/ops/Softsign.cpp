// Softsign: elementwise x / (1 + |x|) (version 1). At ±inf the formula would evaluate to inf/inf;
// the function's value there is its limit ±1.
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> softsign(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) {
    if (std::isinf(x)) return std::copysign(1.0, x);
    return x / (1.0 + std::fabs(x));
  }));
}
}  // namespace
SONNX_KERNEL("", "Softsign", 1, softsign, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "Softsign", 22, softsign, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Softsign", (1, 22), same_as_input_rule);
}  // namespace sonnx
