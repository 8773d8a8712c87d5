#include "resample.h"

namespace sonnx::support {

ResizeParams ResizeParams::read(const AttrReader& ctx, int64_t version) {
  ResizeParams p;
  std::string mode = ctx.attr_string("mode", "nearest");
  if (mode == "nearest") p.mode = ResizeMode::Nearest;
  else if (mode == "linear") p.mode = ResizeMode::Linear;
  else if (mode == "cubic" && version >= 11) p.mode = ResizeMode::Cubic;
  else ctx.fail("mode '" + mode + (version >= 11 ? "' is not nearest, linear or cubic" : "' is not nearest or linear"));
  if (version < 11) return p;  // asymmetric coordinates, the Simple nearest rule
  std::string ctm = ctx.attr_string("coordinate_transformation_mode", "half_pixel");
  if (ctm == "half_pixel") p.coord = CoordMode::HalfPixel;
  else if (ctm == "half_pixel_symmetric" && version >= 19) p.coord = CoordMode::HalfPixelSymmetric;
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
  if (version >= 18 && ctx.attr_int("antialias", 0) != 0) {
    if (p.mode == ResizeMode::Nearest) ctx.fail("antialias applies to the linear and cubic modes only");
    p.antialias = true;
  }
  if (version >= 18) {
    if (ctx.has_attr("axes")) p.axes = ctx.attr_ints("axes");
    std::string policy = ctx.attr_string("keep_aspect_ratio_policy", "stretch");
    if (policy == "not_larger") p.policy = AspectPolicy::NotLarger;
    else if (policy == "not_smaller") p.policy = AspectPolicy::NotSmaller;
    else if (policy != "stretch") ctx.fail("keep_aspect_ratio_policy '" + policy + "' is not supported");
  }
  return p;
}

std::string ResizeParams::named_axes(int64_t rank, std::vector<size_t>& out) const {
  out.clear();
  if (!axes) {
    for (int64_t d = 0; d < rank; ++d) out.push_back(static_cast<size_t>(d));
    return "";
  }
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (int64_t a : *axes) {
    if (a < -rank || a >= rank) return "axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank);
    auto d = static_cast<size_t>(a < 0 ? a + rank : a);
    if (seen[d]) return "axis " + std::to_string(d) + " is given more than once";
    seen[d] = true;
    out.push_back(d);
  }
  return "";
}

}  // namespace sonnx::support
