// NonMaxSuppression's parameters (reference/ops/op_params.h), read by its reference kernel and its
// enclosure (enclose/enclose_nms.cpp).
#pragma once
#include <cstdint>

#include "reference/model/attr_reader.h"

namespace sonnx {

struct NonMaxSuppressionParams {
  // center_point_box 1: boxes are [x_center, y_center, width, height]; 0 (the default): two
  // opposite corners [y1, x1, y2, x2].
  bool center_point_box = false;
  static NonMaxSuppressionParams read(const AttrReader& reader, int64_t version);
};

}  // namespace sonnx
