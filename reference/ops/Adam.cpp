// Adam (ai.onnx.preview.training): one Adam step for each optimized tensor X_i.
//   inputs  R, T, X_1..X_n, G_1..G_n, V_1..V_n, H_1..H_n
//   outputs X_new_1..X_new_n, V_new_1..V_new_n, H_new_1..H_new_n
//   G_reg = norm_coefficient * X + G
//   V_new = alpha * V + (1 - alpha) * G_reg
//   H_new = beta * H + (1 - beta) * G_reg * G_reg
//   R_adj = T > 0 ? R * sqrt(1 - beta^T) / (1 - alpha^T) : R
//   X_new = (1 - norm_coefficient_post) * (X - R_adj * V_new / (sqrt(H_new) + epsilon))
// Computed in double and rounded once to the tensors' element type.
#include "op_params.h"
#include "params/training.h"
#include "support/shape.h"
#include "support/optimizer.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> adam(OpContext& ctx) {
  const AdamParams p = AdamParams::read(ctx, ctx.version());
  double r = learning_rate_input(ctx);
  int64_t t = update_count_input(ctx);
  double alpha = p.alpha;
  double beta = p.beta;
  double eps = p.epsilon;
  double norm = p.norm_coefficient;
  double norm_post = p.norm_coefficient_post;
  size_t n = optimizer_tensor_count(ctx, 4, 3);
  double td = static_cast<double>(t);
  double r_adj = t > 0 ? r * std::sqrt(1.0 - std::pow(beta, td)) / (1.0 - std::pow(alpha, td)) : r;
  std::vector<Value> out(3 * n);
  for (size_t i = 0; i < n; ++i) {
    const Tensor& xt = ctx.input(2 + i);
    std::vector<double> x = optimizer_operand(ctx, 2 + i, xt);
    std::vector<double> g = optimizer_operand(ctx, 2 + n + i, xt);
    std::vector<double> v = optimizer_operand(ctx, 2 + 2 * n + i, xt);
    std::vector<double> h = optimizer_operand(ctx, 2 + 3 * n + i, xt);
    std::vector<double> x_new(x.size()), v_new(x.size()), h_new(x.size());
    for (size_t k = 0; k < x.size(); ++k) {
      double g_reg = norm * x[k] + g[k];
      v_new[k] = alpha * v[k] + (1.0 - alpha) * g_reg;
      h_new[k] = beta * h[k] + (1.0 - beta) * g_reg * g_reg;
      x_new[k] = (1.0 - norm_post) * (x[k] - r_adj * v_new[k] / (std::sqrt(h_new[k]) + eps));
    }
    out[i] = optimizer_result(ctx, xt.dtype(), xt.shape(), x_new);
    out[n + i] = optimizer_result(ctx, xt.dtype(), xt.shape(), v_new);
    out[2 * n + i] = optimizer_result(ctx, xt.dtype(), xt.shape(), h_new);
  }
  return out;
}
}  // namespace
SONNX_KERNEL("ai.onnx.preview.training", "Adam", 1, adam, Accuracy::Rounding);
namespace {
void adam_shape(InferContext& ctx) { optimizer_shape_rule(ctx, 3); }
}  // namespace
SONNX_SHAPE_RULE("ai.onnx.preview.training", "Adam", (1), adam_shape);
SONNX_PARAMS("ai.onnx.preview.training", "Adam", (1), AdamParams);
}  // namespace sonnx
