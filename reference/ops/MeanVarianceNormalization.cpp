// MeanVarianceNormalization: (X - E[X]) / sqrt(E[(X - E[X])^2]) with the expectations taken over
// `axes` (default [0, 2, 3]). The schema's function body adds 1e-9 to the standard deviation before
// dividing (Y = (X - mean) / (sqrt(variance) + 1e-9)); this kernel does the same so that a zero
// variance gives 0 rather than 0/0. Version 13 adds bfloat16. Computed in double, rounded once.
#include "op_params.h"
#include "params/normalization.h"
#include "support/shape.h"
#include "support/reduce.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> mvn(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  std::vector<bool> reduced = axis_flags(ctx, MeanVarianceNormParams::read(ctx, ctx.version()).axes, x.rank());
  ReduceGeometry g = reduce_geometry(x.shape(), reduced, true);
  std::vector<double> xv = float_values(ctx, x);
  auto groups = static_cast<size_t>(g.out_size);
  std::vector<double> mean(groups, 0.0), var(groups, 0.0), count(groups, 0.0);
  for (size_t i = 0; i < xv.size(); ++i) {
    auto o = static_cast<size_t>(g.out_index[i]);
    mean[o] += xv[i];
    count[o] += 1;
  }
  for (size_t o = 0; o < groups; ++o) mean[o] /= count[o];
  for (size_t i = 0; i < xv.size(); ++i) {
    auto o = static_cast<size_t>(g.out_index[i]);
    var[o] += (xv[i] - mean[o]) * (xv[i] - mean[o]);
  }
  for (size_t o = 0; o < groups; ++o) var[o] /= count[o];
  // The function body's epsilon is a float constant: 1e-9f.
  const auto epsilon = static_cast<double>(1e-9f);
  std::vector<double> y(xv.size());
  for (size_t i = 0; i < xv.size(); ++i) {
    auto o = static_cast<size_t>(g.out_index[i]);
    y[i] = (xv[i] - mean[o]) / (std::sqrt(var[o]) + epsilon);
  }
  return one(float_tensor(ctx, x.dtype(), x.shape(), y));
}
}  // namespace
SONNX_PARAMS("", "MeanVarianceNormalization", (9, 13), MeanVarianceNormParams);
SONNX_KERNEL("", "MeanVarianceNormalization", 9, mvn, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "MeanVarianceNormalization", (9, 13), same_as_input_rule);
}  // namespace sonnx
