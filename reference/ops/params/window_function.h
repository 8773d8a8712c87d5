// The parameters of the window-function operators HannWindow, HammingWindow and BlackmanWindow
// (reference/ops/op_params.h), read by their reference kernels and shape rule
// (support::cosine_window, support::cosine_window_shape); MelWeightMatrix reads output_datatype
// the same way (MelWeightMatrixParams).
#pragma once
#include <cstdint>

#include "reference/model/attr_reader.h"
#include "sonnx/dtype.h"

namespace sonnx {

struct WindowFunctionParams {
  bool periodic = true;                  // 1 (default): N = size; 0: symmetric, N = size - 1 (checked 0 or 1)
  DType output_datatype = DType::Float;  // a real numeric type (checked)
  static WindowFunctionParams read(const AttrReader& reader, int64_t version);
};

// The output_datatype attribute of the window operators and MelWeightMatrix (default float): a real
// numeric type (the schemas' T2 / T3); fail()s otherwise.
DType read_output_datatype(const AttrReader& reader);

// MelWeightMatrix's one attribute, read by its kernel, shape rule and enclosure.
struct MelWeightMatrixParams {
  DType output_datatype = DType::Float;  // a real numeric type (checked), as the window operators'
  static MelWeightMatrixParams read(const AttrReader& r, int64_t /*version*/) { return {read_output_datatype(r)}; }
};

}  // namespace sonnx
