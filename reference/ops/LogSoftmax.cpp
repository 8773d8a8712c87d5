// LogSoftmax: log(softmax(x)) = x - max - log(sum(exp(x - max))).
// Versions 1 and 11: the input is coerced to 2-D at `axis` (default 1), [d0*...*d(axis-1),
// d(axis)*...*d(r-1)], and each row is normalized as a whole.
// Version 13: along the single dimension `axis` (default -1).
// Computed in double and rounded once to the element type.
#include "op_params.h"
#include "params/softmax.h"
#include "support/shape.h"
#include "support/softmax.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> log_softmax(OpContext& ctx) { return softmax_family(ctx, SoftmaxKind::LogSoftmax); }
}  // namespace
// One kernel: it reads ctx.version() to choose the coerced-2-D (≤ 12) or single-axis (≥ 13) form.
SONNX_PARAMS("", "LogSoftmax", (1, 11, 13), SoftmaxParams);
SONNX_KERNEL("", "LogSoftmax", 1, log_softmax, Accuracy::Rounding);
SONNX_KERNEL("", "LogSoftmax", 13, log_softmax, Accuracy::Rounding);
namespace {
void logsoftmax_shape(InferContext& ctx) {
  if (auto r = ctx.input_rank(0)) infer_axis(ctx, SoftmaxParams::read(ctx, ctx.version()).axis, *r);
  same_as_input_rule(ctx);
}
}  // namespace
SONNX_SHAPE_RULE("", "LogSoftmax", (1, 11, 13), logsoftmax_shape);
}  // namespace sonnx
