// LinearRegressor (ai.onnx.ml 1): X [N, C] -> Y [N, targets] as float, Y[n, t] = sum_c X[n, c] *
// coefficients[t * C + c] + intercepts[t] (intercepts optional: 0), then post_transform per row
// (NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO, PROBIT; support/post_transform.h). Computed in double,
// rounded once.
#include "op_params.h"
#include "params/ml_linear.h"
#include "support/kernel.h"
#include "support/post_transform.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> linear_regressor(OpContext& ctx) {
  const LinearRegressorParams p = LinearRegressorParams::read(ctx, ctx.version());
  const Tensor& x = ctx.input(0);
  if (x.rank() != 2) ctx.fail("X must be 2-D [N, C]");
  const int64_t n = x.dim(0), c = x.dim(1), targets = p.targets;
  if (std::string why = p.fits(c); !why.empty()) ctx.fail(why);
  const std::vector<float>& coef = p.coefficients;
  const std::vector<float>& intercepts = p.intercepts;
  const std::vector<double> in = real_values(ctx, x);
  std::vector<double> out;
  out.reserve(static_cast<size_t>(n * targets));
  for (int64_t r = 0; r < n; ++r) {
    std::vector<double> row(static_cast<size_t>(targets));
    for (int64_t t = 0; t < targets; ++t) {
      double s = intercepts.empty() ? 0.0 : intercepts[static_cast<size_t>(t)];
      for (int64_t k = 0; k < c; ++k) s += in[static_cast<size_t>(r * c + k)] * coef[static_cast<size_t>(t * c + k)];
      row[static_cast<size_t>(t)] = s;
    }
    post_transform_row(p.post_transform, row);
    out.insert(out.end(), row.begin(), row.end());
  }
  return one(float_tensor(ctx, DType::Float, {n, targets}, out));
}

void linear_regressor_shape(InferContext& ctx) {
  const LinearRegressorParams p = LinearRegressorParams::read(ctx, ctx.version());
  require_rank(ctx, 0, 2, "X");
  const Dims* x = ctx.input_shape(0);
  if (std::string why = x && (*x)[1].value ? p.fits(*(*x)[1].value) : ""; !why.empty()) ctx.fail(why);
  std::optional<Dims> out;
  if (x) out = Dims{(*x)[0], known_dim(p.targets)};
  ctx.set_output(0, DType::Float, out);
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "LinearRegressor", 1, linear_regressor, Accuracy::Rounding);
SONNX_SHAPE_RULE("ai.onnx.ml", "LinearRegressor", (1), linear_regressor_shape);
SONNX_PARAMS("ai.onnx.ml", "LinearRegressor", (1), LinearRegressorParams);
}  // namespace sonnx
