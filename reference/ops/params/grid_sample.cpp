#include "grid_sample.h"

#include <string>

namespace sonnx {

GridSampleParams GridSampleParams::read(const AttrReader& r, int64_t version) {
  GridSampleParams p;
  const bool v16 = version < 20;
  const std::string mode = r.attr_string("mode", v16 ? "bilinear" : "linear");
  if (mode == (v16 ? "bilinear" : "linear")) p.mode = GridInterp::Linear;
  else if (mode == "nearest") p.mode = GridInterp::Nearest;
  else if (mode == (v16 ? "bicubic" : "cubic")) p.mode = GridInterp::Cubic;
  else r.fail("mode '" + mode + "' is not supported");
  const std::string pm = r.attr_string("padding_mode", "zeros");
  if (pm == "zeros") p.padding = GridPadding::Zeros;
  else if (pm == "border") p.padding = GridPadding::Border;
  else if (pm == "reflection") p.padding = GridPadding::Reflection;
  else r.fail("padding_mode '" + pm + "' is not supported");
  p.align_corners = r.attr_int("align_corners", 0) != 0;
  return p;
}

}  // namespace sonnx
