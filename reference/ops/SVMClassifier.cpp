// SVMClassifier (ai.onnx.ml 1): X [N, C] or [C] (float, double, int32, int64) -> Y [N] labels
// (int64 or string) and Z [N, columns] float. Layouts and decisions: params/svm.h,
// spec/ops/SVMClassifier.md.
//   Support-vector form: one decision value d per pair of classes i < j (libsvm's one-vs-one),
//   d > 0 votes for i, else for j; Y is the class with most votes (the lowest index on a tie).
//   Z: without prob_a, the pair values (two classes: [-d, d]); with prob_a/prob_b, Platt's
//   sigmoid of each d and the pairwise coupling into one probability per class. Then
//   post_transform per row.
//   Linear form: score_k = x . coefficients_k + rho[0] per class; Y the first largest score; Z the
//   scores after post_transform.
// Computed in double, rounded once.
#include <algorithm>

#include "op_params.h"
#include "params/svm.h"
#include "support/kernel.h"
#include "support/ml_predictor.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

// The pair decision values of one row (support-vector form), in pair order.
std::vector<double> svm_pair_decisions(const SVMClassifierParams& p, const double* row, int64_t c) {
  const int64_t l = p.classes();
  std::vector<double> k(static_cast<size_t>(p.vectors));
  for (int64_t v = 0; v < p.vectors; ++v) k[static_cast<size_t>(v)] = p.kernel.apply(row, p.support_vectors.data() + v * c, c);
  std::vector<double> d;
  d.reserve(static_cast<size_t>(p.pairs()));
  auto part = [&](int64_t coef_row, int64_t cls) {
    double s = 0;
    const int64_t first = p.first_vector[static_cast<size_t>(cls)];
    for (int64_t v = first; v < first + p.vectors_per_class[static_cast<size_t>(cls)]; ++v)
      s += static_cast<double>(p.coefficients[static_cast<size_t>(coef_row * p.vectors + v)]) * k[static_cast<size_t>(v)];
    return s;
  };
  for (int64_t i = 0; i < l; ++i)
    for (int64_t j = i + 1; j < l; ++j) d.push_back(part(j - 1, i) + part(i, j) + static_cast<double>(p.rho[d.size()]));
  return d;
}

// One probability per class from the pair decision values (Platt, then coupling).
std::vector<double> svm_class_probabilities(const SVMClassifierParams& p, const std::vector<double>& d) {
  const int64_t l = p.classes();
  std::vector<double> r(static_cast<size_t>(l * l), 0.0);
  size_t pair = 0;
  for (int64_t i = 0; i < l; ++i)
    for (int64_t j = i + 1; j < l; ++j, ++pair) {
      double q = svm_platt(d[pair], p.prob_a[pair], p.prob_b[pair]);
      q = std::clamp(q, kSvmPairProbabilityFloor, 1 - kSvmPairProbabilityFloor);
      r[static_cast<size_t>(i * l + j)] = q;
      r[static_cast<size_t>(j * l + i)] = 1 - q;
    }
  return svm_couple(r, l);
}

std::vector<Value> svm_classifier(OpContext& ctx) {
  const SVMClassifierParams p = SVMClassifierParams::read(ctx, ctx.version());
  const Tensor& x = ctx.input(0);
  const MlBatch b = ml_batch(ctx, x);
  if (b.c != p.features()) ctx.fail("X has " + std::to_string(b.c) + " columns, the model " + std::to_string(p.features()));
  const std::vector<double> in = real_values(ctx, x);
  const int64_t l = p.classes(), columns = p.score_columns();
  std::vector<double> z;
  z.reserve(static_cast<size_t>(b.n * columns));
  std::vector<int64_t> picks;
  const SvmKernel linear{};
  for (int64_t r = 0; r < b.n; ++r) {
    const double* row = in.data() + r * b.c;
    std::vector<double> scores;
    if (p.support_form()) {
      const std::vector<double> d = svm_pair_decisions(p, row, b.c);
      std::vector<int64_t> votes(static_cast<size_t>(l), 0);
      size_t pair = 0;
      for (int64_t i = 0; i < l; ++i)
        for (int64_t j = i + 1; j < l; ++j) ++votes[static_cast<size_t>(d[pair++] > 0 ? i : j)];
      picks.push_back(ml_first_max(votes));
      if (p.probabilities()) {
        scores = svm_class_probabilities(p, d);
        post_transform_row(p.post_transform, scores);
      } else if (l == 2) {
        scores = ml_score_pair(d[0], p.post_transform);
      } else {
        scores = d;
        post_transform_row(p.post_transform, scores);
      }
    } else {
      for (int64_t k = 0; k < l; ++k)
        scores.push_back(linear.apply(row, p.coefficients.data() + k * b.c, b.c) + static_cast<double>(p.rho[0]));
      picks.push_back(ml_first_max(scores));
      post_transform_row(p.post_transform, scores);
    }
    z.insert(z.end(), scores.begin(), scores.end());
  }
  std::vector<Value> out;
  out.emplace_back(p.labels.pick(picks));
  out.emplace_back(float_tensor(ctx, DType::Float, {b.n, columns}, z));
  return out;
}

void svm_classifier_shape(InferContext& ctx) {
  const SVMClassifierParams p = SVMClassifierParams::read(ctx, ctx.version());
  const std::optional<MlBatchDims> b = ml_batch_dims(ctx);
  if (b && b->c.value && *b->c.value != p.features())
    ctx.fail("X has " + std::to_string(*b->c.value) + " columns, the model " + std::to_string(p.features()));
  std::optional<Dims> y, z;
  if (b) {
    y = Dims{b->n};
    z = Dims{b->n, known_dim(p.score_columns())};
  }
  ctx.set_output(0, p.labels.dtype(), y);
  ctx.set_output(1, DType::Float, z);
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "SVMClassifier", 1, svm_classifier, Accuracy::Rounding);
SONNX_SHAPE_RULE("ai.onnx.ml", "SVMClassifier", (1), svm_classifier_shape);
SONNX_PARAMS("ai.onnx.ml", "SVMClassifier", (1), SVMClassifierParams);
}  // namespace sonnx
