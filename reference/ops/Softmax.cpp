// Softmax: exp(x) / sum(exp(x)).
// Versions 1 and 11: the input is coerced to 2-D at `axis` (default 1), [d0*...*d(axis-1),
// d(axis)*...*d(r-1)], and each row is normalized as a whole.
// Version 13: normalized along the single dimension `axis` (default -1).
// Computed in double as exp(x - max) / sum(exp(x - max)) (the same value, no overflow) and rounded
// once to the element type.
// Relies on ops/ops.mlw Softmax.softmax_pos: Softmax outputs are positive.
#include "op_params.h"
#include "params/softmax.h"
#include "support/shape.h"
#include "support/softmax.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> softmax(OpContext& ctx) { return softmax_family(ctx, SoftmaxKind::Softmax); }
}  // namespace
// One kernel: it reads ctx.version() to choose the coerced-2-D (≤ 12) or single-axis (≥ 13) form.
SONNX_PARAMS("", "Softmax", (1, 11, 13), SoftmaxParams);
SONNX_KERNEL("", "Softmax", 1, softmax, Accuracy::Rounding);
SONNX_KERNEL("", "Softmax", 13, softmax, Accuracy::Rounding);
namespace {
void softmax_shape(InferContext& ctx) {
  if (auto r = ctx.input_rank(0)) infer_axis(ctx, SoftmaxParams::read(ctx, ctx.version()).axis, *r);
  same_as_input_rule(ctx);
}
}  // namespace
SONNX_SHAPE_RULE("", "Softmax", (1, 11, 13), softmax_shape);
}  // namespace sonnx
