// LinearRegressor (ai.onnx.ml 1): X [N, C] -> Y [N, targets] as float, Y[n, t] = sum_c X[n, c] *
// coefficients[t * C + c] + intercepts[t] (intercepts optional: 0), then post_transform per row
// (NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO, PROBIT; support/post_transform.h). Computed in double,
// rounded once.
#include "support/kernel.h"
#include "support/post_transform.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

PostTransform post_transform_named(const OpContext& ctx, const std::string& s) {
  if (s == "NONE") return PostTransform::None;
  if (s == "SOFTMAX") return PostTransform::Softmax;
  if (s == "LOGISTIC") return PostTransform::Logistic;
  if (s == "SOFTMAX_ZERO") return PostTransform::SoftmaxZero;
  if (s == "PROBIT") return PostTransform::Probit;
  ctx.fail("unknown post_transform '" + s + "'");
}

std::vector<Value> linear_regressor(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() != 2) ctx.fail("X must be 2-D [N, C]");
  const int64_t n = x.dim(0), c = x.dim(1), targets = ctx.attr_int("targets", 1);
  const std::vector<float> coef = ctx.attr_floats("coefficients"), intercepts = ctx.attr_floats("intercepts");
  if (targets < 1) ctx.fail("targets must be positive");
  if (static_cast<int64_t>(coef.size()) != targets * c)
    ctx.fail("coefficients has " + std::to_string(coef.size()) + " entries, not targets * C = " + std::to_string(targets * c));
  if (!intercepts.empty() && static_cast<int64_t>(intercepts.size()) != targets)
    ctx.fail("intercepts must have one entry per target");
  const PostTransform post = post_transform_named(ctx, ctx.attr_string("post_transform", "NONE"));
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
    post_transform_row(post, row);
    out.insert(out.end(), row.begin(), row.end());
  }
  return one(float_tensor(ctx, DType::Float, {n, targets}, out));
}

void linear_regressor_shape(InferContext& ctx) {
  require_rank(ctx, 0, 2, "X");
  const Dims* x = ctx.input_shape(0);
  std::optional<Dims> out;
  if (x) out = Dims{(*x)[0], known_dim(ctx.attr_int("targets", 1))};
  ctx.set_output(0, DType::Float, out);
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "LinearRegressor", 1, linear_regressor, Accuracy::Rounding);
SONNX_SHAPE_RULE("ai.onnx.ml", "LinearRegressor", (1), linear_regressor_shape);
}  // namespace sonnx
