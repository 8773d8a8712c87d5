// Softmax: exp(x) / sum(exp(x)).
// Versions 1 and 11: the input is coerced to 2-D at `axis` (default 1), [d0*...*d(axis-1),
// d(axis)*...*d(r-1)], and each row is normalized as a whole.
// Version 13: normalized along the single dimension `axis` (default -1).
// Computed in double as exp(x - max) / sum(exp(x - max)) (the same value, no overflow) and rounded
// once to the element type.
// Relies on ops/ops.mlw Softmax.softmax_pos: Softmax outputs are positive.
#include "support/shape.h"
#include "support/softmax.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> softmax(OpContext& ctx) { return softmax_family(ctx, SoftmaxKind::Softmax); }
}  // namespace
// One kernel: it reads ctx.version() to choose the coerced-2-D (≤ 12) or single-axis (≥ 13) form.
SONNX_KERNEL("", "Softmax", 1, softmax, Accuracy::Rounding);
SONNX_KERNEL("", "Softmax", 13, softmax, Accuracy::Rounding);
namespace {
// The axis must name an axis of the input (default 1 before version 13, -1 from 13).
void softmax_shape(InferContext& ctx) {
  if (auto r = ctx.input_rank(0)) {
    int64_t axis = ctx.attr_int("axis", ctx.version() < 13 ? 1 : -1);
    // Before version 13 the input is coerced to 2-D at the axis, so axis == rank is allowed.
    if (ctx.version() < 13 ? (axis < -*r || axis > *r) : (axis < -*r || axis >= *r))
      ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(*r));
  }
  same_as_input_rule(ctx);
}
}  // namespace
SONNX_SHAPE_RULE("", "Softmax", (1, 11, 13), softmax_shape);
}  // namespace sonnx
