// Upsample: resamples X by per-axis scales; output length floor(in * scale), x_original =
// x / scale (asymmetric). Nearest takes floor (the scales are documented as >= 1; a scale below 1
// takes ceil, like Resize-10); linear interpolates between the two neighbours, the last element
// repeating past the end.
// Version 1: 4-D X, attributes height_scale and width_scale, modes "nearest" and "bilinear".
// Version 7: attribute scales (one per axis), modes "nearest" and "linear".
// Version 9: scales is an input. (Deprecated at 10 in favour of Resize.)
#include "support/shape.h"
#include "support/resample.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> upsample_with(OpContext& ctx, const std::vector<double>& scales, bool v1) {
  const Tensor& x = ctx.input(0);
  if (static_cast<int64_t>(scales.size()) != x.rank())
    ctx.fail("scales has " + std::to_string(scales.size()) + " values, expected the rank " + std::to_string(x.rank()));
  std::string mode = ctx.attr_string("mode", "nearest");
  ResizeParams p;
  if (mode == "nearest") p.mode = ResizeMode::Nearest;
  else if (mode == "linear" || (v1 && mode == "bilinear")) p.mode = ResizeMode::Linear;
  else ctx.fail("mode '" + mode + "' is not supported");
  p.coord = CoordMode::Asymmetric;
  p.nearest = NearestRound::Simple;
  return one(resample(ctx, x, scaled_axes(ctx, x, scales), p));
}

std::vector<Value> upsample_v1(OpContext& ctx) {
  if (ctx.input(0).rank() != 4) ctx.fail("X must be 4-D [N, C, H, W]");
  if (!ctx.has_attr("height_scale") || !ctx.has_attr("width_scale")) ctx.fail("height_scale and width_scale are required");
  return upsample_with(ctx, {1.0, 1.0, ctx.attr_float("height_scale", 1.0f), ctx.attr_float("width_scale", 1.0f)}, true);
}
std::vector<Value> upsample_v7(OpContext& ctx) {
  if (!ctx.has_attr("scales")) ctx.fail("attribute 'scales' is required");
  std::vector<float> f = ctx.attr_floats("scales");
  return upsample_with(ctx, std::vector<double>(f.begin(), f.end()), false);
}
std::vector<Value> upsample_v9(OpContext& ctx) {
  const Tensor& s = ctx.input(1);
  if (!is_float(s.dtype())) ctx.fail("scales must be a floating tensor");
  return upsample_with(ctx, real_values(ctx, s), false);
}
}  // namespace
SONNX_KERNEL("", "Upsample", 1, upsample_v1, Accuracy::Rounding);
SONNX_KERNEL("", "Upsample", 7, upsample_v7, Accuracy::Rounding);
SONNX_KERNEL("", "Upsample", 9, upsample_v9, Accuracy::Rounding);
namespace {
// floor(dim * scale): scales from the attribute (7) or the input (9, 10).
void upsample_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  const Dims* x = ctx.input_shape(0);
  if (!x) return ctx.set_output(0, t, std::nullopt);
  std::vector<int64_t> axes;
  for (int64_t i = 0; i < static_cast<int64_t>(x->size()); ++i) axes.push_back(i);
  Dims o = *x;
  std::optional<std::vector<double>> scales;
  if (ctx.version() < 9) {
    std::vector<float> f = ctx.attr_floats("scales");
    scales = std::vector<double>(f.begin(), f.end());
  } else {
    scales = float_input(ctx, 1);
  }
  if (scales) scale_dims(ctx, o, axes, *scales);
  else o = Dims(x->size());
  ctx.set_output(0, t, o);
}
}  // namespace
SONNX_SHAPE_RULE("", "Upsample", (7, 9, 10), upsample_shape);
}  // namespace sonnx
