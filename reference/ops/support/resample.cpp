#include "resample.h"

namespace sonnx::support {

ResizeParams resize_params(const OpContext& ctx) {
  ResizeParams p;
  std::string mode = ctx.attr_string("mode", "nearest");
  if (mode == "nearest") p.mode = ResizeMode::Nearest;
  else if (mode == "linear") p.mode = ResizeMode::Linear;
  else if (mode == "cubic" && ctx.version() >= 11) p.mode = ResizeMode::Cubic;
  else ctx.fail("mode '" + mode + (ctx.version() >= 11 ? "' is not nearest, linear or cubic" : "' is not nearest or linear"));
  if (ctx.version() < 11) return p;  // asymmetric coordinates, the Simple nearest rule
  std::string ctm = ctx.attr_string("coordinate_transformation_mode", "half_pixel");
  if (ctm == "half_pixel") p.coord = CoordMode::HalfPixel;
  else if (ctm == "half_pixel_symmetric" && ctx.version() >= 19) p.coord = CoordMode::HalfPixelSymmetric;
  else if (ctm == "pytorch_half_pixel") p.coord = CoordMode::PytorchHalfPixel;
  else if (ctm == "align_corners") p.coord = CoordMode::AlignCorners;
  else if (ctm == "asymmetric") p.coord = CoordMode::Asymmetric;
  else if (ctm == "tf_half_pixel_for_nn") p.coord = CoordMode::TfHalfPixelForNN;
  else if (ctm == "tf_crop_and_resize") p.coord = CoordMode::TfCropAndResize;
  else ctx.fail("coordinate_transformation_mode '" + ctm + "' is not supported");
  std::string nm = ctx.attr_string("nearest_mode", "round_prefer_floor");
  if (nm == "round_prefer_floor") p.nearest = NearestRound::RoundPreferFloor;
  else if (nm == "round_prefer_ceil") p.nearest = NearestRound::RoundPreferCeil;
  else if (nm == "floor") p.nearest = NearestRound::Floor;
  else if (nm == "ceil") p.nearest = NearestRound::Ceil;
  else ctx.fail("nearest_mode '" + nm + "' is not supported");
  p.cubic_a = ctx.attr_float("cubic_coeff_a", -0.75f);
  p.exclude_outside = ctx.attr_int("exclude_outside", 0) != 0;
  p.extrapolation = ctx.attr_float("extrapolation_value", 0.0f);
  if (ctx.version() >= 18 && ctx.attr_int("antialias", 0) != 0) {
    if (p.mode == ResizeMode::Nearest) ctx.fail("antialias applies to the linear and cubic modes only");
    p.antialias = true;
  }
  return p;
}

}  // namespace sonnx::support
