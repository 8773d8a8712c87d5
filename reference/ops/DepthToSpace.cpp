// DepthToSpace: moves blocks of channels of an NCHW tensor into blocksize x blocksize spatial
// blocks. Mode DCR (default; the only behaviour of version 1): channels are read as
// [blocksize, blocksize, C/bs²]; mode CRD (version 11+): as [C/bs², blocksize, blocksize].
#include "op_params.h"
#include "params/indexing.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> depth_to_space(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() != 4) ctx.fail("input must have rank 4 (N, C, H, W)");
  BlockParams p = BlockParams::read(ctx, ctx.version());
  int64_t bs = p.blocksize;
  int64_t b = x.dim(0), c = x.dim(1), h = x.dim(2), w = x.dim(3);
  int64_t block = checked_mul(ctx, bs, bs);
  if (c % block != 0) ctx.fail("channels (" + std::to_string(c) + ") are not divisible by blocksize²");
  int64_t c_out = c / block;
  Tensor tmp, moved;
  if (!p.crd) {
    tmp = x.reshaped({b, bs, bs, c_out, h, w});
    moved = transpose_tensor(tmp, {0, 3, 4, 1, 5, 2});
  } else {
    tmp = x.reshaped({b, c_out, bs, bs, h, w});
    moved = transpose_tensor(tmp, {0, 1, 4, 2, 5, 3});
  }
  return one(moved.reshaped({b, c_out, checked_mul(ctx, h, bs), checked_mul(ctx, w, bs)}));
}
}  // namespace
SONNX_PARAMS("", "DepthToSpace", (1, 11, 13), BlockParams);
SONNX_KERNEL("", "DepthToSpace", 1, depth_to_space, Accuracy::Exact);
SONNX_KERNEL("", "DepthToSpace", 11, depth_to_space, Accuracy::Exact);
namespace {
// [N, C / b^2, H * b, W * b].
void depth_to_space_shape(InferContext& ctx) {
  require_rank(ctx, 0, 4, "input");
  int64_t b = BlockParams::read(ctx, ctx.version()).blocksize;
  const Dims* x = ctx.input_shape(0);
  if (!x) return ctx.set_output(0, ctx.input_elem(0), Dims(4));
  Dims o = *x;
  if (o[1].value) {
    if (*o[1].value % (b * b) != 0) ctx.fail("the channels are not a multiple of blocksize^2");
    o[1] = known_dim(*o[1].value / (b * b));
  }
  for (size_t i = 2; i < 4; ++i)
    if (o[i].value) o[i] = size_dim(ctx, *o[i].value * b, "blocksize");
    else o[i] = Dim{};
  ctx.set_output(0, ctx.input_elem(0), o);
}
}  // namespace
SONNX_SHAPE_RULE("", "DepthToSpace", (1, 11, 13), depth_to_space_shape);
}  // namespace sonnx
