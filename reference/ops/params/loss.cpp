#include "loss.h"

#include <string>

namespace sonnx {

LossParams LossParams::read(const AttrReader& r, int64_t /*version*/) {
  LossParams p;
  std::string reduction = r.attr_string("reduction", "mean");
  if (reduction == "none") p.reduction = Reduction::None;
  else if (reduction == "sum") p.reduction = Reduction::Sum;
  else if (reduction != "mean") r.fail("unknown reduction '" + reduction + "'");
  if (r.has_attr("ignore_index")) p.ignore_index = r.attr_int("ignore_index", 0);
  return p;
}

}  // namespace sonnx
