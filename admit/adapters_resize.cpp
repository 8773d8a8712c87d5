// Resize 10 → 11 and 11 → 13 (reference/ops/Resize.cpp; support/resample.h computes every version).
//
// 10 → 11: version 10 reads (X, scales) and maps output index o to input coordinate o / scale
// (11's "asymmetric"); its nearest mode rounds that coordinate down on an axis it enlarges and up on
// an axis it shrinks (scale 1 maps o to o itself). Version 11 adds the required input roi (read by
// tf_crop_and_resize only), the coordinate modes (default half_pixel) and one nearest_mode for all
// axes (default round_prefer_floor). The rewrite inserts an empty roi, writes
// coordinate_transformation_mode = asymmetric and, for nearest, nearest_mode = floor when no scale
// is below 1 or ceil when none is above 1; that choice needs the scales as a constant. A nearest
// node that enlarges some axes and shrinks others becomes two: the first resizes the enlarged axes
// (floor; scale 1 elsewhere), the second the shrunk ones (ceil). Nearest resizing picks each output
// element's source index axis by axis, and a scale-1 axis maps o to o itself, so the two compose
// to version 10's choice on every axis. Output lengths (floor(in * scale)) and the linear taps are
// the same.
//
// 11 → 13: version 13 drops coordinate_transformation_mode tf_half_pixel_for_nn, whose coordinate is
// y = (o + 0.5) / scale; half_pixel's is y - 0.5, computed from the same y. Nearest rounding of y by
// round_prefer_floor, ceil(y - 0.5), is ceil of half_pixel's coordinate, the same expression; floor(y)
// is round_prefer_ceil of it, floor((y - 0.5) + 0.5), exactly floor(y) for 0 <= y < 2^52 (y - 0.5
// and the sum back are exact there, and below 0.25 both floors are 0). Those two become half_pixel
// with ceil and round_prefer_ceil; the other nearest modes (round_prefer_ceil, ceil) and the linear
// and cubic modes have no version-13 form of tf_half_pixel_for_nn and are refused.
#include <string>

#include "adapters_support.h"
#include "upgrade.h"

namespace sonnx {
namespace {

// The scales above 1 (enlarging) or below 1 (shrinking), 1 on the other axes.
Tensor scales_where(const Tensor& scales, bool enlarging) {
  Tensor kept(DType::Float, scales.shape());
  for (int64_t i = 0; i < scales.size(); ++i) {
    double s = scales.as_double(i);
    kept.data<float>()[i] = (enlarging ? s > 1 : s < 1) ? static_cast<float>(s) : 1.0f;
  }
  return kept;
}

void resize_coordinates_and_roi(Node& n, admit::UpgradeContext& ctx) {
  using namespace admit::adapt;
  if (n.inputs.size() != 2 || n.inputs[0].empty() || n.inputs[1].empty())
    throw admit::UpgradeRefused("a version-10 Resize reads X and scales");
  only_attributes(n, {"mode"});
  std::string mode = string_attr(n, "mode", "nearest");
  if (mode != "nearest" && mode != "linear") throw admit::UpgradeRefused("mode " + mode + " is not one of version 10's");
  std::string nearest_mode;
  if (mode == "nearest") {
    const Tensor* scales = constant_of(ctx, n.inputs[1]);
    if (!scales)
      throw admit::UpgradeRefused("needs scales (" + n.inputs[1] +
                                  ") as a constant: version 10 rounds down where it enlarges and up where it shrinks, "
                                  "version 11 has one nearest_mode");
    bool up = false, down = false;
    for (int64_t i = 0; i < scales->size(); ++i) {
      double s = scales->as_double(i);
      up = up || s > 1;
      down = down || s < 1;
    }
    nearest_mode = down ? "ceil" : "floor";
    if (up && down) {
      const Tensor given = *scales;  // adding initializers moves the graph's
      std::string roi = ctx.add_initializer(hint(n, "roi"), Tensor(DType::Float, {0}));
      std::string enlarged = ctx.new_name(hint(n, "enlarged"));
      Node shrink = new_node(ctx, n, "Resize", "shrink",
                             {enlarged, roi, ctx.add_initializer(hint(n, "shrink_scales"), scales_where(given, false))},
                             {n.outputs[0]});
      n.inputs = {n.inputs[0], roi, ctx.add_initializer(hint(n, "enlarge_scales"), scales_where(given, true))};
      n.outputs[0] = enlarged;
      for (auto [node, rounding] : {std::pair<Node*, const char*>{&n, "floor"}, {&shrink, "ceil"}}) {
        set_string_attr(*node, "mode", "nearest");
        set_string_attr(*node, "coordinate_transformation_mode", "asymmetric");
        set_string_attr(*node, "nearest_mode", rounding);
      }
      ctx.add_node_after(std::move(shrink));
      return;
    }
  }
  std::string roi = ctx.add_initializer(hint(n, "roi"), Tensor(DType::Float, {0}));
  n.inputs = {n.inputs[0], roi, n.inputs[1]};
  set_string_attr(n, "coordinate_transformation_mode", "asymmetric");
  if (!nearest_mode.empty()) set_string_attr(n, "nearest_mode", nearest_mode);
}

void resize_without_tf_half_pixel_for_nn(Node& n, admit::UpgradeContext&) {
  using namespace admit::adapt;
  if (string_attr(n, "coordinate_transformation_mode", "half_pixel") != "tf_half_pixel_for_nn") return;
  std::string mode = string_attr(n, "mode", "nearest");
  if (mode != "nearest")
    throw admit::UpgradeRefused("coordinate_transformation_mode tf_half_pixel_for_nn with mode " + mode +
                                " has no version-13 form");
  std::string rounding = string_attr(n, "nearest_mode", "round_prefer_floor");
  std::string now;
  if (rounding == "round_prefer_floor") now = "ceil";
  else if (rounding == "floor") now = "round_prefer_ceil";
  else
    throw admit::UpgradeRefused("coordinate_transformation_mode tf_half_pixel_for_nn with nearest_mode " + rounding +
                                " has no version-13 form");
  set_string_attr(n, "coordinate_transformation_mode", "half_pixel");
  set_string_attr(n, "nearest_mode", now);
}

}  // namespace

SONNX_UPGRADE("", "Resize", 10, 11, resize_coordinates_and_roi);
SONNX_UPGRADE("", "Resize", 11, 13, resize_without_tf_half_pixel_for_nn);

}  // namespace sonnx
