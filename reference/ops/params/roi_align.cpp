#include "roi_align.h"

#include <string>

namespace sonnx {

RoiAlignParams RoiAlignParams::read(const AttrReader& r, int64_t version) {
  RoiAlignParams p;
  std::string mode = r.attr_string("mode", "avg");
  if (mode != "avg" && mode != "max") r.fail("mode '" + mode + "' is not avg or max");
  p.max_mode = mode == "max";
  p.output_height = r.attr_int("output_height", 1);
  p.output_width = r.attr_int("output_width", 1);
  if (p.output_height < 1 || p.output_width < 1)
    r.fail("output_height and output_width must be positive, got " + std::to_string(p.output_height) + " and " +
           std::to_string(p.output_width));
  p.sampling_ratio = r.attr_int("sampling_ratio", 0);
  if (p.sampling_ratio < 0) r.fail("sampling_ratio must not be negative, got " + std::to_string(p.sampling_ratio));
  p.spatial_scale = r.attr_float("spatial_scale", 1.0f);
  if (version >= 16) {
    std::string m = r.attr_string("coordinate_transformation_mode", "half_pixel");
    if (m != "half_pixel" && m != "output_half_pixel")
      r.fail("coordinate_transformation_mode '" + m + "' is not half_pixel or output_half_pixel");
    p.half_pixel = m == "half_pixel";
  }
  return p;
}

}  // namespace sonnx
