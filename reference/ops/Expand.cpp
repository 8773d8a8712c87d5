// Expand: broadcasts the input against `shape` with numpy's rules (right-aligned; equal dims or
// one of them 1). The result shape is the broadcast of both, so it may be larger than `shape`.
// Relies on ops/movement.mlw Expand.expand_shape: the output shape is the multidirectional broadcast of the input shape and the requested shape.
#include "support/shape.h"
#include "support/elementwise.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> expand(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& shape_t = ctx.input(1);
  if (shape_t.rank() != 1) ctx.fail("shape must be a 1-D tensor");
  Shape shape = int_values(ctx, shape_t, "shape");
  for (int64_t d : shape)
    if (d < 0) ctx.fail("shape entries must be non-negative, got " + shape_str(shape));
  Shape out_shape = broadcast_shapes(ctx, x.shape(), shape);
  shape_size(out_shape);  // traps on absurd sizes before allocating
  return one(broadcast_to(x, out_shape));
}
}  // namespace
SONNX_KERNEL("", "Expand", 8, expand, Accuracy::Exact);
namespace {
// The input broadcast with the requested shape (a partial value: each element a dim).
void expand_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  const Dims* x = ctx.input_shape(0);
  auto req = ctx.input_partial(1);
  if (!req) {
    const Dims* s = ctx.input_shape(1);
    if (s && s->size() != 1) ctx.fail("the shape input must be 1-D");
    ctx.set_output(0, t, std::nullopt);
    if (x && s && (*s)[0].value && *(*s)[0].value >= 0 && *(*s)[0].value <= kMaxKnownElements)
      ctx.set_output(0, t, Dims(static_cast<size_t>(std::max<int64_t>(*(*s)[0].value, static_cast<int64_t>(x->size())))));
    return;
  }
  if (req->scalar) ctx.fail("the shape input must be 1-D");
  for (const auto& d : req->elems)
    if (d.value) size_dim(ctx, *d.value, "the shape");
  ctx.set_output(0, t, broadcast_shapes(ctx, {x, &req->elems}));
}
}  // namespace
SONNX_SHAPE_RULE("", "Expand", (8, 13), expand_shape);
}  // namespace sonnx
