// The parameters of LayerNormalization, GroupNormalization, InstanceNormalization, LRN,
// LpNormalization and MeanVarianceNormalization (reference/ops/op_params.h), read by their
// reference kernels, shape rules and fast kernels.
#pragma once
#include <cstdint>
#include <vector>

#include "reference/model/attr_reader.h"
#include "sonnx/dtype.h"

namespace sonnx {

struct LayerNormParams {
  int64_t axis = -1;  // the first normalized axis, in [-rank, rank); not yet checked against the rank
  float epsilon = 1e-5f;
  DType stash_type = DType::Float;  // of Mean and InvStdDev: float or bfloat16 (checked)
  static LayerNormParams read(const AttrReader& reader, int64_t version);
};

struct GroupNormParams {
  int64_t num_groups = 0;  // required, positive (checked)
  float epsilon = 1e-5f;
  bool per_channel = false;         // version 21: scale and bias per channel; 18: per group
  DType stash_type = DType::Float;  // version 21: a floating type (checked)
  static GroupNormParams read(const AttrReader& reader, int64_t version);
};

struct InstanceNormParams {
  float epsilon = 1e-5f;
  static InstanceNormParams read(const AttrReader& reader, int64_t version);
};

struct LRNParams {
  int64_t size = 0;  // required, at least 1 (checked): the channels summed around each one
  float alpha = 1e-4f, beta = 0.75f, bias = 1.0f;
  static LRNParams read(const AttrReader& reader, int64_t version);
};

struct LpNormParams {
  int64_t p = 2;      // 1 or 2 (checked)
  int64_t axis = -1;  // not yet checked against the rank
  static LpNormParams read(const AttrReader& reader, int64_t version);
};

struct MeanVarianceNormParams {
  std::vector<int64_t> axes{0, 2, 3};
  static MeanVarianceNormParams read(const AttrReader& reader, int64_t version);
};

}  // namespace sonnx
