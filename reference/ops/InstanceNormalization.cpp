// InstanceNormalization: y = scale * (x - mean) / sqrt(variance + epsilon) + B, with mean and
// (population) variance computed per instance and channel, i.e. over D1..Dn of an
// (N x C x D1 ... Dn) input; scale and B have C elements. Version 1's consumed_inputs is ignored;
// version 6 is the same computation. All arithmetic in double, rounded once to the element type.
#include "op_params.h"
#include "params/normalization.h"
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> instance_norm(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() < 2) ctx.fail("input must have shape (N x C x D1 ... Dn)");
  std::vector<double> xv = float_values(ctx, x);
  std::vector<double> scale = float_values(ctx, ctx.input(1));
  std::vector<double> bias = float_values(ctx, ctx.input(2));
  int64_t n = x.dim(0), c = x.dim(1);
  int64_t inner = element_count(x.shape(), 2, x.shape().size());
  if (static_cast<int64_t>(scale.size()) != c || static_cast<int64_t>(bias.size()) != c)
    ctx.fail("scale and B must have C = " + std::to_string(c) + " elements");
  auto epsilon = static_cast<double>(InstanceNormParams::read(ctx, ctx.version()).epsilon);
  std::vector<double> y(xv.size());
  for (int64_t b = 0; b < n; ++b)
    for (int64_t ch = 0; ch < c; ++ch) {
      auto base = static_cast<size_t>((b * c + ch) * inner);
      auto count = static_cast<size_t>(inner);
      double mean = 0;
      for (size_t i = 0; i < count; ++i) mean += xv[base + i];
      mean /= static_cast<double>(count);
      double var = 0;
      for (size_t i = 0; i < count; ++i) var += (xv[base + i] - mean) * (xv[base + i] - mean);
      var /= static_cast<double>(count);
      auto k = static_cast<size_t>(ch);
      for (size_t i = 0; i < count; ++i) y[base + i] = scale[k] * (xv[base + i] - mean) / std::sqrt(var + epsilon) + bias[k];
    }
  return one(float_tensor(ctx, x.dtype(), x.shape(), y));
}
}  // namespace
SONNX_PARAMS("", "InstanceNormalization", (1, 6, 22), InstanceNormParams);
SONNX_KERNEL("", "InstanceNormalization", 1, instance_norm, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "InstanceNormalization", 22, instance_norm, Accuracy::Rounding);
namespace {
void instance_norm_shape(InferContext& ctx) {
  common_elem(ctx, {0, 1, 2});
  same_as_input_rule(ctx);
}
}  // namespace
SONNX_SHAPE_RULE("", "InstanceNormalization", (1, 6, 22), instance_norm_shape);
}  // namespace sonnx
