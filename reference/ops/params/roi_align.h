// The parameters of RoiAlign (reference/ops/op_params.h), read by its reference kernel and its
// enclosure (enclose/enclose_roialign.cpp).
#pragma once
#include <cstdint>

#include "reference/model/attr_reader.h"

namespace sonnx {

struct RoiAlignParams {
  bool max_mode = false;                        // mode 'max' (the largest weighted corner term); 'avg' (the default) otherwise
  int64_t output_height = 1, output_width = 1;  // positive (checked)
  int64_t sampling_ratio = 0;                   // 0: adaptive, ceil(roi size / output size) per axis (not negative)
  float spatial_scale = 1.0f;
  // coordinate_transformation_mode 'half_pixel' (from version 16, its default): shift by -0.5
  // pixel; 'output_half_pixel' and version 10: no shift, RoIs widened to at least one pixel.
  bool half_pixel = false;

  static RoiAlignParams read(const AttrReader& r, int64_t version);
};

}  // namespace sonnx
