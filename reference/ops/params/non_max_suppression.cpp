#include "non_max_suppression.h"

#include <string>

namespace sonnx {

NonMaxSuppressionParams NonMaxSuppressionParams::read(const AttrReader& r, int64_t /*version*/) {
  int64_t center = r.attr_int("center_point_box", 0);
  if (center != 0 && center != 1) r.fail("center_point_box must be 0 or 1, got " + std::to_string(center));
  return {center == 1};
}

}  // namespace sonnx
