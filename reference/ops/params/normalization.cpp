#include "normalization.h"

#include <string>

namespace sonnx {

LayerNormParams LayerNormParams::read(const AttrReader& r, int64_t /*version*/) {
  LayerNormParams p;
  p.axis = r.attr_int("axis", -1);
  p.epsilon = r.attr_float("epsilon", 1e-5f);
  int64_t stash = r.attr_int("stash_type", 1);
  if (stash != static_cast<int64_t>(DType::Float) && stash != static_cast<int64_t>(DType::BFloat16))
    r.fail("stash_type must be float (1) or bfloat16 (16)");
  p.stash_type = static_cast<DType>(stash);
  return p;
}

GroupNormParams GroupNormParams::read(const AttrReader& r, int64_t version) {
  GroupNormParams p;
  if (!r.has_attr("num_groups")) r.fail("attribute num_groups is required");
  p.num_groups = r.attr_int("num_groups", 0);
  if (p.num_groups < 1) r.fail("num_groups must be positive, got " + std::to_string(p.num_groups));
  p.epsilon = r.attr_float("epsilon", 1e-5f);
  p.per_channel = version >= 21;
  if (p.per_channel) p.stash_type = r.attr_floating_type("stash_type", DType::Float);
  return p;
}

InstanceNormParams InstanceNormParams::read(const AttrReader& r, int64_t /*version*/) {
  InstanceNormParams p;
  p.epsilon = r.attr_float("epsilon", 1e-5f);
  return p;
}

LRNParams LRNParams::read(const AttrReader& r, int64_t /*version*/) {
  LRNParams p;
  if (!r.has_attr("size")) r.fail("attribute 'size' is required");
  p.size = r.attr_int("size", 0);
  if (p.size < 1) r.fail("size must be at least 1");
  p.alpha = r.attr_float("alpha", 1e-4f);
  p.beta = r.attr_float("beta", 0.75f);
  p.bias = r.attr_float("bias", 1.0f);
  return p;
}

LpNormParams LpNormParams::read(const AttrReader& r, int64_t /*version*/) {
  LpNormParams p{r.attr_int("p", 2), r.attr_int("axis", -1)};
  if (p.p != 1 && p.p != 2) r.fail("p must be 1 or 2, got " + std::to_string(p.p));
  return p;
}

MeanVarianceNormParams MeanVarianceNormParams::read(const AttrReader& r, int64_t /*version*/) {
  return {r.attr_ints("axes", {0, 2, 3})};
}

}  // namespace sonnx
