// The parameters of Softmax, LogSoftmax and Hardmax (reference/ops/op_params.h), read by their
// reference kernels, shape rules, fast kernels and enclosures.
#pragma once
#include <cstdint>

#include "reference/model/attr_reader.h"

namespace sonnx {

struct SoftmaxParams {
  // Before version 13 the input is coerced to 2-D at `axis` (default 1) and each row is normalized
  // as a whole; from 13 it is normalized along the one axis `axis` (default -1). Either way the axis
  // must name an axis of the input, in [-rank, rank).
  bool coerced_2d = false;
  int64_t axis = -1;  // not yet checked against the rank
  static SoftmaxParams read(const AttrReader& reader, int64_t version);
};

}  // namespace sonnx
