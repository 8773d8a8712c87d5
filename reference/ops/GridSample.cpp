// GridSample (version 16): Y[n, c, h, w] samples X[n, c] at the point grid[n, h, w] = (x, y),
// given in [-1, 1] normalised coordinates (x across the width, y across the height).
// Normalised to pixel coordinates: align_corners=1 maps -1 and 1 to the centres of the corner
// pixels, ((v + 1) / 2) * (size - 1); align_corners=0 to their outer edges,
// ((v + 1) * size - 1) / 2.
// padding_mode: "zeros" reads 0 outside the image; "border" clamps coordinates to [0, size-1];
// "reflection" reflects them at the border (about the corner pixel centres with align_corners=1,
// about the image edges at -0.5 and size-0.5 otherwise), then clamps.
// mode: "bilinear" (four neighbours), "nearest" (the nearest pixel, ties to even), "bicubic"
// (4x4 neighbours, cubic coefficient -0.75; each neighbour's index is padded separately).
// These are the semantics of torch.nn.functional.grid_sample, which the operator names as its model.
// X may have any real type (integer results round to nearest, ties to even); grid is floating.
// Version 20: any number r >= 1 of spatial axes, X (N, C, D1..Dr) and grid (N, D1_out..Dr_out, r)
// whose last axis lists the coordinates from the innermost spatial axis outwards; the modes are
// renamed linear (N-linear, the default), nearest and cubic (N-cubic), each axis interpolated
// independently as in version 16. Version 22 adds bfloat16.
#include "op_params.h"
#include "params/grid_sample.h"
#include "support/grid_sample.h"
#include "support/shape.h"
#include "support/resample.h"

