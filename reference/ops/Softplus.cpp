// Softplus: elementwise ln(e^x + 1) (version 1). Evaluated as max(x, 0) + ln(1 + e^-|x|), the same
// value without the spurious overflow of e^x for large x.
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> softplus(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) {
    if (std::isnan(x)) return x;
    return (x > 0.0 ? x : 0.0) + std::log1p(std::exp(-std::fabs(x)));
  }));
}
}  // namespace
SONNX_KERNEL("", "Softplus", 1, softplus, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "Softplus", 22, softplus, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Softplus", (1, 22), same_as_input_rule);
}  // namespace sonnx
