// Momentum (ai.onnx.preview.training): one step of SGD with momentum for each optimized tensor X_i.
//   inputs  R, T, X_1..X_n, G_1..G_n, V_1..V_n      outputs X_new_1..X_new_n, V_new_1..V_new_n
//   G_reg = norm_coefficient * X + G
//   V_new = alpha * V + (T > 0 ? beta : 1) * G_reg
//   mode "standard": X_new = X - R * V_new
//   mode "nesterov": X_new = X - R * (G_reg + alpha * V_new)
// Computed in double and rounded once to the tensors' element type.
#include "op_params.h"
#include "params/training.h"
#include "support/shape.h"
#include "support/optimizer.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> momentum(OpContext& ctx) {
  const MomentumParams p = MomentumParams::read(ctx, ctx.version());
  double r = learning_rate_input(ctx);
  int64_t t = update_count_input(ctx);
  double alpha = p.alpha;
  double beta = p.beta;
  double norm = p.norm_coefficient;
  size_t n = optimizer_tensor_count(ctx, 3, 2);
  double beta_adj = t > 0 ? beta : 1.0;
  std::vector<Value> out(2 * n);
  for (size_t i = 0; i < n; ++i) {
    const Tensor& xt = ctx.input(2 + i);
    std::vector<double> x = optimizer_operand(ctx, 2 + i, xt);
    std::vector<double> g = optimizer_operand(ctx, 2 + n + i, xt);
    std::vector<double> v = optimizer_operand(ctx, 2 + 2 * n + i, xt);
    std::vector<double> x_new(x.size()), v_new(x.size());
    for (size_t k = 0; k < x.size(); ++k) {
      double g_reg = norm * x[k] + g[k];
      v_new[k] = alpha * v[k] + beta_adj * g_reg;
      x_new[k] = p.nesterov ? x[k] - r * (g_reg + alpha * v_new[k]) : x[k] - r * v_new[k];
    }
    out[i] = optimizer_result(ctx, xt.dtype(), xt.shape(), x_new);
    out[n + i] = optimizer_result(ctx, xt.dtype(), xt.shape(), v_new);
  }
  return out;
}
}  // namespace
SONNX_KERNEL("ai.onnx.preview.training", "Momentum", 1, momentum, Accuracy::Rounding);
namespace {
void momentum_shape(InferContext& ctx) { optimizer_shape_rule(ctx, 2); }
}  // namespace
SONNX_SHAPE_RULE("ai.onnx.preview.training", "Momentum", (1), momentum_shape);
SONNX_PARAMS("ai.onnx.preview.training", "Momentum", (1), MomentumParams);
}  // namespace sonnx
