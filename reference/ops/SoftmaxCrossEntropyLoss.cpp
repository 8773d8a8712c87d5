// SoftmaxCrossEntropyLoss (versions 12, 13: same semantics): log_prob = LogSoftmax(scores) along
// the class axis 1 of scores (N, C, D1..Dk); the loss is then NegativeLogLikelihoodLoss of log_prob
// with labels (N, D1..Dk), optional weights (C), reduction (none | sum | mean, default mean) and
// ignore_index (nll_loss). The optional second output is log_prob itself. Computed in
// double, rounded once to the element type.
#include "op_params.h"
#include "params/loss.h"
#include "support/shape.h"
#include "support/loss.h"
#include "support/softmax.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> softmax_cross_entropy(OpContext& ctx) {
  LossParams p = LossParams::read(ctx, ctx.version());
  const Tensor& scores = ctx.input(0);
  if (scores.rank() < 2) ctx.fail("scores must have shape (N, C, D1, ..., Dk)");
  std::vector<double> x = float_values(ctx, scores);
  std::vector<double> logp(x.size());
  softmax_lines(SoftmaxKind::LogSoftmax, axis_view(scores.shape(), 1), x, logp);
  const Tensor* weights = ctx.has_input(2) ? &ctx.input(2) : nullptr;
  std::vector<Value> out;
  out.emplace_back(nll_loss(ctx, p, logp, scores.shape(), scores.dtype(), ctx.input(1), weights));
  out.emplace_back(float_tensor(ctx, scores.dtype(), scores.shape(), logp));
  return out;
}
}  // namespace
SONNX_PARAMS("", "SoftmaxCrossEntropyLoss", (12, 13), LossParams);
SONNX_KERNEL("", "SoftmaxCrossEntropyLoss", 12, softmax_cross_entropy, Accuracy::Rounding);
namespace {
// The loss: scalar unless reduction is none, then the labels' shape; the log-probabilities have
// the scores' shape.
void sce_loss_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  LossParams p = LossParams::read(ctx, ctx.version());
  const Dims* labels = ctx.input_shape(1);
  if (p.reduction == LossParams::Reduction::None) ctx.set_output(0, t, labels ? std::optional<Dims>(*labels) : std::nullopt);
  else ctx.set_output(0, t, Dims{});
  if (ctx.has_output(1)) {
    const Dims* x = ctx.input_shape(0);
    ctx.set_output(1, t, x ? std::optional<Dims>(*x) : std::nullopt);
  }
}
}  // namespace
SONNX_SHAPE_RULE("", "SoftmaxCrossEntropyLoss", (12, 13), sce_loss_shape);
}  // namespace sonnx
