// Upsample: resamples X by per-axis scales; output length floor(in * scale), x_original =
// x / scale (asymmetric). Nearest takes floor (the scales are documented as >= 1; a scale below 1
// takes ceil, like Resize-10); linear interpolates between the two neighbours, the last element
// repeating past the end.
// Version 1: 4-D X, attributes height_scale and width_scale, modes "nearest" and "bilinear".
// Version 7: attribute scales (one per axis), modes "nearest" and "linear".
// Version 9: scales is an input. (Deprecated at 10 in favour of Resize.)
#include <cmath>

#include "op_params.h"
#include "support/shape.h"
#include "support/resample.h"

namespace sonnx {
using namespace support;
namespace {

struct UpsampleParams {
  ResizeMode mode = ResizeMode::Nearest;  // "nearest" or "linear"; version 1 also takes "bilinear" (checked)
  // Before 9 the scales attribute(s), positive and finite (checked): version 1 {1, 1, height_scale,
  // width_scale} (both required), 7 `scales` (required; its length is checked against X's rank
  // later). From 9 the input scales.
  std::vector<double> scales;
  static UpsampleParams read(const AttrReader& r, int64_t version);
  // What the resampler takes: asymmetric coordinates, nearest by the Simple rule.
  ResizeParams resize() const {
    ResizeParams p;
    p.mode = mode;
    p.coord = CoordMode::Asymmetric;
    p.nearest = NearestRound::Simple;
    return p;
  }
};

UpsampleParams UpsampleParams::read(const AttrReader& r, int64_t version) {
  UpsampleParams p;
  const std::string mode = r.attr_string("mode", "nearest");
  if (mode == "nearest") p.mode = ResizeMode::Nearest;
  else if (mode == "linear" || (version < 7 && mode == "bilinear")) p.mode = ResizeMode::Linear;
  else r.fail("mode '" + mode + "' is not supported");
  if (version < 7) {
    if (!r.has_attr("height_scale") || !r.has_attr("width_scale")) r.fail("height_scale and width_scale are required");
    p.scales = {1.0, 1.0, r.attr_float("height_scale", 1.0f), r.attr_float("width_scale", 1.0f)};
  } else if (version < 9) {
    if (!r.has_attr("scales")) r.fail("attribute 'scales' is required");
    for (float s : r.attr_floats("scales")) p.scales.push_back(s);
  }
  for (double s : p.scales)
    if (!(s > 0) || !std::isfinite(s)) r.fail("scales must be positive and finite, got " + std::to_string(s));
  return p;
}

std::vector<Value> upsample_with(OpContext& ctx, const UpsampleParams& p, const std::vector<double>& scales) {
  const Tensor& x = ctx.input(0);
  if (static_cast<int64_t>(scales.size()) != x.rank())
    ctx.fail("scales has " + std::to_string(scales.size()) + " values, expected the rank " + std::to_string(x.rank()));
  return one(resample(ctx, x, scaled_axes(ctx, x, scales), p.resize()));
}

std::vector<Value> upsample_v1(OpContext& ctx) {
  if (ctx.input(0).rank() != 4) ctx.fail("X must be 4-D [N, C, H, W]");
  const UpsampleParams p = UpsampleParams::read(ctx, ctx.version());
  return upsample_with(ctx, p, p.scales);
}
std::vector<Value> upsample_v7(OpContext& ctx) {
  const UpsampleParams p = UpsampleParams::read(ctx, ctx.version());
  return upsample_with(ctx, p, p.scales);
}
std::vector<Value> upsample_v9(OpContext& ctx) {
  const UpsampleParams p = UpsampleParams::read(ctx, ctx.version());
  const Tensor& s = ctx.input(1);
  if (!is_float(s.dtype())) ctx.fail("scales must be a floating tensor");
  return upsample_with(ctx, p, real_values(ctx, s));
}
}  // namespace
SONNX_PARAMS("", "Upsample", (1, 7, 9), UpsampleParams);
SONNX_KERNEL("", "Upsample", 1, upsample_v1, Accuracy::Rounding);
SONNX_KERNEL("", "Upsample", 7, upsample_v7, Accuracy::Rounding);
SONNX_KERNEL("", "Upsample", 9, upsample_v9, Accuracy::Rounding);
namespace {
// floor(dim * scale): scales from the attribute (7) or the input (9, 10).
void upsample_shape(InferContext& ctx) {
  const UpsampleParams p = UpsampleParams::read(ctx, ctx.version());
  DType t = ctx.input_elem(0);
  const Dims* x = ctx.input_shape(0);
  if (!x) return ctx.set_output(0, t, std::nullopt);
  std::vector<int64_t> axes;
  for (int64_t i = 0; i < static_cast<int64_t>(x->size()); ++i) axes.push_back(i);
  Dims o = *x;
  std::optional<std::vector<double>> scales;
  if (ctx.version() < 9) scales = p.scales;
  else scales = float_input(ctx, 1);
  if (scales) scale_dims(ctx, o, axes, *scales);
  else o = Dims(x->size());
  ctx.set_output(0, t, o);
}
}  // namespace
SONNX_SHAPE_RULE("", "Upsample", (7, 9, 10), upsample_shape);
}  // namespace sonnx
