// The parameters of the one-input activations the fast kernels and fusions also compute
// (reference/ops/op_params.h): LeakyRelu, Elu and HardSigmoid (alpha, beta), Gelu and Clip.
#pragma once
#include <cstdint>
#include <limits>

#include "reference/model/attr_reader.h"

namespace sonnx {

// alpha and beta with each operator's defaults: LeakyRelu alpha 0.01, Elu alpha 1, HardSigmoid
// alpha 0.2 and beta 0.5 (no version of them changes a default).
struct AlphaBetaParams {
  float alpha = 0, beta = 0;
  static AlphaBetaParams read(const AttrReader& reader, int64_t version);
};

struct GeluParams {
  bool tanh = false;  // approximate: "none" (the default, erf) or "tanh" (checked)
  static GeluParams read(const AttrReader& reader, int64_t version);
};

// Clip's bounds: versions 1 and 6 have the float attributes min and max, whose defaults are float's
// lowest and max; from 11 the bounds are optional scalar inputs (omitted: the type's lowest and
// largest finite values, so ±inf are clipped too).
struct ClipParams {
  bool bounds_from_inputs = true;
  float min = std::numeric_limits<float>::lowest(), max = std::numeric_limits<float>::max();  // the attributes'
  static ClipParams read(const AttrReader& reader, int64_t version);
};

}  // namespace sonnx
