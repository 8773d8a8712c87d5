#include "scatter.h"

#include <string>

namespace sonnx {

ScatterParams ScatterParams::read(const AttrReader& r, int64_t version) {
  ScatterParams p;
  if (r.node().op_type == "ScatterElements") p.axis = r.attr_int("axis", 0);
  if (version < 16) return p;
  std::string name = r.attr_string("reduction", "none");
  if (name == "add") p.reduction = Reduction::Add;
  else if (name == "mul") p.reduction = Reduction::Mul;
  else if (name == "max" && version >= 18) p.reduction = Reduction::Max;
  else if (name == "min" && version >= 18) p.reduction = Reduction::Min;
  else if (name != "none") r.fail("unsupported reduction '" + name + "'");
  return p;
}

}  // namespace sonnx
