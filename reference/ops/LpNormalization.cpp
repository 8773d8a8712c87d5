// LpNormalization: x / ||x||_p along `axis` (default -1), p = 1 (sum of |x|) or 2 (sqrt of the
// sum of squares); other p trap. A zero norm (a line of zeros) gives zeros: "the output is defined
// to be zero to avoid division by zero" (both versions' text). Computed in double, rounded once to
// the element type.
#include "op_params.h"
#include "params/normalization.h"
#include "support/shape.h"
#include "support/reduce.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> lp_normalization(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  LpNormParams params = LpNormParams::read(ctx, ctx.version());
  int64_t p = params.p;
  int64_t axis = normalize_axis(ctx, params.axis, x.rank());
  AxisView v = axis_view(x.shape(), axis);
  std::vector<double> xv = float_values(ctx, x);
  std::vector<double> y(xv.size());
  for (int64_t o = 0; o < v.outer; ++o)
    for (int64_t i = 0; i < v.inner; ++i) {
      double norm = 0;
      for (int64_t k = 0; k < v.n; ++k) {
        double e = xv[static_cast<size_t>(v.at(o, k, i))];
        norm += p == 1 ? std::fabs(e) : e * e;
      }
      if (p == 2) norm = std::sqrt(norm);
      for (int64_t k = 0; k < v.n; ++k) {
        auto j = static_cast<size_t>(v.at(o, k, i));
        y[j] = norm == 0 ? 0.0 : xv[j] / norm;
      }
    }
  return one(float_tensor(ctx, x.dtype(), x.shape(), y));
}
}  // namespace
SONNX_PARAMS("", "LpNormalization", (1, 22), LpNormParams);
SONNX_KERNEL("", "LpNormalization", 1, lp_normalization, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "LpNormalization", 22, lp_normalization, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "LpNormalization", (1, 22), same_as_input_rule);
}  // namespace sonnx
