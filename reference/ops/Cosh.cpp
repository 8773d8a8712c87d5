// Cosh: elementwise hyperbolic cosine.
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> cosh_kernel(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) { return std::cosh(x); }));
}
}  // namespace
SONNX_KERNEL("", "Cosh", 9, cosh_kernel, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "Cosh", 22, cosh_kernel, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Cosh", (9, 22), same_as_input_rule);
}  // namespace sonnx
