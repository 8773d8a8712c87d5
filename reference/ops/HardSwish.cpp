// HardSwish: elementwise x * max(0, min(1, x / 6 + 1/2)) (version 14). NaN stays NaN.
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> hard_swish(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) {
    double h = x / 6.0 + 0.5;
    if (std::isnan(h)) return h;
    h = h < 0.0 ? 0.0 : (h > 1.0 ? 1.0 : h);
    return x * h;
  }));
}
}  // namespace
SONNX_KERNEL("", "HardSwish", 14, hard_swish, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "HardSwish", 22, hard_swish, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "HardSwish", (14, 22), same_as_input_rule);
}  // namespace sonnx
