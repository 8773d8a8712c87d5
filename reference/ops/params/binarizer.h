// The parameters of Binarizer (ai.onnx.ml; reference/ops/op_params.h), read by its reference
// kernel and its enclosure (enclose/enclose_ml.cpp).
#pragma once
#include <cstdint>

#include "reference/model/attr_reader.h"

namespace sonnx {

struct BinarizerParams {
  float threshold = 0.0f;  // values greater than it become 1
  static BinarizerParams read(const AttrReader& r, int64_t /*version*/) { return {r.attr_float("threshold", 0.0f)}; }
};

}  // namespace sonnx
