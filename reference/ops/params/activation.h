// The parameters of the one-input activations the fast kernels and fusions also compute
// (reference/ops/op_params.h): the alpha, beta and gamma of LeakyRelu, Elu, Celu, ThresholdedRelu,
// HardSigmoid and Selu, Gelu's approximation and Clip's bounds.
#pragma once
#include <cstdint>
#include <limits>

#include "reference/model/attr_reader.h"

namespace sonnx {

// With each operator's defaults: LeakyRelu alpha 0.01; Elu, Celu and ThresholdedRelu alpha 1;
// HardSigmoid alpha 0.2 and beta 0.5; Selu alpha and gamma, in version 1 as its text rounds them
// (1.6732, 1.0507), from 6 the floats nearest the exact constants.
struct ActivationParams {
  float alpha = 0, beta = 0, gamma = 0;
  static ActivationParams read(const AttrReader& reader, int64_t version);
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
