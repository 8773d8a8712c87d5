// Resize: resamples X to a new shape (nearest, linear or cubic interpolation per axis).
// Version 10: inputs X, scales; output length floor(in * scale); x_original = x / scale
//   (asymmetric); nearest takes floor when upsampling and ceil when downsampling (the rule of
//   Upsample, which this version replaced: it had no nearest_mode yet).
// Version 11: inputs X, roi, scales, sizes (optional); either scales (non-empty) or sizes gives the
//   output shape; attributes coordinate_transformation_mode, nearest_mode, cubic_coeff_a,
//   exclude_outside, extrapolation_value. With scales the output length is
//   floor(in * scale), or floor(in * (roi_end - roi_start) * scale) for tf_crop_and_resize; with
//   sizes the scale is out / in.
// Version 13: roi and scales become optional too, and tf_half_pixel_for_nn leaves the list (still
//   accepted here).
// Version 18: attribute `axes` (roi, scales and sizes then name only those axes; the others keep
//   their length), `keep_aspect_ratio_policy` for sizes (stretch; not_larger / not_smaller use
//   one scale, the min / max of sizes[i] / in, for every named axis, with lengths
//   round_half_up(scale * in)), and `antialias` (linear and cubic filters stretched by
//   1 / scale when downsampling).
// Version 19: coordinate_transformation_mode half_pixel_symmetric.
// The coordinate formulas, rounding modes and cubic weights are the schema's; see
// original_coordinate and axis_taps in support/resample.h.
// Relies on ops/resize.mlw ResizeNd.nearest_scale1_identity: Resize nearest with scale 1 under asymmetric coordinates is the identity, for every nearest_mode.
#include <limits>

#include "op_params.h"
#include "support/shape.h"
#include "support/resample.h"

