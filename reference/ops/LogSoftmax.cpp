// LogSoftmax: log(softmax(x)) = x - max - log(sum(exp(x - max))).
// Versions 1 and 11: the input is coerced to 2-D at `axis` (default 1), [d0*...*d(axis-1),
// d(axis)*...*d(r-1)], and each row is normalized as a whole.
// Version 13: along the single dimension `axis` (default -1).
// Computed in double and rounded once to the element type.
#include "support/shape.h"
#include "support/softmax.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> log_softmax(OpContext& ctx) { return softmax_family(ctx, SoftmaxKind::LogSoftmax); }
}  // namespace
// One kernel: it reads ctx.version() to choose the coerced-2-D (≤ 12) or single-axis (≥ 13) form.
SONNX_KERNEL("", "LogSoftmax", 1, log_softmax, Accuracy::Rounding);
SONNX_KERNEL("", "LogSoftmax", 13, log_softmax, Accuracy::Rounding);
namespace {
// The axis must name an axis of the input (default 1 before version 13, -1 from 13).
void logsoftmax_shape(InferContext& ctx) {
  if (auto r = ctx.input_rank(0)) {
    int64_t axis = ctx.attr_int("axis", ctx.version() < 13 ? 1 : -1);
    // Before version 13 the input is coerced to 2-D at the axis, so axis == rank is allowed.
    if (ctx.version() < 13 ? (axis < -*r || axis > *r) : (axis < -*r || axis >= *r))
      ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(*r));
  }
  same_as_input_rule(ctx);
}
}  // namespace
SONNX_SHAPE_RULE("", "LogSoftmax", (1, 11, 13), logsoftmax_shape);
}  // namespace sonnx
