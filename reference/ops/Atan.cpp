// Atan: elementwise arctangent.
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> atan_kernel(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) { return std::atan(x); }));
}
}  // namespace
SONNX_KERNEL("", "Atan", 7, atan_kernel, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "Atan", 22, atan_kernel, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Atan", (7, 22), same_as_input_rule);
}  // namespace sonnx
