// The parameters of MaxPool, AveragePool, LpPool and GlobalLpPool beside their window (reference/ops/op_params.h;
// strides, pads and dilations are support::window_attrs, read for the kernel's rank), read by their
// reference kernels, shape rule, fast kernels and enclosure.
#pragma once
#include <cstdint>
#include <vector>

#include "reference/model/attr_reader.h"

namespace sonnx {

struct PoolParams {
  std::vector<int64_t> kernel_shape;  // required but for the global pools (checked): one length per spatial axis
  bool count_include_pad = false;     // AveragePool from version 7: padding counts in the divisor
  int64_t storage_order = 0;          // MaxPool from version 8: Indices row-major (0) or column-major (1) (checked)
  double p = 2;                       // LpPool and GlobalLpPool: a float in version 1, an int from 2
  bool ceil_mode = false;             // MaxPool and AveragePool from 10, LpPool from 18
  // Dilations come with MaxPool 10, AveragePool 19 and LpPool 18, ceil_mode as above: before, a
  // dilation other than 1 or a ceil_mode other than 0 is refused, not ignored.
  static PoolParams read(const AttrReader& reader, int64_t version);
};

}  // namespace sonnx
