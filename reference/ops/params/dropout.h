// Dropout's parameters (reference/ops/op_params.h), read by its reference kernel.
#pragma once
#include <cstdint>
#include <optional>

#include "reference/model/attr_reader.h"

namespace sonnx {

struct DropoutParams {
  // Versions 1 and 6: training unless is_test; 7 and 10 always infer; from 12 the optional input
  // training_mode says (false when omitted).
  bool training = false;
  float ratio = 0.5f;           // before 12 the attribute; from 12 the optional input ratio
  std::optional<int64_t> seed;  // from 12: seeds the draws (otherwise the run's generator)
  static DropoutParams read(const AttrReader& reader, int64_t version);
};

}  // namespace sonnx
