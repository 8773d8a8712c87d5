#include "batch_normalization.h"

namespace sonnx {

BatchNormParams BatchNormParams::read(const AttrReader& r, int64_t version) {
  BatchNormParams p;
  p.epsilon = r.attr_float("epsilon", 1e-5f);
  p.momentum = r.attr_float("momentum", 0.9f);
  if (version < 7) p.is_test = r.attr_int("is_test", 0) != 0;
  if (version < 9) p.spatial = r.attr_int("spatial", 1) != 0;
  if (version >= 14) p.training_mode = r.attr_int("training_mode", 0) != 0;
  return p;
}

}  // namespace sonnx
