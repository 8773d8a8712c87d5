#include "pad.h"

#include <algorithm>

namespace sonnx {

PadParams PadParams::read(const AttrReader& r, int64_t version) {
  PadParams p;
  p.mode_name = r.attr_string("mode", "constant");
  if (p.mode_name == "constant") p.mode = PadMode::Constant;
  else if (p.mode_name == "reflect") p.mode = PadMode::Reflect;
  else if (p.mode_name == "edge") p.mode = PadMode::Edge;
  else if (p.mode_name == "wrap" && version >= 19) p.mode = PadMode::Wrap;
  else r.fail("unsupported mode '" + p.mode_name + "'");
  if (version < 11) {
    const char* name = version < 2 ? "paddings" : "pads";
    if (!r.has_attr(name)) r.fail(std::string("attribute '") + name + "' is required");
    p.pads = r.attr_ints(name);
    p.value = r.attr_float("value", 0.0f);
  }
  return p;
}

std::string PadParams::padded_shape(const Shape& x, const std::vector<int64_t>& pads, Shape& out) const {
  size_t rank = x.size();
  if (pads.size() != 2 * rank)
    return "pads has " + std::to_string(pads.size()) + " entries, expected " + std::to_string(2 * rank);
  out.assign(rank, 0);
  for (size_t d = 0; d < rank; ++d) {
    int64_t begin = pads[d], end = pads[d + rank], dim = x[d];
    // Bounded so that output coordinate - begin never overflows below.
    constexpr int64_t kLimit = int64_t{1} << 62;
    if (begin < -kLimit || begin > kLimit || end < -kLimit || end > kLimit) return "pad amount out of range";
    int64_t size = 0;
    if (__builtin_add_overflow(dim, begin, &size) || __builtin_add_overflow(size, end, &size) || size < 0)
      return "pads " + std::to_string(begin) + ", " + std::to_string(end) + " are invalid for a dimension of size " +
             std::to_string(dim);
    if (mode != PadMode::Constant && dim == 0 && size > 0) return "cannot pad an empty axis in mode '" + mode_name + "'";
    if (mode == PadMode::Wrap && (begin > 0 || end > 0) && dim + std::min<int64_t>(begin, 0) + std::min<int64_t>(end, 0) <= 0)
      return "cannot wrap-pad an axis that the negative pads crop to nothing";
    out[d] = size;
  }
  return "";
}

}  // namespace sonnx
