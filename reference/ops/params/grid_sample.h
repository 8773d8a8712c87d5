// The parameters of GridSample (reference/ops/op_params.h), read by its reference kernel and its
// enclosure (enclose/enclose_gridsample.cpp).
#pragma once
#include <cstdint>

#include "reference/model/attr_reader.h"

namespace sonnx {

enum class GridInterp { Linear, Nearest, Cubic };
enum class GridPadding { Zeros, Border, Reflection };

struct GridSampleParams {
  // mode: version 16 "bilinear" (default), "nearest" or "bicubic"; from 20 "linear" (default),
  // "nearest" or "cubic" (checked).
  GridInterp mode = GridInterp::Linear;
  GridPadding padding = GridPadding::Zeros;  // padding_mode "zeros" (default), "border" or "reflection" (checked)
  bool align_corners = false;                // any nonzero value
  static GridSampleParams read(const AttrReader& r, int64_t version);
};

}  // namespace sonnx
