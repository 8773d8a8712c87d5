// Hardmax: 1 at the first maximum, 0 elsewhere.
// Versions 1 and 11: the input is coerced to 2-D at `axis` (default 1), [d0*...*d(axis-1),
// d(axis)*...*d(r-1)]: exactly one 1 per row of d(axis)*...*d(r-1) elements.
// Version 13: along the single dimension `axis` (default -1): one 1 per line along that axis.
// NaN counts as the maximum (numpy.argmax, as the test generator uses).
#include "op_params.h"
#include "params/softmax.h"
#include "support/shape.h"
#include "support/softmax.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> hardmax(OpContext& ctx) { return softmax_family(ctx, SoftmaxKind::Hardmax); }
}  // namespace
// One kernel: it reads ctx.version() to choose the coerced-2-D (≤ 12) or single-axis (≥ 13) form.
SONNX_PARAMS("", "Hardmax", (1, 11, 13), SoftmaxParams);
SONNX_KERNEL("", "Hardmax", 1, hardmax, Accuracy::Exact);
SONNX_KERNEL("", "Hardmax", 13, hardmax, Accuracy::Exact);
namespace {
void hardmax_shape(InferContext& ctx) {
  if (auto r = ctx.input_rank(0)) infer_axis(ctx, SoftmaxParams::read(ctx, ctx.version()).axis, *r);
  same_as_input_rule(ctx);
}
}  // namespace
SONNX_SHAPE_RULE("", "Hardmax", (1, 11, 13), hardmax_shape);
}  // namespace sonnx
