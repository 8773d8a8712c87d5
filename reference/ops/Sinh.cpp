// Sinh: elementwise hyperbolic sine.
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> sinh_kernel(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) { return std::sinh(x); }));
}
}  // namespace
SONNX_KERNEL("", "Sinh", 9, sinh_kernel, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "Sinh", 22, sinh_kernel, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Sinh", (9, 22), same_as_input_rule);
}  // namespace sonnx
