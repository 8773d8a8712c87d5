// The parameters of the one-input activations the fast kernels and fusions also compute
// (reference/ops/op_params.h): LeakyRelu, Elu and HardSigmoid (alpha, beta) and Gelu.
#pragma once
#include <cstdint>

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

}  // namespace sonnx
