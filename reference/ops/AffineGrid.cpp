// AffineGrid (version 20): the sampling grid of a batch of affine matrices. theta is (N, 2, 3) for
// 2-D or (N, 3, 4) for 3-D; size (int64) is (N, C, H, W) or (N, C, D, H, W). The grid of positions
// evenly spaced in [-1, 1] along each spatial dim of extent n has, at index i,
//   align_corners = 0: -1 + (2i + 1) / n   (the centres of n equal cells)
//   align_corners = 1: -1 + 2i / (n - 1)   (0 when n = 1)
// and the output grid (N, H, W, 2) or (N, D, H, W, 3) holds theta[n] times the homogeneous
// position (x, y, 1) or (x, y, z, 1), where x runs along W, y along H and z along D. A size not of
// 4 or 5 values, a negative extent, or theta of the wrong shape for it traps. The schema's
// function body builds the same grid with Range and MatMul in T; this kernel computes in double
// and rounds once to T.
#include "op_params.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
struct AffineGridParams {
  bool align_corners = false;  // any nonzero value: -1 and 1 are the corner pixels' centres, not their outer edges
  static AffineGridParams read(const AttrReader& r, int64_t /*version*/) { return {r.attr_int("align_corners", 0) != 0}; }
};

double grid_position(int64_t i, int64_t n, bool align_corners) {
  if (align_corners) return n == 1 ? 0.0 : -1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(n - 1);
  return -1.0 + static_cast<double>(2 * i + 1) / static_cast<double>(n);
}

std::vector<Value> affine_grid(OpContext& ctx) {
  const AffineGridParams p = AffineGridParams::read(ctx, ctx.version());
  const Tensor& theta = ctx.input(0);
  std::vector<int64_t> size = int_values(ctx, ctx.input(1), "size");
  if (ctx.input(1).rank() != 1 || (size.size() != 4 && size.size() != 5))
    ctx.fail("size must be a 1-D tensor of 4 (N, C, H, W) or 5 (N, C, D, H, W) values");
  auto dims = static_cast<int64_t>(size.size()) - 2;  // spatial dims: 2 or 3
  for (int64_t s : size)
    if (s < 0) ctx.fail("size values must not be negative");
  if (theta.shape() != Shape{size[0], dims, dims + 1})
    ctx.fail("theta must have shape (" + std::to_string(size[0]) + ", " + std::to_string(dims) + ", " +
             std::to_string(dims + 1) + "), got " + shape_str(theta.shape()));
  const bool align = p.align_corners;
  std::vector<double> th = float_values(ctx, theta);
  Shape spatial(size.begin() + 2, size.end());  // (H, W) or (D, H, W)
  Shape out_shape{size[0]};
  out_shape.insert(out_shape.end(), spatial.begin(), spatial.end());
  out_shape.push_back(dims);
  std::vector<double> grid(static_cast<size_t>(shape_size(out_shape)));
  size_t at = 0;
  for (int64_t n = 0; n < size[0]; ++n)
    for_each_index(spatial, [&](const std::vector<int64_t>& idx, int64_t) {
      // The homogeneous position (x, y[, z], 1): x from the last spatial dim, then backwards.
      std::vector<double> pos(static_cast<size_t>(dims + 1), 1.0);
      for (int64_t d = 0; d < dims; ++d) {
        auto sd = static_cast<size_t>(dims - 1 - d);
        pos[static_cast<size_t>(d)] = grid_position(idx[sd], spatial[sd], align);
      }
      for (int64_t r = 0; r < dims; ++r) {
        double v = 0;
        for (int64_t k = 0; k <= dims; ++k)
          v += th[static_cast<size_t>((n * dims + r) * (dims + 1) + k)] * pos[static_cast<size_t>(k)];
        grid[at++] = v;
      }
    });
  return one(float_tensor(ctx, theta.dtype(), out_shape, grid));
}
}  // namespace
SONNX_PARAMS("", "AffineGrid", (20), AffineGridParams);
SONNX_KERNEL("", "AffineGrid", 20, affine_grid, Accuracy::Rounding);
namespace {
// theta [N, 2, 3] and size (N, C, H, W) give [N, H, W, 2]; [N, 3, 4] and (N, C, D, H, W) [N, D, H, W, 3].
void affine_grid_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  auto size = ctx.input_partial(1);
  if (!size) return ctx.set_output(0, t, std::nullopt);
  if (size->elems.size() != 4 && size->elems.size() != 5) ctx.fail("size must have 4 or 5 elements");
  Dims o{size->elems[0]};
  o.insert(o.end(), size->elems.begin() + 2, size->elems.end());
  o.push_back(known_dim(static_cast<int64_t>(size->elems.size()) - 2));
  ctx.set_output(0, t, o);
}
}  // namespace
SONNX_SHAPE_RULE("", "AffineGrid", (20), affine_grid_shape);
}  // namespace sonnx
