// The parameters of the ai.onnx.ml operators Scaler and Normalizer (reference/ops/op_params.h),
// read by their reference kernels, their shape rules and their enclosures
// (enclose/enclose_ml_scaling.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "reference/model/attr_reader.h"

namespace sonnx {

// Scaler-1: Y = (X - offset) * scale.
struct ScalerParams {
  std::vector<float> offset, scale;  // one length: 1 (every element) or X's number of features
  static ScalerParams read(const AttrReader& r, int64_t /*version*/) {
    ScalerParams p{r.attr_floats("offset"), r.attr_floats("scale")};
    if (p.offset.empty() || p.offset.size() != p.scale.size()) r.fail("offset and scale must be given, of one length");
    return p;
  }
  // Whether they fit X's number of features (its last dimension, 1 for a scalar): "" or why not.
  std::string fits(int64_t features) const {
    const int64_t n = static_cast<int64_t>(offset.size());
    if (n == 1 || n == features) return "";
    return "offset and scale have " + std::to_string(n) + " entries; X has " + std::to_string(features) + " features";
  }
};

// Normalizer-1's norm: each row divided by its largest value (MAX), the sum of its absolute values
// (L1) or the square root of the sum of its squares (L2).
enum class NormalizerNorm { Max, L1, L2 };

struct NormalizerParams {
  NormalizerNorm norm = NormalizerNorm::Max;
  static NormalizerParams read(const AttrReader& r, int64_t /*version*/) {
    const std::string s = r.attr_string("norm", "MAX");
    if (s == "MAX") return {NormalizerNorm::Max};
    if (s == "L1") return {NormalizerNorm::L1};
    if (s != "L2") r.fail("norm must be MAX, L1 or L2, not '" + s + "'");
    return {NormalizerNorm::L2};
  }
};

}  // namespace sonnx
