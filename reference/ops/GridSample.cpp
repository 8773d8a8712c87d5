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
#include "support/shape.h"
#include "support/resample.h"

namespace sonnx {
using namespace support;
namespace {

enum class Pad { Zeros, Border, Reflection };

double reflect(double v, double twice_low, double twice_high) {
  if (twice_low == twice_high) return 0;
  double lo = twice_low / 2, span = (twice_high - twice_low) / 2;
  v = std::fabs(v - lo);
  double extra = std::fmod(v, span);
  double flips = std::floor(v / span);
  return std::fmod(flips, 2.0) == 0 ? extra + lo : span - extra + lo;
}

// Applies border / reflection padding to a pixel coordinate along an axis of `size` pixels.
double pad_coordinate(double v, int64_t size, Pad pad, bool align) {
  double hi = static_cast<double>(size - 1);
  if (pad == Pad::Border) return std::clamp(v, 0.0, hi);
  if (pad == Pad::Reflection) {
    v = align ? reflect(v, 0, 2 * hi) : reflect(v, -1, 2 * static_cast<double>(size) - 1);
    return std::clamp(v, 0.0, hi);
  }
  return v;
}

std::vector<Value> grid_sample(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& grid = ctx.input(1);
  if (x.rank() != 4) ctx.fail("X must be 4-D [N, C, H, W], got " + shape_str(x.shape()));
  if (grid.rank() != 4 || grid.dim(3) != 2 || grid.dim(0) != x.dim(0))
    ctx.fail("grid must be [N, H_out, W_out, 2] with X's N, got " + shape_str(grid.shape()));
  if (!is_float(grid.dtype())) ctx.fail("grid must be a floating tensor");
  std::string mode = ctx.attr_string("mode", "bilinear");
  std::string pm = ctx.attr_string("padding_mode", "zeros");
  bool align = ctx.attr_int("align_corners", 0) != 0;
  if (mode != "bilinear" && mode != "nearest" && mode != "bicubic") ctx.fail("mode '" + mode + "' is not supported");
  Pad pad = pm == "zeros" ? Pad::Zeros : pm == "border" ? Pad::Border : pm == "reflection" ? Pad::Reflection : Pad::Zeros;
  if (pm != "zeros" && pm != "border" && pm != "reflection") ctx.fail("padding_mode '" + pm + "' is not supported");
  int64_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3), HO = grid.dim(1), WO = grid.dim(2);
  std::vector<double> g = real_values(ctx, grid);
  std::vector<double> xd = real_values(ctx, x);

  auto unnormalize = [&](double v, int64_t size) {
    double s = static_cast<double>(size);
    return align ? (v + 1) / 2 * (s - 1) : ((v + 1) * s - 1) / 2;
  };
  // Value of plane at integer pixel (iy, ix), 0 outside.
  auto at = [&](const double* plane, int64_t iy, int64_t ix) {
    return (iy >= 0 && iy < H && ix >= 0 && ix < W) ? plane[iy * W + ix] : 0.0;
  };
  auto to_index = [](double v) -> int64_t {
    // Coordinates far outside (or NaN, from an infinite grid value) only matter as "outside";
    // keep the conversion in int64 range.
    if (!(v >= -1e15)) return int64_t{-1000000000000000};
    if (v > 1e15) return int64_t{1000000000000000};
    return static_cast<int64_t>(v);
  };

  return one(visit_real(ctx, x.dtype(), [&]<class T>() {
    Tensor y(x.dtype(), {N, C, HO, WO});
    T* py = y.data<T>();
    for (int64_t n = 0; n < N; ++n)
      for (int64_t h = 0; h < HO; ++h)
        for (int64_t w = 0; w < WO; ++w) {
          const double* gp = &g[static_cast<size_t>(((n * HO + h) * WO + w) * 2)];
          double fx = unnormalize(gp[0], W), fy = unnormalize(gp[1], H);
          for (int64_t c = 0; c < C; ++c) {
            const double* plane = &xd[static_cast<size_t>((n * C + c) * H * W)];
            double v = 0;
            if (std::isnan(fx) || std::isnan(fy)) {
              v = std::numeric_limits<double>::quiet_NaN();
            } else if (mode == "bicubic") {
              double x0 = std::floor(fx), y0 = std::floor(fy);
              double tx = fx - x0, ty = fy - y0;
              for (int j = 0; j < 4; ++j) {
                double wy = cubic_weight(ty - (j - 1), -0.75);
                for (int i = 0; i < 4; ++i) {
                  double wx = cubic_weight(tx - (i - 1), -0.75);
                  double px = pad_coordinate(x0 - 1 + i, W, pad, align), pyy = pad_coordinate(y0 - 1 + j, H, pad, align);
                  v += wy * wx * at(plane, to_index(pyy), to_index(px));
                }
              }
            } else {
              double sx = pad_coordinate(fx, W, pad, align), sy = pad_coordinate(fy, H, pad, align);
              if (mode == "nearest") {
                v = at(plane, to_index(std::nearbyint(sy)), to_index(std::nearbyint(sx)));
              } else {
                double x0 = std::floor(sx), y0 = std::floor(sy);
                double tx = sx - x0, ty = sy - y0;
                int64_t ix = to_index(x0), iy = to_index(y0);
                v = (1 - ty) * (1 - tx) * at(plane, iy, ix) + (1 - ty) * tx * at(plane, iy, ix + 1) +
                    ty * (1 - tx) * at(plane, iy + 1, ix) + ty * tx * at(plane, iy + 1, ix + 1);
              }
            }
            T& out = py[((n * C + c) * HO + h) * WO + w];
            if constexpr (is_floating_v<T>) out = to_storage<T>(v);
            else out = saturating_cast<T>(round_half_even(v));
          }
        }
    return y;
  }));
}
}  // namespace
SONNX_KERNEL("", "GridSample", 16, grid_sample, Accuracy::Rounding);
namespace {
// [N, C, grid's spatial dims...] (the grid is [N, spatial..., rank]).
void grid_sample_shape(InferContext& ctx) {
  const Dims* x = ctx.input_shape(0);
  const Dims* g = ctx.input_shape(1);
  if (!x || !g) return ctx.set_output(0, ctx.input_elem(0), std::nullopt);
  if (x->size() != g->size()) ctx.fail("X and grid have different ranks");
  if (x->size() < 3) ctx.fail("X must have rank at least 3");
  Dims o{unify_dim(ctx, (*x)[0], (*g)[0], "the batch of X and grid"), (*x)[1]};
  o.insert(o.end(), g->begin() + 1, g->end() - 1);
  ctx.set_output(0, ctx.input_elem(0), o);
}
}  // namespace
SONNX_SHAPE_RULE("", "GridSample", (16, 20, 22), grid_sample_shape);
}  // namespace sonnx
