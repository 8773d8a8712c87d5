#include "conv.h"

#include <string>

namespace sonnx {

ConvParams ConvParams::read(const AttrReader& r, int64_t /*version*/) {
  ConvParams p;
  p.group = r.attr_int("group", 1);
  if (p.group < 1) r.fail("group must be positive");
  if (r.has_attr("kernel_shape")) p.kernel_shape = r.attr_ints("kernel_shape");
  if (r.node().op_type == "DeformConv") {
    p.offset_group = r.attr_int("offset_group", 1);
    if (p.offset_group < 1) r.fail("offset_group must be positive, got " + std::to_string(p.offset_group));
  }
  return p;
}

std::string ConvParams::check_kernel(const Shape& w) const {
  if (!kernel_shape || (w.size() >= 2 && Shape(w.begin() + 2, w.end()) == *kernel_shape)) return "";
  return "kernel_shape does not match the weight's spatial shape " + shape_str(w);
}

}  // namespace sonnx
