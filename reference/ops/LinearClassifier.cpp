// LinearClassifier (ai.onnx.ml 1): X [N, C] or [C] (float, double, int32, int64) -> Y [N] labels
// (int64 or string) and Z [N, L] float, L the number of class labels. E rows of C coefficients
// (row-major) and E intercepts (absent: 0) give score_e = x . coefficients_e + intercepts[e].
//   E = L: Y is the class of the first largest score; Z the scores after post_transform.
//   E = 1, L = 2 (one binary row): Y is the second label when the score s > 0, else the first; Z
//   is [-s, s] after post_transform (support/ml_predictor.h).
// multi_class (0 one-vs-rest, 1 multinomial) changes nothing here: the model's post_transform
// already says how scores become probabilities. Decisions: spec/ops/LinearClassifier.md.
// Computed in double, rounded once.
#include "op_params.h"
#include "params/ml_linear.h"
#include "support/post_transform.h"
#include "support/kernel.h"
#include "support/ml_predictor.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> linear_classifier(OpContext& ctx) {
  const LinearClassifierParams p = LinearClassifierParams::read(ctx, ctx.version());
  const Tensor& x = ctx.input(0);
  const MlBatch b = ml_batch(ctx, x);
  std::string why;
  const int64_t e = p.rows(b.c, why);
  if (e < 0) ctx.fail(why);
  const int64_t l = p.labels.size();
  const std::vector<double> in = real_values(ctx, x);
  std::vector<double> z;
  z.reserve(static_cast<size_t>(b.n * l));
  std::vector<int64_t> picks;
  for (int64_t r = 0; r < b.n; ++r) {
    std::vector<double> scores(static_cast<size_t>(e));
    for (int64_t k = 0; k < e; ++k) {
      double s = p.intercepts.empty() ? 0.0 : p.intercepts[static_cast<size_t>(k)];
      for (int64_t j = 0; j < b.c; ++j)
        s += in[static_cast<size_t>(r * b.c + j)] * p.coefficients[static_cast<size_t>(k * b.c + j)];
      scores[static_cast<size_t>(k)] = s;
    }
    if (e == 1 && l == 2) {
      picks.push_back(scores[0] > 0 ? 1 : 0);
      scores = ml_score_pair(scores[0], p.post_transform);
    } else {
      picks.push_back(ml_first_max(scores));
      post_transform_row(p.post_transform, scores);
    }
    z.insert(z.end(), scores.begin(), scores.end());
  }
  std::vector<Value> out;
  out.emplace_back(p.labels.pick(picks));
  out.emplace_back(float_tensor(ctx, DType::Float, {b.n, l}, z));
  return out;
}

void linear_classifier_shape(InferContext& ctx) {
  const LinearClassifierParams p = LinearClassifierParams::read(ctx, ctx.version());
  const std::optional<MlBatchDims> b = ml_batch_dims(ctx);
  std::string why;
  if (b && b->c.value && p.rows(*b->c.value, why) < 0) ctx.fail(why);
  std::optional<Dims> y, z;
  if (b) {
    y = Dims{b->n};
    z = Dims{b->n, known_dim(p.labels.size())};
  }
  ctx.set_output(0, p.labels.dtype(), y);
  ctx.set_output(1, DType::Float, z);
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "LinearClassifier", 1, linear_classifier, Accuracy::Rounding);
SONNX_SHAPE_RULE("ai.onnx.ml", "LinearClassifier", (1), linear_classifier_shape);
SONNX_PARAMS("ai.onnx.ml", "LinearClassifier", (1), LinearClassifierParams);
}  // namespace sonnx
