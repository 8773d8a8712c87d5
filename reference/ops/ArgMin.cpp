// ArgMin: the int64 index of the minimum along `axis` (default 0); keepdims (default 1) keeps the
// axis as size 1. Version 11 documents negative axes (accepted in every version); version 12 adds
// select_last_index (ties pick the last occurrence instead of the first); 13 adds bfloat16.
// NaN counts as the minimum (numpy.argmin). An empty axis has no index and traps.
#include "op_params.h"
#include "params/reduce.h"
#include "support/shape.h"
#include "support/reduce.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> argmin(OpContext& ctx) { return arg_extreme(ctx, /*want_max=*/false); }
}  // namespace
SONNX_PARAMS("", "ArgMin", (1, 11, 12, 13), ArgReduceParams);
SONNX_KERNEL("", "ArgMin", 1, argmin, Accuracy::Exact);
namespace {
// int64 indices along one axis, kept as 1 with keepdims.
void argmin_shape(InferContext& ctx) {
  const Dims* x = ctx.input_shape(0);
  if (!x) {
    ctx.set_output(0, DType::Int64, std::nullopt);
    return;
  }
  ArgReduceParams p = ArgReduceParams::read(ctx, ctx.version());
  int64_t axis = infer_axis(ctx, p.axis, static_cast<int64_t>(x->size()));
  ctx.set_output(0, DType::Int64, reduce_dims(*x, {axis}, p.keepdims, false));
}
}  // namespace
SONNX_SHAPE_RULE("", "ArgMin", (1, 11, 12, 13), argmin_shape);
}  // namespace sonnx
