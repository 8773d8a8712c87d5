// Expand: broadcasts the input against `shape` with numpy's rules (right-aligned; equal dims or
// one of them 1). The result shape is the broadcast of both, so it may be larger than `shape`.
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
}  // namespace sonnx
