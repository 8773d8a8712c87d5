// Sin: elementwise sine (radians).
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> sin_kernel(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) { return std::sin(x); }));
}
}  // namespace
SONNX_KERNEL("", "Sin", 7, sin_kernel, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "Sin", 22, sin_kernel, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Sin", (7, 22), same_as_input_rule);
}  // namespace sonnx