namespace sonnx {
using namespace support;
namespace {

using Taps = std::vector<std::pair<int64_t, double>>;

// The (index, weight) taps along one spatial axis of `size` elements for normalised coordinate v.
Taps grid_axis_taps(double v, int64_t size, GridInterp mode, GridPadding pad, bool align) {
  double s = static_cast<double>(size);
  double f = align ? (v + 1) / 2 * (s - 1) : ((v + 1) * s - 1) / 2;
  if (mode == GridInterp::Cubic) {
    double f0 = std::floor(f), t = f - f0;
    Taps taps;
    for (int i = 0; i < 4; ++i)
      taps.push_back({grid_index(grid_pad_coordinate(f0 - 1 + i, size, pad, align)), cubic_weight(t - (i - 1), -0.75)});
    return taps;
  }
  double p = grid_pad_coordinate(f, size, pad, align);
  if (mode == GridInterp::Nearest) return {{grid_index(std::nearbyint(p)), 1.0}};
  double p0 = std::floor(p), t = p - p0;
  int64_t i0 = grid_index(p0);
  return {{i0, 1 - t}, {i0 + 1, t}};
}

// One output element: the sum over the Cartesian product of the axes' taps of the weights'
// product times the input element (0 outside the input).
double sample(const double* plane, const Shape& in, const std::vector<int64_t>& strides, const std::vector<Taps>& taps) {
  size_t r = taps.size();
  std::vector<size_t> pos(r, 0);
  double v = 0;
  while (true) {
    double w = 1;
    int64_t off = 0;
    bool inside = true;
    for (size_t d = 0; d < r; ++d) {
      auto [i, wd] = taps[d][pos[d]];
      w *= wd;
      if (i < 0 || i >= in[d]) inside = false;
      else off += i * strides[d];
    }
    if (inside) v += w * plane[off];
    size_t d = r;
    while (d > 0 && ++pos[d - 1] == taps[d - 1].size()) pos[--d] = 0;
    if (d == 0) return v;
  }
}

Tensor grid_sample_nd(const OpContext& ctx, const Tensor& x, const Tensor& grid, const GridSampleParams& p) {
  const int64_t r = x.rank() - 2;
  if (r < 1) ctx.fail("X must be (N, C, D1, ...), got " + shape_str(x.shape()));
  if (grid.rank() != r + 2 || grid.dim(r + 1) != r || grid.dim(0) != x.dim(0))
    ctx.fail("grid must be (N, D1_out, ..., " + std::to_string(r) + ") with X's N, got " + shape_str(grid.shape()));
  if (!is_float(grid.dtype())) ctx.fail("grid must be a floating tensor");
  const GridInterp mode = p.mode;
  const GridPadding pad = p.padding;
  const bool align = p.align_corners;
  const int64_t N = x.dim(0), C = x.dim(1);
  Shape in(x.shape().begin() + 2, x.shape().end());
  Shape out_sp(grid.shape().begin() + 1, grid.shape().end() - 1);
  const int64_t in_plane = shape_size(in), out_plane = shape_size(out_sp);
  std::vector<int64_t> strides = strides_of(in);
  std::vector<double> g = real_values(ctx, grid);
  std::vector<double> xd = real_values(ctx, x);
  Shape out_shape{N, C};
  out_shape.insert(out_shape.end(), out_sp.begin(), out_sp.end());

  return visit_real(ctx, x.dtype(), [&]<class T>() {
    Tensor y(x.dtype(), out_shape);
    T* py = y.data<T>();
    std::vector<Taps> taps(static_cast<size_t>(r));
    for (int64_t n = 0; n < N; ++n)
      for (int64_t o = 0; o < out_plane; ++o) {
        const double* gp = &g[static_cast<size_t>((n * out_plane + o) * r)];
        bool nan = false;
        for (int64_t d = 0; d < r; ++d) {
          double v = gp[r - 1 - d];  // the last spatial axis comes first in the grid
          nan = nan || std::isnan(v);
          taps[static_cast<size_t>(d)] = grid_axis_taps(v, in[static_cast<size_t>(d)], mode, pad, align);
        }
        for (int64_t c = 0; c < C; ++c) {
          double v = nan ? std::numeric_limits<double>::quiet_NaN()
                         : sample(&xd[static_cast<size_t>((n * C + c) * in_plane)], in, strides, taps);
          T& out = py[(n * C + c) * out_plane + o];
          if constexpr (is_floating_v<T>) out = to_storage<T>(v);
          else out = saturating_cast<T>(round_half_even(v));
        }
      }
    return y;
  });
}

std::vector<Value> grid_sample_v16(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() != 4) ctx.fail("X must be 4-D [N, C, H, W], got " + shape_str(x.shape()));
  return one(grid_sample_nd(ctx, x, ctx.input(1), GridSampleParams::read(ctx, ctx.version())));
}

std::vector<Value> grid_sample_v20(OpContext& ctx) {
  return one(grid_sample_nd(ctx, ctx.input(0), ctx.input(1), GridSampleParams::read(ctx, ctx.version())));
}
}  // namespace
SONNX_PARAMS("", "GridSample", (16, 20, 22), GridSampleParams);
SONNX_KERNEL("", "GridSample", 16, grid_sample_v16, Accuracy::Rounding);
SONNX_KERNEL("", "GridSample", 20, grid_sample_v20, Accuracy::Rounding);
SONNX_KERNEL("", "GridSample", 22, grid_sample_v20, Accuracy::Rounding);
namespace {
// [N, C, grid's spatial dims...] (the grid is [N, spatial..., rank]).
void grid_sample_shape(InferContext& ctx) {
  const Dims* x = ctx.input_shape(0);
  const Dims* g = ctx.input_shape(1);
  if (!x || !g) return ctx.set_output(0, ctx.input_elem(0), std::nullopt);
  if (x->size() != g->size()) ctx.fail("X and grid have different ranks");
  if (x->size() < 3) ctx.fail("X must have rank at least 3");
  if (ctx.version() < 20 && x->size() != 4) ctx.fail("X must be 4-D [N, C, H, W], got rank " + std::to_string(x->size()));
  Dims o{unify_dim(ctx, (*x)[0], (*g)[0], "the batch of X and grid"), (*x)[1]};
  o.insert(o.end(), g->begin() + 1, g->end() - 1);
  ctx.set_output(0, ctx.input_elem(0), o);
}
}  // namespace
SONNX_SHAPE_RULE("", "GridSample", (16, 20, 22), grid_sample_shape);
}  // namespace sonnx
