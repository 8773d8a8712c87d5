// Round: elementwise nearest integer, halves to the nearest even integer (version 11).
// ±0, ±inf and NaN are returned unchanged.
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> round_kernel(OpContext& ctx) { return one(float_unary(ctx, ctx.input(0), round_half_even)); }
}  // namespace
SONNX_KERNEL("", "Round", 11, round_kernel, Accuracy::Exact);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "Round", 22, round_kernel, Accuracy::Exact);
SONNX_SHAPE_RULE("", "Round", (11, 22), same_as_input_rule);
}  // namespace sonnx
