// What the ai.onnx.ml linear and SVM predictors (LinearClassifier, SVMRegressor, SVMClassifier)
// share around their arithmetic: X as [N, C] or [C] (one row) of float, double, int32 or int64,
// the same in shape rules, the class a row picks, and a single score widened to two columns.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernel.h"
#include "post_transform.h"
#include "shape.h"

namespace sonnx::support {

// X's rows and columns: [N, C] as is, [C] as one row.
struct MlBatch {
  int64_t n = 0, c = 0;
};

inline MlBatch ml_batch(const OpContext& ctx, const Tensor& x) {
  const DType t = x.dtype();
  if (t != DType::Float && t != DType::Double && t != DType::Int32 && t != DType::Int64)
    ctx.fail("X must be float, double, int32 or int64, got " + std::string(dtype_name(t)));
  if (x.rank() == 1) return {1, x.dim(0)};
  if (x.rank() != 2) ctx.fail("X must be [N, C] or [C]");
  return {x.dim(0), x.dim(1)};
}

// The shape-rule side of ml_batch: N and C as far as known (nullopt: X's rank unknown).
struct MlBatchDims {
  Dim n, c;
};

inline std::optional<MlBatchDims> ml_batch_dims(const InferContext& ctx) {
  const Dims* x = ctx.input_shape(0);
  if (!x) return std::nullopt;
  if (x->size() == 1) return MlBatchDims{known_dim(1), (*x)[0]};
  if (x->size() != 2) ctx.fail("X must be [N, C] or [C]");
  return MlBatchDims{(*x)[0], (*x)[1]};
}

// The index of the first largest entry (a NaN never replaces the current best; row non-empty).
template <class T>
int64_t ml_first_max(const std::vector<T>& row) {
  size_t best = 0;
  for (size_t k = 1; k < row.size(); ++k)
    if (row[k] > row[best]) best = k;
  return static_cast<int64_t>(best);
}

// A binary classifier's one score s as two class columns: [-s, s], then the post_transform over
// the pair (so LOGISTIC gives [1 - p, p] and the larger column is the class s picks).
inline std::vector<double> ml_score_pair(double s, PostTransform t) {
  std::vector<double> row{-s, s};
  post_transform_row(t, row);
  return row;
}

}  // namespace sonnx::support
