#include "softmax.h"

namespace sonnx {

SoftmaxParams SoftmaxParams::read(const AttrReader& r, int64_t version) {
  SoftmaxParams p;
  p.coerced_2d = version < 13;
  p.axis = r.attr_int("axis", p.coerced_2d ? 1 : -1);
  return p;
}

}  // namespace sonnx
