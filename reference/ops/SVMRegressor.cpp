// SVMRegressor (ai.onnx.ml 1): X [N, C] or [C] (float, double, int32, int64) -> Y [N, 1] float.
// y = sum_j coefficients[j] K(x, sv_j) + rho[0] over the n_supports support vectors, or with
// n_supports = 0 the linear form x . coefficients + rho[0]; one_class maps y to +1 (y > 0) or -1;
// then post_transform on the one-entry row. Layouts: params/svm.h, spec/ops/SVMRegressor.md.
// Computed in double, rounded once.
#include "op_params.h"
#include "params/svm.h"
#include "support/kernel.h"
#include "support/ml_predictor.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> svm_regressor(OpContext& ctx) {
  const SVMRegressorParams p = SVMRegressorParams::read(ctx, ctx.version());
  const Tensor& x = ctx.input(0);
  const MlBatch b = ml_batch(ctx, x);
  if (b.c != p.features()) ctx.fail("X has " + std::to_string(b.c) + " columns, the model " + std::to_string(p.features()));
  const std::vector<double> in = real_values(ctx, x);
  std::vector<double> out;
  out.reserve(static_cast<size_t>(b.n));
  const SvmKernel linear{};
  for (int64_t r = 0; r < b.n; ++r) {
    const double* row = in.data() + r * b.c;
    double y = p.rho;
    if (p.n_supports == 0) y += linear.apply(row, p.coefficients.data(), b.c);
    for (int64_t j = 0; j < p.n_supports; ++j)
      y += static_cast<double>(p.coefficients[static_cast<size_t>(j)]) *
           p.kernel.apply(row, p.support_vectors.data() + j * b.c, b.c);
    if (p.one_class) y = y > 0 ? 1.0 : -1.0;
    std::vector<double> one_row{y};
    post_transform_row(p.post_transform, one_row);
    out.push_back(one_row[0]);
  }
  return one(float_tensor(ctx, DType::Float, {b.n, 1}, out));
}

void svm_regressor_shape(InferContext& ctx) {
  const SVMRegressorParams p = SVMRegressorParams::read(ctx, ctx.version());
  const std::optional<MlBatchDims> b = ml_batch_dims(ctx);
  if (b && b->c.value && *b->c.value != p.features())
    ctx.fail("X has " + std::to_string(*b->c.value) + " columns, the model " + std::to_string(p.features()));
  std::optional<Dims> out;
  if (b) out = Dims{b->n, known_dim(1)};
  ctx.set_output(0, DType::Float, out);
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "SVMRegressor", 1, svm_regressor, Accuracy::Rounding);
SONNX_SHAPE_RULE("ai.onnx.ml", "SVMRegressor", (1), svm_regressor_shape);
SONNX_PARAMS("ai.onnx.ml", "SVMRegressor", (1), SVMRegressorParams);
}  // namespace sonnx
