// Atanh: elementwise inverse hyperbolic tangent (±inf at ±1, NaN outside [-1, 1]).
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> atanh_kernel(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) { return std::atanh(x); }));
}
}  // namespace
SONNX_KERNEL("", "Atanh", 9, atanh_kernel, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "Atanh", 22, atanh_kernel, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Atanh", (9, 22), same_as_input_rule);
}  // namespace sonnx
