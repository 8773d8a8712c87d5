// The parameters of ScatterElements and ScatterND (reference/ops/op_params.h), read by their
// reference kernels and ScatterND's enclosure.
#pragma once
#include <cstdint>

#include "reference/model/attr_reader.h"

namespace sonnx {

// How an update meets the element it lands on: replaces it, or from version 16 adds or multiplies,
// from 18 also keeps the max or the min (support/indexing.h, reduce_values).
enum class Reduction { None, Add, Mul, Max, Min };

struct ScatterParams {
  Reduction reduction = Reduction::None;  // checked against the version
  int64_t axis = 0;                       // ScatterElements; not yet checked against the rank
  static ScatterParams read(const AttrReader& reader, int64_t version);
};

}  // namespace sonnx
