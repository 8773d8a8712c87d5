// The parameters of NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (reference/ops/op_params.h),
// read by their reference kernels (through support::nll_loss) and shape rules.
#pragma once
#include <cstdint>
#include <optional>

#include "reference/model/attr_reader.h"

namespace sonnx {

struct LossParams {
  // reduction: 'none' gives the per-sample losses (the target's shape), 'sum' their sum, 'mean'
  // (the default) their sum divided by the sum of the applied weights.
  enum class Reduction { None, Sum, Mean };
  Reduction reduction = Reduction::Mean;
  std::optional<int64_t> ignore_index;  // samples whose target is this value count neither loss nor weight
  static LossParams read(const AttrReader& reader, int64_t version);
};

}  // namespace sonnx
