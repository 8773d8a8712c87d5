#include "training.h"

#include <string>

namespace sonnx {

AdagradParams AdagradParams::read(const AttrReader& r, int64_t /*version*/) {
  return {r.attr_float("decay_factor", 0.f), r.attr_float("epsilon", 1e-6f), r.attr_float("norm_coefficient", 0.f)};
}

AdamParams AdamParams::read(const AttrReader& r, int64_t /*version*/) {
  return {r.attr_float("alpha", 0.9f), r.attr_float("beta", 0.999f), r.attr_float("epsilon", 1e-6f),
          r.attr_float("norm_coefficient", 0.f), r.attr_float("norm_coefficient_post", 0.f)};
}

MomentumParams MomentumParams::read(const AttrReader& r, int64_t /*version*/) {
  for (const char* a : {"alpha", "beta", "mode", "norm_coefficient"})
    if (!r.has_attr(a)) r.fail(std::string("attribute '") + a + "' is required");
  MomentumParams p;
  p.alpha = r.attr_float("alpha", 0.f);
  p.beta = r.attr_float("beta", 0.f);
  p.norm_coefficient = r.attr_float("norm_coefficient", 0.f);
  std::string mode = r.attr_string("mode", "");
  if (mode != "standard" && mode != "nesterov") r.fail("mode '" + mode + "' is neither standard nor nesterov");
  p.nesterov = mode == "nesterov";
  return p;
}

}  // namespace sonnx
