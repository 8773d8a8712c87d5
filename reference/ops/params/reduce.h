// The reductions' parameters (ReduceSum, ReduceMean, ..., reference/ops/op_params.h) and those of
// ArgMax and ArgMin, read by their reference kernels, shape rules, fast kernels and enclosures.
#pragma once
#include <cstdint>
#include <vector>

#include "reference/model/attr_reader.h"

namespace sonnx {

struct ReduceParams {
  // `axes` is the optional int64 input 1 from ReduceSum-13 and the other reductions' version 18,
  // which also bring noop_with_empty_axes; before, it is the attribute (absent or empty: all axes).
  bool axes_from_input = false;
  std::vector<int64_t> axes;  // the attribute's, when not from the input
  bool keepdims = true;
  bool noop_with_empty_axes = false;
  static ReduceParams read(const AttrReader& reader, int64_t version);
};

struct ArgReduceParams {
  int64_t axis = 0;  // not yet checked against the rank
  bool keepdims = true;
  bool select_last_index = false;  // from version 12
  static ArgReduceParams read(const AttrReader& reader, int64_t version);
};

}  // namespace sonnx
