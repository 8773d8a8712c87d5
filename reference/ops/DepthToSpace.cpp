// DepthToSpace: moves blocks of channels of an NCHW tensor into blocksize x blocksize spatial
// blocks. Mode DCR (default; the only behaviour of version 1): channels are read as
// [blocksize, blocksize, C/bs²]; mode CRD (version 11+): as [C/bs², blocksize, blocksize].
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> depth_to_space(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() != 4) ctx.fail("input must have rank 4 (N, C, H, W)");
  int64_t bs = ctx.attr_int("blocksize", 0);
  if (!ctx.has_attr("blocksize") || bs <= 0) ctx.fail("blocksize must be a positive integer");
  std::string mode = ctx.version() >= 11 ? ctx.attr_string("mode", "DCR") : "DCR";
  if (mode != "DCR" && mode != "CRD") ctx.fail("unsupported mode '" + mode + "'");
  int64_t b = x.dim(0), c = x.dim(1), h = x.dim(2), w = x.dim(3);
  int64_t block = checked_mul(ctx, bs, bs);
  if (c % block != 0) ctx.fail("channels (" + std::to_string(c) + ") are not divisible by blocksize²");
  int64_t c_out = c / block;
  Tensor tmp, moved;
  if (mode == "DCR") {
    tmp = x.reshaped({b, bs, bs, c_out, h, w});
    moved = transpose_tensor(tmp, {0, 3, 4, 1, 5, 2});
  } else {
    tmp = x.reshaped({b, c_out, bs, bs, h, w});
    moved = transpose_tensor(tmp, {0, 1, 4, 2, 5, 3});
  }
  return one(moved.reshaped({b, c_out, checked_mul(ctx, h, bs), checked_mul(ctx, w, bs)}));
}
}  // namespace
SONNX_KERNEL("", "DepthToSpace", 1, depth_to_space, Accuracy::Exact);
SONNX_KERNEL("", "DepthToSpace", 11, depth_to_space, Accuracy::Exact);
}  // namespace sonnx