namespace sonnx {
using namespace support;
namespace {

// A non-empty float tensor input, or empty when omitted / of zero elements.
std::vector<double> optional_floats(OpContext& ctx, size_t i) {
  if (!ctx.has_input(i)) return {};
  const Tensor& t = ctx.input(i);
  if (!is_float(t.dtype())) ctx.fail("input " + std::to_string(i) + " must be a floating tensor");
  return real_values(ctx, t);
}

std::vector<Value> resize_v10(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  std::vector<double> scales = optional_floats(ctx, 1);
  if (static_cast<int64_t>(scales.size()) != x.rank())
    ctx.fail("scales has " + std::to_string(scales.size()) + " values, expected the rank " + std::to_string(x.rank()));
  return one(resample(ctx, x, scaled_axes(ctx, x, scales), ResizeParams::read(ctx, ctx.version())));
}

std::vector<Value> resize_v11(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  size_t r = static_cast<size_t>(x.rank());
  ResizeParams p = ResizeParams::read(ctx, ctx.version());

  std::vector<ResizeAxis> axes(r);
  for (size_t d = 0; d < r; ++d) axes[d].in = x.dim(static_cast<int64_t>(d));
  if (p.coord == CoordMode::TfCropAndResize) {
    std::vector<double> roi = optional_floats(ctx, 1);
    if (!roi.empty()) {
      if (roi.size() != 2 * r) ctx.fail("roi has " + std::to_string(roi.size()) + " values, expected " + std::to_string(2 * r));
      for (size_t d = 0; d < r; ++d) {
        axes[d].roi_start = roi[d];
        axes[d].roi_end = roi[r + d];
      }
    }
  }
  std::vector<double> scales = optional_floats(ctx, 2);
  std::vector<int64_t> sizes;
  if (ctx.has_input(3)) {
    const Tensor& t = ctx.input(3);
    if (!is_integer(t.dtype())) ctx.fail("sizes must be an integer tensor");
    sizes = t.to_int64_vector();
  }
  if (!scales.empty() && !sizes.empty()) ctx.fail("only one of scales and sizes may be given");
  if (scales.empty() && sizes.empty()) ctx.fail("one of scales and sizes must be given");
  if (!sizes.empty()) {
    if (sizes.size() != r)
      ctx.fail("sizes has " + std::to_string(sizes.size()) + " values, expected the rank " + std::to_string(r));
    for (size_t d = 0; d < r; ++d) {
      if (sizes[d] < 0) ctx.fail("sizes must not be negative");
      axes[d].out = sizes[d];
      axes[d].scale = axes[d].in == 0 ? 1.0 : static_cast<double>(sizes[d]) / static_cast<double>(axes[d].in);
      axes[d].resized_length = static_cast<double>(sizes[d]);
    }
  } else {
    if (scales.size() != r)
      ctx.fail("scales has " + std::to_string(scales.size()) + " values, expected the rank " + std::to_string(r));
    for (size_t d = 0; d < r; ++d) {
      double s = scales[d];
      if (!(s > 0) || !std::isfinite(s)) ctx.fail("scales must be positive and finite");
      double in = static_cast<double>(axes[d].in);
      double factor = p.coord == CoordMode::TfCropAndResize ? (axes[d].roi_end - axes[d].roi_start) * s : s;
      axes[d].out = scaled_length(ctx, in, factor);
      axes[d].scale = s;
      axes[d].resized_length = in * s;
    }
  }
  return one(resample(ctx, x, axes, p));
}
// Output lengths from `sizes` under keep_aspect_ratio_policy.
void apply_sizes(const OpContext& ctx, AspectPolicy policy, std::vector<ResizeAxis>& all, const std::vector<size_t>& axes,
                 const std::vector<int64_t>& sizes) {
  if (sizes.size() != axes.size())
    ctx.fail("sizes has " + std::to_string(sizes.size()) + " values for " + std::to_string(axes.size()) + " axes");
  for (int64_t s : sizes)
    if (s < 0) ctx.fail("sizes must not be negative");
  if (policy == AspectPolicy::Stretch) {
    for (size_t i = 0; i < axes.size(); ++i) {
      ResizeAxis& a = all[axes[i]];
      a.out = sizes[i];
      a.scale = a.in == 0 ? 1.0 : static_cast<double>(sizes[i]) / static_cast<double>(a.in);
      a.resized_length = static_cast<double>(sizes[i]);
    }
    return;
  }
  bool not_larger = policy == AspectPolicy::NotLarger;
  double scale = not_larger ? std::numeric_limits<double>::infinity() : 0.0;
  for (size_t i = 0; i < axes.size(); ++i) {
    const ResizeAxis& a = all[axes[i]];
    if (a.in == 0) ctx.fail("cannot keep the aspect ratio of an empty axis");
    double r = static_cast<double>(sizes[i]) / static_cast<double>(a.in);
    scale = not_larger ? std::min(scale, r) : std::max(scale, r);
  }
  for (size_t d : axes) {
    ResizeAxis& a = all[d];
    double in = static_cast<double>(a.in);
    a.out = scaled_length(ctx, in * scale + 0.5, 1.0);  // round half up
    a.scale = scale;
    a.resized_length = in * scale;
  }
}

// Output lengths from `scales`: floor(in * scale), or floor(in * (roi_end - roi_start) * scale)
// for tf_crop_and_resize.
void apply_scales(const OpContext& ctx, std::vector<ResizeAxis>& all, const std::vector<size_t>& axes,
                  const std::vector<double>& scales, const ResizeParams& p) {
  if (scales.size() != axes.size())
    ctx.fail("scales has " + std::to_string(scales.size()) + " values for " + std::to_string(axes.size()) + " axes");
  for (size_t i = 0; i < axes.size(); ++i) {
    ResizeAxis& a = all[axes[i]];
    double s = scales[i];
    if (!(s > 0) || !std::isfinite(s)) ctx.fail("scales must be positive and finite");
    double in = static_cast<double>(a.in);
    double factor = p.coord == CoordMode::TfCropAndResize ? (a.roi_end - a.roi_start) * s : s;
    a.out = scaled_length(ctx, in, factor);
    a.scale = s;
    a.resized_length = in * s;
  }
}

std::vector<Value> resize_v18(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  ResizeParams p = ResizeParams::read(ctx, ctx.version());
  std::vector<size_t> axes;
  if (std::string why = p.named_axes(x.rank(), axes); !why.empty()) ctx.fail(why);
  std::vector<ResizeAxis> all(static_cast<size_t>(x.rank()));
  for (size_t d = 0; d < all.size(); ++d) {
    all[d].in = x.dim(static_cast<int64_t>(d));
    all[d].out = all[d].in;
    all[d].resized_length = static_cast<double>(all[d].in);
  }
  if (p.coord == CoordMode::TfCropAndResize) {
    std::vector<double> roi = optional_floats(ctx, 1);
    if (!roi.empty()) {
      size_t n = axes.size();
      if (roi.size() != 2 * n) ctx.fail("roi has " + std::to_string(roi.size()) + " values, expected " + std::to_string(2 * n));
      for (size_t i = 0; i < n; ++i) {
        all[axes[i]].roi_start = roi[i];
        all[axes[i]].roi_end = roi[n + i];
      }
    }
  }
  std::vector<double> scales = optional_floats(ctx, 2);
  std::vector<int64_t> sizes;
  if (ctx.has_input(3)) {
    const Tensor& t = ctx.input(3);
    if (!is_integer(t.dtype())) ctx.fail("sizes must be an integer tensor");
    sizes = t.to_int64_vector();
  }
  if (!scales.empty() && !sizes.empty()) ctx.fail("only one of scales and sizes may be given");
  if (scales.empty() && sizes.empty()) ctx.fail("one of scales and sizes must be given");
  if (!sizes.empty()) apply_sizes(ctx, p.policy, all, axes, sizes);
  else apply_scales(ctx, all, axes, scales, p);
  return one(resample(ctx, x, all, p));
}
}  // namespace
SONNX_PARAMS("", "Resize", (10, 11, 13, 18, 19), ResizeParams);
SONNX_KERNEL("", "Resize", 10, resize_v10, Accuracy::Rounding);
SONNX_KERNEL("", "Resize", 11, resize_v11, Accuracy::Rounding);
SONNX_KERNEL("", "Resize", 13, resize_v11, Accuracy::Rounding);
SONNX_KERNEL("", "Resize", 18, resize_v18, Accuracy::Rounding);
SONNX_KERNEL("", "Resize", 19, resize_v18, Accuracy::Rounding);
namespace {
// The output dims: `sizes` when given (with axes, 18), else floor(dim * scale). With
// keep_aspect_ratio_policy (18) other than stretch, sizes are adjusted: unknown here unless stretch.
void resize_shape(InferContext& ctx) {
  // From version 11 the output size comes from scales or sizes: with both omitted no run can succeed.
  if (ctx.version() >= 11 && !ctx.has_input(2) && !ctx.has_input(3)) ctx.fail("one of scales and sizes must be given");
  ResizeParams p = ResizeParams::read(ctx, ctx.version());
  DType t = ctx.input_elem(0);
  const Dims* x = ctx.input_shape(0);
  if (!x) return ctx.set_output(0, t, std::nullopt);
  int64_t r = static_cast<int64_t>(x->size());
  std::vector<size_t> named;
  if (std::string why = p.named_axes(r, named); !why.empty()) ctx.fail(why);
  std::vector<int64_t> axes(named.begin(), named.end());
  Dims o = *x;
  size_t scales_in = ctx.version() < 11 ? 1 : 2;
  bool stretch = p.policy == AspectPolicy::Stretch;
  auto sizes = ctx.version() >= 11 && ctx.has_input(3) ? ctx.input_ints(3) : std::nullopt;
  auto scales = ctx.has_input(scales_in) ? float_input(ctx, scales_in) : std::nullopt;
  if (sizes && scales && sizes->empty() && scales->empty()) ctx.fail("one of scales and sizes must be given");
  if (sizes && scales && !sizes->empty() && !scales->empty()) ctx.fail("only one of scales and sizes may be given");
  if (!ctx.has_input(3) && scales && scales->empty() && ctx.version() >= 11) ctx.fail("one of scales and sizes must be given");
  if (sizes && !sizes->empty()) {
    if (sizes->size() != axes.size())
      ctx.fail("sizes has " + std::to_string(sizes->size()) + " values for " + std::to_string(axes.size()) + " axes");
    for (size_t i = 0; i < axes.size(); ++i)
      o[static_cast<size_t>(axes[i])] = stretch ? size_dim(ctx, (*sizes)[i], "sizes") : Dim{};
  } else if (scales && !scales->empty()) {
    scale_dims(ctx, o, axes, *scales);
  } else {
    for (int64_t a : axes) o[static_cast<size_t>(a)] = Dim{};
  }
  ctx.set_output(0, t, o);
}
}  // namespace
SONNX_SHAPE_RULE("", "Resize", (10, 11, 13, 18, 19), resize_shape);
}  // namespace sonnx
