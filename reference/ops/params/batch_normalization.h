// BatchNormalization's parameters (reference/ops/op_params.h), read by its reference kernel, fast
// kernel and enclosures.
#pragma once
#include <cstdint>

#include "reference/model/attr_reader.h"

namespace sonnx {

struct BatchNormParams {
  float epsilon = 1e-5f;
  float momentum = 0.9f;       // the running statistics' update, in training
  bool is_test = false;        // versions 1 and 6: only Y may be requested
  bool spatial = true;         // before version 9; false: statistics per activation, not per channel
  bool training_mode = false;  // from version 14; before, requesting an output after Y means training
  static BatchNormParams read(const AttrReader& reader, int64_t version);
};

}  // namespace sonnx
