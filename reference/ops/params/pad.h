// Pad's parameters (reference/ops/op_params.h), read by its reference kernel, shape rule and fast
// kernel.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "reference/model/attr_reader.h"
#include "sonnx/tensor.h"

namespace sonnx {

enum class PadMode { Constant, Reflect, Edge, Wrap };

struct PadParams {
  PadMode mode = PadMode::Constant;  // constant, reflect or edge; wrap from version 19 (checked)
  std::string mode_name = "constant";
  std::vector<int64_t> pads;  // versions 1 (`paddings`) and 2 (`pads`): required (checked); later an input
  float value = 0;            // versions 1 and 2: the constant; later an input
  static PadParams read(const AttrReader& reader, int64_t version);
  // The shape of x padded by `pads` ([begin..., end...] over every axis) into `out`: "" when the
  // pads fit x under the mode, else why not.
  std::string padded_shape(const Shape& x, const std::vector<int64_t>& pads, Shape& out) const;
};

}  // namespace sonnx
