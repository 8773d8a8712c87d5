// LRN (local response normalization across channels), X of shape (N x C x D1 ... Dk):
//   square_sum[n,c,d] = sum of X[n,i,d]^2 for max(0, c - floor((size-1)/2)) <= i <= min(C-1, c + ceil((size-1)/2))
//   Y[n,c,d] = X[n,c,d] / (bias + alpha / size * square_sum[n,c,d]) ^ beta
// size is required (≥ 1). Version 13 adds bfloat16. Computed in double, rounded once.
#include "op_params.h"
#include "params/normalization.h"
#include "support/shape.h"
#include "support/reduce.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> lrn(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  LRNParams p = LRNParams::read(ctx, ctx.version());
  int64_t size = p.size;
  if (x.rank() < 2) ctx.fail("input must have shape (N x C x D1 ... Dk)");
  auto alpha = static_cast<double>(p.alpha), beta = static_cast<double>(p.beta), bias = static_cast<double>(p.bias);
  AxisView v = axis_view(x.shape(), 1);  // [N, C, D1*...*Dk]
  int64_t before = (size - 1) / 2;       // floor((size-1)/2)
  int64_t after = size / 2;              // ceil((size-1)/2), size ≥ 1
  std::vector<double> xv = float_values(ctx, x);
  std::vector<double> y(xv.size());
  for (int64_t o = 0; o < v.outer; ++o)
    for (int64_t c = 0; c < v.n; ++c)
      for (int64_t i = 0; i < v.inner; ++i) {
        double square_sum = 0;
        for (int64_t j = std::max<int64_t>(0, c - before); j <= std::min(v.n - 1, c + after); ++j) {
          double e = xv[static_cast<size_t>(v.at(o, j, i))];
          square_sum += e * e;
        }
        auto k = static_cast<size_t>(v.at(o, c, i));
        y[k] = xv[k] / std::pow(bias + alpha / static_cast<double>(size) * square_sum, beta);
      }
  return one(float_tensor(ctx, x.dtype(), x.shape(), y));
}
}  // namespace
SONNX_PARAMS("", "LRN", (1, 13), LRNParams);
SONNX_KERNEL("", "LRN", 1, lrn, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "LRN", (1, 13), same_as_input_rule);
}  // namespace sonnx
