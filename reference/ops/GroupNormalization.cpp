// GroupNormalization: X of shape (N, C, D1, ..., Dn) is split into num_groups groups of C /
// num_groups consecutive channels; each instance's group is normalized by its own mean and
// (population) variance over its channels and D1..Dn, then scaled and shifted:
//   y = scale * (x - mean) / sqrt(variance + epsilon) + bias      (epsilon default 1e-5)
// num_groups is required and must divide C.
//   - Version 18 (deprecated since opset 21; the 1.22 documents keep only its description):
//     scale and bias have one value per group (shape (num_groups)), as its text says.
//   - Version 21: scale and bias have one value per channel (shape (C)). Its function body runs
//     the first stage in stash_type precision (float by default; checked to name a floating type)
//     and the scaling in X's type.
// Both kernels compute everything in double and round Y once to X's type.
#include "op_params.h"
#include "params/normalization.h"
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
struct Groups {
  int64_t n, c, groups, inner;  // inner: elements per channel (D1 * ... * Dn)
};

Groups group_layout(OpContext& ctx, const Tensor& x, const GroupNormParams& p) {
  if (x.rank() < 2) ctx.fail("X must have shape (N x C x D1 ... Dn)");
  Groups g{x.dim(0), x.dim(1), p.num_groups, element_count(x.shape(), 2)};
  if (g.c % g.groups != 0)
    ctx.fail("num_groups " + std::to_string(g.groups) + " must be positive and divide the " + std::to_string(g.c) + " channels");
  return g;
}

// Scale and bias index by channel (version 21) or by group (version 18).
std::vector<Value> group_norm(OpContext& ctx) {
  GroupNormParams p = GroupNormParams::read(ctx, ctx.version());
  bool per_channel = p.per_channel;
  const Tensor& x = ctx.input(0);
  Groups g = group_layout(ctx, x, p);
  std::vector<double> xv = float_values(ctx, x);
  std::vector<double> scale = float_values(ctx, ctx.input(1));
  std::vector<double> bias = float_values(ctx, ctx.input(2));
  int64_t params = per_channel ? g.c : g.groups;
  if (ctx.input(1).rank() != 1 || ctx.input(2).rank() != 1 || static_cast<int64_t>(scale.size()) != params ||
      static_cast<int64_t>(bias.size()) != params)
    ctx.fail(std::string("scale and bias must be 1-D with one value per ") + (per_channel ? "channel (" : "group (") +
             std::to_string(params) + ")");
  auto epsilon = static_cast<double>(p.epsilon);
  int64_t channels_per_group = g.c / g.groups;
  auto count = static_cast<size_t>(channels_per_group * g.inner);
  std::vector<double> y(xv.size());
  for (int64_t b = 0; b < g.n; ++b)
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      auto base = static_cast<size_t>((b * g.c + grp * channels_per_group) * g.inner);
      double mean = 0;
      for (size_t i = 0; i < count; ++i) mean += xv[base + i];
      mean /= static_cast<double>(count);
      double var = 0;
      for (size_t i = 0; i < count; ++i) var += (xv[base + i] - mean) * (xv[base + i] - mean);
      var /= static_cast<double>(count);
      double inv_std = 1.0 / std::sqrt(var + epsilon);
      for (size_t i = 0; i < count; ++i) {
        auto k = static_cast<size_t>(per_channel ? grp * channels_per_group + static_cast<int64_t>(i) / g.inner : grp);
        y[base + i] = scale[k] * (xv[base + i] - mean) * inv_std + bias[k];
      }
    }
  return one(float_tensor(ctx, x.dtype(), x.shape(), y));
}

}  // namespace
SONNX_PARAMS("", "GroupNormalization", (18, 21), GroupNormParams);
SONNX_KERNEL("", "GroupNormalization", 18, group_norm, Accuracy::Rounding);
SONNX_KERNEL("", "GroupNormalization", 21, group_norm, Accuracy::Rounding);
namespace {
void group_norm_shape(InferContext& ctx) {
  GroupNormParams::read(ctx, ctx.version());
  same_as_input_rule(ctx);
}
}  // namespace
SONNX_SHAPE_RULE("", "GroupNormalization", (18, 21), group_norm_shape);
}  // namespace sonnx
