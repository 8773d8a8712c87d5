// Normalizer (ai.onnx.ml 1): each row of X ([N, C]; a [C] vector is one row) divided by the row's
// divisor, as float. The divisor by norm (where the text is silent or self-contradictory, see
// spec/ops/Normalizer.md):
//   MAX: the row's largest value, signed (the text's max(X), as onnxruntime does);
//   L1:  the sum of the absolute values;
//   L2:  the square root of the sum of squares, so each element keeps its sign.
// A zero divisor leaves the row as it is (the text); a NaN divisor (a NaN in the row) makes the
// whole row NaN. Computed in double, rounded once.
#include <algorithm>
#include <cmath>
#include <limits>

#include "op_params.h"
#include "params/ml_scaling.h"
#include "support/kernel.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

constexpr double kNormalizerNaN = std::numeric_limits<double>::quiet_NaN();

// The largest value of the row, NaN when the row holds one (-inf for an empty row: never used).
double normalizer_signed_max(const double* row, int64_t c) {
  double m = -std::numeric_limits<double>::infinity();
  for (int64_t k = 0; k < c; ++k) {
    if (std::isnan(row[k])) return kNormalizerNaN;
    m = std::max(m, row[k]);
  }
  return m;
}

double normalizer_l1(const double* row, int64_t c) {
  double s = 0;
  for (int64_t k = 0; k < c; ++k) s += std::fabs(row[k]);
  return s;
}

// sqrt(sum of squares), scaled by the largest magnitude first so that squaring a double input
// neither overflows nor underflows.
double normalizer_l2(const double* row, int64_t c) {
  double m = 0;
  for (int64_t k = 0; k < c; ++k) {
    if (std::isnan(row[k])) return kNormalizerNaN;
    m = std::max(m, std::fabs(row[k]));
  }
  if (m == 0 || std::isinf(m)) return m;
  double s = 0;
  for (int64_t k = 0; k < c; ++k) s += (row[k] / m) * (row[k] / m);
  return m * std::sqrt(s);
}

double normalizer_divisor(NormalizerNorm norm, const double* row, int64_t c) {
  switch (norm) {
    case NormalizerNorm::Max: return normalizer_signed_max(row, c);
    case NormalizerNorm::L1: return normalizer_l1(row, c);
    case NormalizerNorm::L2: return normalizer_l2(row, c);
  }
  return kNormalizerNaN;
}

bool normalizer_takes(DType t) { return t == DType::Float || t == DType::Double || t == DType::Int64 || t == DType::Int32; }

std::vector<Value> normalizer(OpContext& ctx) {
  const NormalizerParams p = NormalizerParams::read(ctx, ctx.version());
  const Tensor& x = ctx.input(0);
  if (!normalizer_takes(x.dtype()))
    ctx.fail("X must be float, double, int64 or int32, got " + std::string(dtype_name(x.dtype())));
  if (x.rank() != 1 && x.rank() != 2) ctx.fail("X must be [N, C] or [C], got rank " + std::to_string(x.rank()));
  const int64_t c = x.dim(x.rank() - 1);
  const int64_t n = x.rank() == 1 ? 1 : x.dim(0);
  std::vector<double> v = real_values(ctx, x);
  for (int64_t r = 0; r < n; ++r) {
    double* row = v.data() + r * c;
    const double d = normalizer_divisor(p.norm, row, c);
    if (d == 0) continue;                                 // Y == X
    for (int64_t k = 0; k < c; ++k) row[k] = row[k] / d;  // a NaN divisor makes the row NaN
  }
  return one(float_tensor(ctx, DType::Float, x.shape(), v));
}

void normalizer_shape(InferContext& ctx) {
  (void)NormalizerParams::read(ctx, ctx.version());
  const DType t = ctx.input_elem(0);
  if (t != DType::Undefined && !normalizer_takes(t))
    ctx.fail("X must be float, double, int64 or int32, got " + std::string(dtype_name(t)));
  const Dims* x = ctx.input_shape(0);
  if (x && x->size() != 1 && x->size() != 2) ctx.fail("X must be [N, C] or [C], got rank " + std::to_string(x->size()));
  ctx.set_output(0, DType::Float, x ? std::optional<Dims>(*x) : std::nullopt);
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "Normalizer", 1, normalizer, Accuracy::Rounding);
SONNX_SHAPE_RULE("ai.onnx.ml", "Normalizer", (1), normalizer_shape);
SONNX_PARAMS("ai.onnx.ml", "Normalizer", (1), NormalizerParams);
}  // namespace sonnx
