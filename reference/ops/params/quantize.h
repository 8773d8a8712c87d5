// The parameters of QuantizeLinear and DequantizeLinear (reference/ops/op_params.h), read by their
// reference kernels and shape rules.
#pragma once
#include <cstdint>
#include <optional>

#include "reference/model/attr_reader.h"
#include "sonnx/dtype.h"

namespace sonnx {

struct QuantizeParams {
  int64_t axis = 1;        // from version 13: the axis a 1-D scale runs along
  int64_t block_size = 0;  // from 21: blocked quantization (0: per tensor or per axis)
  // The quantized (Quantize, from 21) or dequantized (Dequantize, from 23) type when set; a data
  // type (checked). Otherwise the zero point's, or the scale's.
  std::optional<DType> output_dtype;
  bool saturate = true;            // QuantizeLinear from 19: into the float8 types
  std::optional<DType> precision;  // QuantizeLinear from 23: of x / y_scale (checked)
  static QuantizeParams read(const AttrReader& reader, int64_t version);
};

}  // namespace sonnx
