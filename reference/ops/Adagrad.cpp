// Adagrad (ai.onnx.preview.training): one ADAGRAD step for each optimized tensor X_i.
//   inputs  R, T, X_1..X_n, G_1..G_n, H_1..H_n      outputs X_new_1..X_new_n, H_new_1..H_new_n
//   r = R / (1 + T * decay_factor)
//   G_reg = norm_coefficient * X + G
//   H_new = H + G_reg * G_reg
//   X_new = X - r * G_reg / (sqrt(H_new) + epsilon)
// Computed in double and rounded once to the tensors' element type.
#include "op_params.h"
#include "params/training.h"
#include "support/shape.h"
#include "support/optimizer.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> adagrad(OpContext& ctx) {
  const AdagradParams p = AdagradParams::read(ctx, ctx.version());
  double r_in = learning_rate_input(ctx);
  int64_t t = update_count_input(ctx);
  double decay = p.decay_factor;
  double eps = p.epsilon;
  double norm = p.norm_coefficient;
  size_t n = optimizer_tensor_count(ctx, 3, 2);
  double r = r_in / (1.0 + static_cast<double>(t) * decay);
  std::vector<Value> out(2 * n);
  for (size_t i = 0; i < n; ++i) {
    const Tensor& xt = ctx.input(2 + i);
    std::vector<double> x = optimizer_operand(ctx, 2 + i, xt);
    std::vector<double> g = optimizer_operand(ctx, 2 + n + i, xt);
    std::vector<double> h = optimizer_operand(ctx, 2 + 2 * n + i, xt);
    std::vector<double> x_new(x.size()), h_new(x.size());
    for (size_t k = 0; k < x.size(); ++k) {
      double g_reg = norm * x[k] + g[k];
      h_new[k] = h[k] + g_reg * g_reg;
      x_new[k] = x[k] - r * g_reg / (std::sqrt(h_new[k]) + eps);
    }
    out[i] = optimizer_result(ctx, xt.dtype(), xt.shape(), x_new);
    out[n + i] = optimizer_result(ctx, xt.dtype(), xt.shape(), h_new);
  }
  return out;
}
}  // namespace
SONNX_KERNEL("ai.onnx.preview.training", "Adagrad", 1, adagrad, Accuracy::Rounding);
namespace {
void adagrad_shape(InferContext& ctx) { optimizer_shape_rule(ctx, 2); }
}  // namespace
SONNX_SHAPE_RULE("ai.onnx.preview.training", "Adagrad", (1), adagrad_shape);
SONNX_PARAMS("ai.onnx.preview.training", "Adagrad", (1), AdagradParams);
}  // namespace sonnx
