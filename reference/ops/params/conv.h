// The parameters of the convolutions (Conv, ConvInteger, QLinearConv, DeformConv, ConvTranspose)
// beside their window (reference/ops/op_params.h; strides, pads, dilations are
// support::window_attrs or support::transposed_attrs, read for the input's rank), read by their
// reference kernels, shape rules, fast kernels and enclosures.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/model/attr_reader.h"
#include "sonnx/tensor.h"

namespace sonnx {

struct ConvParams {
  int64_t group = 1;                                 // at least 1 (checked)
  std::optional<std::vector<int64_t>> kernel_shape;  // when given, W's spatial shape
  int64_t offset_group = 1;                          // DeformConv: at least 1 (checked)
  static ConvParams read(const AttrReader& reader, int64_t version);
  // "" when kernel_shape is absent or W's spatial shape (its dimensions after the first two), else
  // why not.
  std::string check_kernel(const Shape& w) const;
};

}  // namespace sonnx
