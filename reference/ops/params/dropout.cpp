#include "dropout.h"

namespace sonnx {

DropoutParams DropoutParams::read(const AttrReader& r, int64_t version) {
  DropoutParams p;
  if (version < 7) p.training = r.attr_int("is_test", 0) == 0;
  if (version < 12) p.ratio = r.attr_float("ratio", 0.5f);
  if (version >= 12 && r.has_attr("seed")) p.seed = r.attr_int("seed", 0);
  return p;
}

}  // namespace sonnx
