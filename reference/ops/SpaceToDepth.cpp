// SpaceToDepth: the inverse of DepthToSpace (DCR): each blocksize x blocksize spatial block of an
// NCHW tensor becomes channels; output [N, C*bs², H/bs, W/bs].
#include "op_params.h"
#include "params/indexing.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> space_to_depth(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() != 4) ctx.fail("input must have rank 4 (N, C, H, W)");
  int64_t bs = BlockParams::read(ctx, ctx.version()).blocksize;
  int64_t b = x.dim(0), c = x.dim(1), h = x.dim(2), w = x.dim(3);
  if (h % bs != 0 || w % bs != 0) ctx.fail("height and width must be divisible by blocksize");
  Tensor tmp = x.reshaped({b, c, h / bs, bs, w / bs, bs});
  Tensor moved = transpose_tensor(tmp, {0, 3, 5, 1, 2, 4});
  return one(moved.reshaped({b, checked_mul(ctx, c, checked_mul(ctx, bs, bs)), h / bs, w / bs}));
}
}  // namespace
SONNX_PARAMS("", "SpaceToDepth", (1, 13), BlockParams);
SONNX_KERNEL("", "SpaceToDepth", 1, space_to_depth, Accuracy::Exact);
namespace {
// [N, C * b^2, H / b, W / b].
void space_to_depth_shape(InferContext& ctx) {
  require_rank(ctx, 0, 4, "input");
  int64_t b = BlockParams::read(ctx, ctx.version()).blocksize;
  const Dims* x = ctx.input_shape(0);
  if (!x) return ctx.set_output(0, ctx.input_elem(0), Dims(4));
  Dims o = *x;
  o[1] = o[1].value ? size_dim(ctx, *o[1].value * b * b, "blocksize") : Dim{};
  for (size_t i = 2; i < 4; ++i) {
    if (!o[i].value) continue;
    if (*o[i].value % b != 0) ctx.fail("a spatial dimension is not a multiple of blocksize");
    o[i] = known_dim(*o[i].value / b);
  }
  ctx.set_output(0, ctx.input_elem(0), o);
}
}  // namespace
SONNX_SHAPE_RULE("", "SpaceToDepth", (1, 13), space_to_depth_shape);
}  // namespace sonnx
