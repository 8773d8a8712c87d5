// Acosh: elementwise inverse hyperbolic cosine (NaN below 1).
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> acosh_kernel(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) { return std::acosh(x); }));
}
}  // namespace
SONNX_KERNEL("", "Acosh", 9, acosh_kernel, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "Acosh", 22, acosh_kernel, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Acosh", (9, 22), same_as_input_rule);
}  // namespace sonnx
