// Acos: elementwise arccosine (NaN outside [-1, 1]).
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> acos_kernel(OpContext& ctx) {
  return one(float_unary(ctx, ctx.input(0), [](double x) { return std::acos(x); }));
}
}  // namespace
SONNX_KERNEL("", "Acos", 7, acos_kernel, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "Acos", 22, acos_kernel, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Acos", (7, 22), same_as_input_rule);
}  // namespace sonnx
