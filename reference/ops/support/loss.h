// The loss operators' shared part: negative log-likelihood (NegativeLogLikelihoodLoss and the
// second half of SoftmaxCrossEntropyLoss).
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "reduce.h"
#include "reference/ops/params/loss.h"

namespace sonnx::support {

// logp: the (N, C, D1..Dk) input as doubles; target: (N, D1..Dk) int32/int64 class indices;
// weight: optional (C); p: the reduction and ignore_index. Per sample: loss = -logp[n, t, d] * w,
// w = weight[t] (1 without weights); samples whose target equals ignore_index get loss 0 and w 0.
// reduction "none" returns the losses (target's shape), "sum" their sum, "mean" sum(loss) /
// sum(w): with neither weights nor ignore_index that is the plain mean; with ignore_index only,
// the mean over the samples not ignored (as the ONNX test generators and PyTorch do). Any other
// target value outside [0, C) traps. Result of element type `type`.
inline Tensor nll_loss(const OpContext& ctx, const LossParams& p, const std::vector<double>& logp, const Shape& in_shape,
                       DType type, const Tensor& target, const Tensor* weight) {
  if (in_shape.size() < 2) ctx.fail("input must have shape (N, C, D1, ..., Dk)");
  if (target.dtype() != DType::Int32 && target.dtype() != DType::Int64) ctx.fail("target must be int32 or int64");
  Shape expect_target = in_shape;
  expect_target.erase(expect_target.begin() + 1);
  if (target.shape() != expect_target)
    ctx.fail("target shape " + shape_str(target.shape()) + " does not match input shape " + shape_str(in_shape));
  int64_t c = in_shape[1];
  std::vector<double> w_class;
  if (weight) {
    w_class = float_values(ctx, *weight);
    if (static_cast<int64_t>(w_class.size()) != c || weight->rank() != 1) ctx.fail("weight must have shape (C)");
  }
  bool has_ignore = p.ignore_index.has_value();
  int64_t ignore = p.ignore_index.value_or(0);
  AxisView v = axis_view(in_shape, 1);  // [N, C, D1*...*Dk]
  std::vector<int64_t> t = target.to_int64_vector();
  std::vector<double> loss(t.size()), w(t.size());
  for (int64_t n = 0; n < v.outer; ++n)
    for (int64_t d = 0; d < v.inner; ++d) {
      auto s = static_cast<size_t>(n * v.inner + d);
      if (has_ignore && t[s] == ignore) {
        loss[s] = 0;
        w[s] = 0;
        continue;
      }
      if (t[s] < 0 || t[s] >= c) ctx.fail("target value " + std::to_string(t[s]) + " is outside [0, C)");
      w[s] = weight ? w_class[static_cast<size_t>(t[s])] : 1.0;
      loss[s] = -logp[static_cast<size_t>(v.at(n, t[s], d))] * w[s];
    }
  if (p.reduction == LossParams::Reduction::None) return float_tensor(ctx, type, target.shape(), loss);
  double sum = 0, wsum = 0;
  for (size_t s = 0; s < loss.size(); ++s) {
    sum += loss[s];
    wsum += w[s];
  }
  return float_tensor(ctx, type, {}, {p.reduction == LossParams::Reduction::Sum ? sum : sum / wsum});
}

}  // namespace sonnx::support
