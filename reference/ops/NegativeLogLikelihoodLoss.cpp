// NegativeLogLikelihoodLoss (versions 12, 13: same semantics): input (N, C, D1..Dk) holds
// log-probabilities, target (N, D1..Dk) class indices; optional weight (C), attributes reduction
// (none | sum | mean, default mean) and ignore_index. The computation is nll_loss (support/loss.h),
// in double, rounded once to the element type.
#include "op_params.h"
#include "params/loss.h"
#include "support/shape.h"
#include "support/loss.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> nll_loss_kernel(OpContext& ctx) {
  const Tensor& input = ctx.input(0);
  const Tensor* weight = ctx.has_input(2) ? &ctx.input(2) : nullptr;
  LossParams p = LossParams::read(ctx, ctx.version());
  return one(nll_loss(ctx, p, float_values(ctx, input), input.shape(), input.dtype(), ctx.input(1), weight));
}
}  // namespace
SONNX_PARAMS("", "NegativeLogLikelihoodLoss", (12, 13, 22), LossParams);
SONNX_KERNEL("", "NegativeLogLikelihoodLoss", 12, nll_loss_kernel, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "NegativeLogLikelihoodLoss", 22, nll_loss_kernel, Accuracy::Rounding);
namespace {
// Scalar unless reduction is none, then the target's shape [N, d1, ...].
void nll_loss_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  LossParams p = LossParams::read(ctx, ctx.version());
  const Dims* target = ctx.input_shape(1);
  if (p.reduction == LossParams::Reduction::None) ctx.set_output(0, t, target ? std::optional<Dims>(*target) : std::nullopt);
  else ctx.set_output(0, t, Dims{});
}
}  // namespace
SONNX_SHAPE_RULE("", "NegativeLogLikelihoodLoss", (12, 13, 22), nll_loss_shape);
}  // namespace sonnx
