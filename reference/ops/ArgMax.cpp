// ArgMax: the int64 index of the maximum along `axis` (default 0); keepdims (default 1) keeps the
// axis as size 1. Version 11 documents negative axes (accepted in every version); version 12 adds
// select_last_index (ties pick the last occurrence instead of the first); 13 adds bfloat16.
// NaN counts as the maximum (numpy.argmax). An empty axis has no index and traps.
// Relies on ops/reduce.mlw ArgMax.argmax_first: the index selects a maximum along the axis, the first one (the last with select_last_index).
#include "op_params.h"
#include "params/reduce.h"
#include "support/shape.h"
#include "support/reduce.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> argmax(OpContext& ctx) { return arg_extreme(ctx, /*want_max=*/true); }
}  // namespace
SONNX_PARAMS("", "ArgMax", (1, 11, 12, 13), ArgReduceParams);
SONNX_KERNEL("", "ArgMax", 1, argmax, Accuracy::Exact);
namespace {
// int64 indices along one axis, kept as 1 with keepdims.
void argmax_shape(InferContext& ctx) {
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
SONNX_SHAPE_RULE("", "ArgMax", (1, 11, 12, 13), argmax_shape);
}  // namespace sonnx
