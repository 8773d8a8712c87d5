// Cos: elementwise cosine (radians).
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> cos_kernel(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) { return std::cos(x); }));
}
}  // namespace
SONNX_KERNEL("", "Cos", 7, cos_kernel, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "Cos", 22, cos_kernel, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Cos", (7, 22), same_as_input_rule);
}  // namespace sonnx
