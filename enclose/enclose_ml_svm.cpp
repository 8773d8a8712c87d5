// Enclosures of SVMRegressor-1 and SVMClassifier-1 (ai.onnx.ml). Each kernel value K(x, v) of a row
// and a support vector is its formula on the row's bounds: LINEAR x·v, POLY (γ·x·v + c₀)^d, RBF
// exp(−γ·|x − v|²), SIGMOID tanh(γ·x·v + c₀); a decision value is Σ coefficient·K + ρ. The reference
// computes in double and rounds once to float. Real: the exact formula (dot.h for the sums,
// elementary.h for the functions). Admissible: X converted to float or kept wider (ml_features);
// each sum in any order in float or wider, γ_(n+9)·Σ|terms| (dot.h, TypeSum: γ, c₀ and ρ among the
// spare roundings); each difference x − v, each sum's result and each function's argument stored in
// float or wider (rounded outward to float); pow, exp and tanh within kElementaryUlps of their exact
// value on the argument held. A vote, one_class's sign and a label are kept where the bounds decide
// them, else Undetermined. SVMClassifier's probabilities (prob_a, prob_b): Platt's sigmoid
// 1/(1 + exp(a·d + b)) of each pair's d, monotone in d (admissibly a·d, the sum, 1 + e and the
// quotient each held in float or wider, exp within kElementaryUlps), clamped by libsvm's floor
// (admissibly also its float value), then the coupling's enclosure (ml_svm_coupling.h). Integer X
// is enclosed here too.
#include <optional>
#include <set>

#include "dot.h"
#include "elementary.h"
#include "enclose_sums.h"
#include "ml_common.h"
#include "ml_svm_coupling.h"
#include "reference/ops/params/svm.h"
#include "reference/ops/support/ml_predictor.h"
#include "sonnx/errors.h"

