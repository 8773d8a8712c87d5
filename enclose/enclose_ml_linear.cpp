// Enclosures of the ai.onnx.ml linear predictors LinearRegressor-1 and LinearClassifier-1: each
// score is a dot product of a row of X with a row of coefficients plus an intercept, which the
// reference computes in double and rounds once to float. Real: the exact sum (dot.h). Admissible:
// X converted to float or kept wider (ml_features), the sum in any order in float or wider,
// γ_(n+9)·Σ|terms| with the intercept a term (dot.h, TypeSum); then the post_transform
// (ml_post_transform: NONE, LOGISTIC, SOFTMAX, SOFTMAX_ZERO, PROBIT). A label is
// the one the scores decide (the first largest, or for one binary row the sign of its score), else
// Undetermined. Integer X is enclosed here too (its scores are reals the reference rounds).
#include "dot.h"
#include "enclose_sums.h"
#include "ml_common.h"
#include "reference/ops/params/ml_linear.h"
#include "sonnx/errors.h"

namespace sonnx::enclose {

namespace {

// Σ_j x[row·cols + j]·coef[k·cols + j] + intercept.
Interval linear_ml_score(const std::vector<Interval>& x, int64_t row, int64_t cols, const std::vector<float>& coef, int64_t k,
                         double intercept, TypeSum ts) {
  DotBound d;
  for (int64_t j = 0; j < cols; ++j)
    d.add(MidRad::of(x[static_cast<size_t>(row * cols + j)]), MidRad{coef[static_cast<size_t>(k * cols + j)], 0});
  return d.affine(1, MidRad{intercept, 0}, ts);
}

std::vector<Bounds> linear_ml_regressor(const OpCall& c) {
  ml_reference_checks(c, {DType::Float, DType::Double, DType::Float16, DType::BFloat16});
  const LinearRegressorParams p = LinearRegressorParams::read(c.ctx, c.version);
  const Bounds& x = c.input(0);
  const int64_t n = x.lo.dim(0), cols = x.lo.dim(1), targets = p.targets;  // [N, C]: checked by the reference
  const std::vector<Interval> features = ml_features(c, x);
  const TypeSum ts = type_sum(c, DType::Float);
  Bounds y = float_bounds(DType::Float, {n, targets});
  for (int64_t r = 0; r < n; ++r) {
    for (int64_t t = 0; t < targets; ++t) {
      const double intercept = p.intercepts.empty() ? 0.0 : p.intercepts[static_cast<size_t>(t)];
      set(y, r * targets + t, linear_ml_score(features, r, cols, p.coefficients, t, intercept, ts));
    }
    ml_post_transform(c, p.post_transform, y, r * targets, targets);
  }
  return {y};
}

std::vector<Bounds> linear_ml_classifier(const OpCall& c) {
  ml_reference_checks(c, {DType::Float, DType::Double});
  const LinearClassifierParams p = LinearClassifierParams::read(c.ctx, c.version);
  const Bounds& x = c.input(0);
  const int64_t n = x.lo.rank() == 1 ? 1 : x.lo.dim(0), cols = x.lo.dim(x.lo.rank() - 1);  // checked by the reference
  std::string why;
  const int64_t rows = p.rows(cols, why), classes = p.labels.size();
  if (rows < 0) throw Trap(c.node.label() + ": " + why);
  const std::vector<Interval> features = ml_features(c, x);
  const TypeSum ts = type_sum(c, DType::Float);
  const bool wants_label = ml_wants_output(c, 0);
  Bounds z = float_bounds(DType::Float, {n, classes});
  std::vector<int64_t> picks;
  for (int64_t r = 0; r < n; ++r) {
    std::vector<Interval> scores(static_cast<size_t>(rows));
    for (int64_t k = 0; k < rows; ++k) {
      const double intercept = p.intercepts.empty() ? 0.0 : p.intercepts[static_cast<size_t>(k)];
      scores[static_cast<size_t>(k)] = linear_ml_score(features, r, cols, p.coefficients, k, intercept, ts);
    }
    if (rows == 1) {  // one binary row: the second label where s > 0; Z is [-s, s] transformed
      if (wants_label) picks.push_back(ml_decided_positive(c, scores[0], r, "its label"));
      set(z, r * 2, -scores[0]);
      set(z, r * 2 + 1, scores[0]);
    } else {  // the first largest score, before the post_transform (as the reference picks it)
      if (wants_label) picks.push_back(ml_decided_first_max(c, scores, r, "its label"));
      for (int64_t k = 0; k < rows; ++k) set(z, r * classes + k, scores[static_cast<size_t>(k)]);
    }
    ml_post_transform(c, p.post_transform, z, r * classes, classes);
  }
  if (!wants_label) picks.assign(static_cast<size_t>(n), 0);  // not an output: not decided
  return {Bounds::of(p.labels.pick(picks)), z};
}

}  // namespace

// Own: the sums' roundings and the post_transform's allowance are bounded here.
SONNX_ML_PREDICTOR_ENCLOSURE("LinearRegressor", (1), Allowance::own(), linear_ml_regressor);
SONNX_ML_PREDICTOR_ENCLOSURE("LinearClassifier", (1), Allowance::own(), linear_ml_classifier);

}  // namespace sonnx::enclose
