// SpaceToDepth: the inverse of DepthToSpace (DCR): each blocksize x blocksize spatial block of an
// NCHW tensor becomes channels; output [N, C*bs², H/bs, W/bs].
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> space_to_depth(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() != 4) ctx.fail("input must have rank 4 (N, C, H, W)");
  int64_t bs = ctx.attr_int("blocksize", 0);
  if (!ctx.has_attr("blocksize") || bs <= 0) ctx.fail("blocksize must be a positive integer");
  int64_t b = x.dim(0), c = x.dim(1), h = x.dim(2), w = x.dim(3);
  if (h % bs != 0 || w % bs != 0) ctx.fail("height and width must be divisible by blocksize");
  Tensor tmp = x.reshaped({b, c, h / bs, bs, w / bs, bs});
  Tensor moved = transpose_tensor(tmp, {0, 3, 5, 1, 2, 4});
  return one(moved.reshaped({b, checked_mul(ctx, c, checked_mul(ctx, bs, bs)), h / bs, w / bs}));
}
}  // namespace
SONNX_KERNEL("", "SpaceToDepth", 1, space_to_depth, Accuracy::Exact);
}  // namespace sonnx