namespace sonnx::enclose {

namespace {

// A value an implementation holds in float or wider: rounded outward to float under the admissible
// semantics (`type`), as it is under the real one.
Interval svm_held(Interval v, const FloatFormat* type) { return type && !v.has_nan() ? type->round_out(v) : v; }

// f's exact value on the argument's enclosure, and under the admissible semantics every float
// within kElementaryUlps of it.
Interval svm_function(Interval exact, const FloatFormat* type) {
  return type && !exact.has_nan() ? widen_ulps(exact, kElementaryUlps, *type) : exact;
}

// K(x, v) for the row x and the support vector v, of `cols` entries each.
Interval svm_kernel_value(const support::SvmKernel& k, const Interval* x, const float* v, int64_t cols, TypeSum ts,
                          const FloatFormat* type) {
  using support::SvmKernelType;
  DotBound d;
  if (k.type == SvmKernelType::Rbf) {
    for (int64_t i = 0; i < cols; ++i) {
      const MidRad diff = MidRad::of(svm_held(x[i] - Interval::point(v[i]), type));
      d.add(diff, diff);
    }
    return svm_function(exp(svm_held(d.affine(-k.gamma, {}, ts), type)), type);
  }
  for (int64_t i = 0; i < cols; ++i) d.add(MidRad::of(x[i]), MidRad{v[i], 0});
  switch (k.type) {
    case SvmKernelType::Poly:
      return svm_function(pow(svm_held(d.affine(k.gamma, {k.coef0, 0}, ts), type), Interval::point(k.degree)), type);
    case SvmKernelType::Sigmoid: return svm_function(tanh(svm_held(d.affine(k.gamma, {k.coef0, 0}, ts), type)), type);
    default: return svm_held(d.result(1, ts), type);
  }
}

// What both operators start from: the reference's checks, X as intervals, and the sums' allowance.
struct SvmRows {
  std::vector<Interval> x;
  int64_t n = 0, cols = 0;
  TypeSum ts;
  std::optional<FloatFormat> type;  // float, under the admissible semantics
  const FloatFormat* held() const { return type ? &*type : nullptr; }
};

SvmRows svm_rows(const OpCall& c) {
  ml_reference_checks(c, {DType::Float, DType::Double});
  const Bounds& x = c.input(0);
  SvmRows rows;
  rows.n = x.lo.rank() == 1 ? 1 : x.lo.dim(0);  // [N, C] or [C]: checked by the reference
  rows.cols = x.lo.dim(x.lo.rank() - 1);
  rows.x = ml_features(c, x);
  rows.ts = type_sum(c, DType::Float);
  if (c.semantics == Semantics::Admissible) rows.type = float_format(DType::Float);
  return rows;
}

// Σ coefficients[k]·values[k] + rho, in any order.
Interval svm_decision(const std::vector<Interval>& values, const float* coefficients, double rho, TypeSum ts) {
  DotBound d;
  for (size_t k = 0; k < values.size(); ++k) d.add(MidRad::of(values[k]), MidRad{coefficients[k], 0});
  return d.affine(1, {rho, 0}, ts);
}

std::vector<Bounds> svm_ml_regressor(const OpCall& c) {
  const SvmRows rows = svm_rows(c);
  const SVMRegressorParams p = SVMRegressorParams::read(c.ctx, c.version);
  Bounds y = float_bounds(DType::Float, {rows.n, 1});
  for (int64_t r = 0; r < rows.n; ++r) {
    const Interval* row = rows.x.data() + r * rows.cols;
    Interval v;
    if (p.n_supports == 0) {  // the linear form x . coefficients + rho
      v = svm_decision(std::vector<Interval>(row, row + rows.cols), p.coefficients.data(), p.rho, rows.ts);
    } else {
      std::vector<Interval> k(static_cast<size_t>(p.n_supports));
      for (int64_t j = 0; j < p.n_supports; ++j)
        k[static_cast<size_t>(j)] = svm_kernel_value(p.kernel, row, p.support_vectors.data() + j * rows.cols, rows.cols, rows.ts,
                                                     rows.held());
      v = svm_decision(k, p.coefficients.data(), p.rho, rows.ts);
    }
    if (p.one_class) v = Interval::point(ml_decided_positive(c, v, r, "one_class's sign") ? 1.0 : -1.0);
    set(y, r, v);
    ml_post_transform(c, p.post_transform, y, r, 1);
  }
  return {y};
}

// The class with the most votes (the lowest index on a tie), where every outcome of the votes the
// bounds leave open gives the same class; else Undetermined. `d` holds each pair's decision value
// (pairs (0,1), (0,2), ..., (1,2), ...: d > 0 votes for the first class).
int64_t svm_decided_vote(const OpCall& c, const std::vector<Interval>& d, int64_t classes, int64_t row) {
  constexpr size_t kMaxOpenPairs = 16;  // 2^16 outcomes to try at most
  std::vector<int64_t> votes(static_cast<size_t>(classes), 0);
  std::vector<std::pair<int64_t, int64_t>> open;
  size_t pair = 0;
  for (int64_t i = 0; i < classes; ++i)
    for (int64_t j = i + 1; j < classes; ++j, ++pair) {
      const Interval v = d[pair];
      if (!v.has_nan() && v.lo > 0) ++votes[static_cast<size_t>(i)];
      else if (!v.has_nan() && v.hi <= 0) ++votes[static_cast<size_t>(j)];
      else open.push_back({i, j});
    }
  std::set<int64_t> winners;
  if (open.size() <= kMaxOpenPairs)
    for (uint64_t outcome = 0; outcome < (uint64_t{1} << open.size()) && winners.size() < 2; ++outcome) {
      std::vector<int64_t> v = votes;
      for (size_t k = 0; k < open.size(); ++k) ++v[static_cast<size_t>((outcome >> k) & 1 ? open[k].first : open[k].second)];
      winners.insert(support::ml_first_max(v));
    }
  if (winners.size() == 1) return *winners.begin();
  throw Undetermined(c.node.label() + ": the enclosures do not decide the label of row " + std::to_string(row) +
                     " at this input: " + std::to_string(open.size()) + " pairs' votes are open and change the winner");
}

// clamp(x, floor, ceiling) at the bounds, for every floor and ceiling in the given ranges: the
// clamp is nondecreasing in all three.
Interval svm_clamped(Interval x, Interval floor, Interval ceiling) {
  if (x.has_nan()) return x;
  return {std::min(std::max(x.lo, floor.lo), ceiling.lo), std::min(std::max(x.hi, floor.hi), ceiling.hi)};
}

// Each pair's Platt probability, and the coupling of them into one probability per class.
std::vector<Interval> svm_class_probabilities(const OpCall& c, const SVMClassifierParams& p, const std::vector<Interval>& d,
                                              const FloatFormat* type, int64_t row) {
  const int64_t classes = p.classes();
  const auto n = static_cast<size_t>(classes);
  const double floor = support::kSvmPairProbabilityFloor;
  Interval floors = Interval::point(floor), ceilings = Interval::point(1 - floor);
  if (type) {  // a float implementation clamps at the float constants
    floors = hull(floors, Interval::point(static_cast<float>(floor)));
    ceilings = hull(ceilings, Interval::point(1 - static_cast<float>(floor)));
  }
  const Interval one = Interval::point(1);
  std::vector<Interval> r(n * n, Interval::point(0));
  size_t pair = 0;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j, ++pair) {
      const Interval ad = svm_held(Interval::point(p.prob_a[pair]) * d[pair], type);
      const Interval e = svm_function(exp(svm_held(ad + Interval::point(p.prob_b[pair]), type)), type);
      const Interval q = svm_clamped(svm_held(one / svm_held(one + e, type), type), floors, ceilings);
      r[i * n + j] = q;
      r[j * n + i] = svm_held(one - q, type);
    }
  std::string why;
  std::vector<Interval> probabilities = svm_coupling_enclosure(r, classes, {type}, why);
  if (probabilities.empty())
    throw Undetermined(c.node.label() + ": row " + std::to_string(row) + "'s class probabilities: " + why);
  return probabilities;
}

std::vector<Bounds> svm_ml_classifier(const OpCall& c) {
  const SvmRows rows = svm_rows(c);
  const SVMClassifierParams p = SVMClassifierParams::read(c.ctx, c.version);
  const int64_t classes = p.classes(), columns = p.score_columns();
  const bool wants_label = ml_wants_output(c, 0);
  Bounds z = float_bounds(DType::Float, {rows.n, columns});
  std::vector<int64_t> picks;
  for (int64_t r = 0; r < rows.n; ++r) {
    const Interval* row = rows.x.data() + r * rows.cols;
    std::vector<Interval> scores;
    if (p.support_form()) {
      std::vector<Interval> k(static_cast<size_t>(p.vectors));
      for (int64_t v = 0; v < p.vectors; ++v)
        k[static_cast<size_t>(v)] = svm_kernel_value(p.kernel, row, p.support_vectors.data() + v * rows.cols, rows.cols, rows.ts,
                                                     rows.held());
      // Pair (i, j): class i's vectors weighted by coefficient row j - 1, class j's by row i, + rho.
      for (int64_t i = 0; i < classes; ++i)
        for (int64_t j = i + 1; j < classes; ++j) {
          std::vector<Interval> values;
          std::vector<float> weights;
          for (auto [cls, coef_row] : {std::pair{i, j - 1}, std::pair{j, i}}) {
            const int64_t first = p.first_vector[static_cast<size_t>(cls)];
            for (int64_t v = first; v < first + p.vectors_per_class[static_cast<size_t>(cls)]; ++v) {
              values.push_back(k[static_cast<size_t>(v)]);
              weights.push_back(p.coefficients[static_cast<size_t>(coef_row * p.vectors + v)]);
            }
          }
          scores.push_back(svm_decision(values, weights.data(), p.rho[scores.size()], rows.ts));
        }
      if (wants_label) picks.push_back(svm_decided_vote(c, scores, classes, r));
      if (p.probabilities()) scores = svm_class_probabilities(c, p, scores, rows.held(), r);
      else if (classes == 2) scores = {-scores[0], scores[0]};  // Z is [-d, d] transformed
    } else {  // the linear form: score_k = x . coefficients_k + rho[0], the first largest picked
      const std::vector<Interval> x(row, row + rows.cols);
      for (int64_t k = 0; k < classes; ++k)
        scores.push_back(svm_decision(x, p.coefficients.data() + k * rows.cols, p.rho[0], rows.ts));
      if (wants_label) picks.push_back(ml_decided_first_max(c, scores, r, "its label"));
    }
    for (int64_t k = 0; k < columns; ++k) set(z, r * columns + k, scores[static_cast<size_t>(k)]);
    ml_post_transform(c, p.post_transform, z, r * columns, columns);
  }
  if (!wants_label) picks.assign(static_cast<size_t>(rows.n), 0);  // not an output: not decided
  return {Bounds::of(p.labels.pick(picks)), z};
}

}  // namespace

// Own: the sums' roundings, the functions' and the post_transform's allowances are bounded here.
SONNX_ML_PREDICTOR_ENCLOSURE("SVMRegressor", (1), Allowance::own(), svm_ml_regressor);
SONNX_ML_PREDICTOR_ENCLOSURE("SVMClassifier", (1), Allowance::own(), svm_ml_classifier);

}  // namespace sonnx::enclose
