#include "ml_common.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "elementary.h"
#include "sonnx/errors.h"

namespace sonnx::enclose {

std::string ml_interval_str(Interval v) {
  char s[64];
  std::snprintf(s, sizeof s, "[%.17g, %.17g]", v.lo, v.hi);
  return s;
}

Interval ml_element(const Bounds& x, int64_t i) {
  if (!x.exact()) return at(x, i);
  const double d = x.lo.as_double(i);
  if (std::fabs(d) < 0x1p53) return Interval::point(d);  // an integer below 2^53 is a double exactly
  return {down(d), up(d)};                               // within half a double ulp of the integer
}

std::vector<Interval> ml_features(const OpCall& c, const Bounds& x) {
  std::vector<Interval> v(static_cast<size_t>(x.lo.size()));
  const FloatFormat f = float_format(DType::Float);
  for (int64_t i = 0; i < x.lo.size(); ++i) {
    Interval e = ml_element(x, i);
    v[static_cast<size_t>(i)] = c.semantics == Semantics::Admissible && !e.has_nan() ? f.round_out(e) : e;
  }
  return v;
}

void ml_reference_checks(const OpCall& c, std::initializer_list<DType> float_types) {
  for (const Bounds* b : c.in)
    if (b && !b->exact() && std::find(float_types.begin(), float_types.end(), b->type) == float_types.end())
      throw Trap(c.node.label() + ": an input has element type " + std::string(dtype_name(b->type)) +
                 ", which it does not take");
  (void)run_on_bounds(c, false);
}

namespace {
// SOFTMAX_ZERO on the row at y[base, base + count): a softmax over the scores that are not zero,
// the zero scores staying 0, and a row of zeros 0.5 everywhere (the reference's rule, spec/ops).
// Which scores are zero must be certain: a score whose bounds hold 0 and other values leaves the
// set open, and so every share of the row (Undetermined).
void ml_softmax_zero(const OpCall& c, Bounds& y, int64_t base, int64_t count, const FloatFormat* type) {
  std::vector<int64_t> nonzero;
  for (int64_t k = base; k < base + count; ++k) {
    const Interval v = at(y, k);
    if (v.has_nan()) {  // an undefined score: the row is undefined
      for (int64_t j = base; j < base + count; ++j) set(y, j, Interval::undefined());
      return;
    }
    if (v.lo == 0 && v.hi == 0) continue;
    if (v.lo <= 0 && v.hi >= 0)
      throw Undetermined(c.node.label() + ": the enclosures do not decide whether score " + std::to_string(k - base) +
                         " is zero at this input (" + ml_interval_str(v) + "), which SOFTMAX_ZERO leaves out of the softmax");
    nonzero.push_back(k);
  }
  if (nonzero.empty()) {
    for (int64_t k = base; k < base + count; ++k) set(y, k, Interval::point(0.5));
    return;
  }
  Bounds scores = float_bounds(y.type, {static_cast<int64_t>(nonzero.size())}), shares = scores;
  for (size_t i = 0; i < nonzero.size(); ++i) set(scores, static_cast<int64_t>(i), at(y, nonzero[i]));
  softmax_line(scores, shares, 0, static_cast<int64_t>(nonzero.size()), 1, type);
  for (int64_t k = base; k < base + count; ++k) set(y, k, Interval::point(0));
  for (size_t i = 0; i < nonzero.size(); ++i) set(y, nonzero[i], at(shares, static_cast<int64_t>(i)));
}
}  // namespace

void ml_post_transform(const OpCall& c, support::PostTransform t, Bounds& y, int64_t base, int64_t count) {
  using support::PostTransform;
  std::optional<FloatFormat> type;
  if (c.semantics == Semantics::Admissible) type = float_format(y.type);
  switch (t) {
    case PostTransform::None: return;
    case PostTransform::Logistic:
      // Increasing: the exact logistic of the score's enclosure, then an implementation's within
      // kElementaryUlps of the logistic of the score it holds.
      for (int64_t k = base; k < base + count; ++k) {
        Interval v = sigmoid(at(y, k));
        set(y, k, type && !v.has_nan() ? widen_ulps(v, kElementaryUlps, *type) : v);
      }
      return;
    case PostTransform::Softmax: {  // the row's scores apart, as softmax_line reads them all while it writes
      Bounds scores = float_bounds(y.type, {count}), shares = scores;
      for (int64_t k = 0; k < count; ++k) set(scores, k, at(y, base + k));
      softmax_line(scores, shares, 0, count, 1, type ? &*type : nullptr);
      for (int64_t k = 0; k < count; ++k) set(y, base + k, at(shares, k));
      return;
    }
    case PostTransform::SoftmaxZero: return ml_softmax_zero(c, y, base, count, type ? &*type : nullptr);
    case PostTransform::Probit:
      // Increasing, as LOGISTIC: the exact quantile of the score's enclosure, then within
      // kElementaryUlps of an implementation's quantile of the score it holds.
      for (int64_t k = base; k < base + count; ++k) {
        Interval v = probit(at(y, k));
        set(y, k, type && !v.has_nan() ? widen_ulps(v, kElementaryUlps, *type) : v);
      }
      return;
  }
}

int64_t ml_decided_first_max(const OpCall& c, const std::vector<Interval>& scores, int64_t row, const std::string& what) {
  const auto n = static_cast<int64_t>(scores.size());
  for (int64_t k = 0; k < n; ++k) {
    const Interval s = scores[static_cast<size_t>(k)];
    bool first_max = !s.has_nan();
    for (int64_t j = 0; j < n && first_max; ++j) {
      const Interval o = scores[static_cast<size_t>(j)];
      if (j != k) first_max = !o.has_nan() && (j < k ? s.lo > o.hi : s.lo >= o.hi);  // an earlier tie wins
    }
    if (first_max) return k;
  }
  std::string all;
  for (const Interval& s : scores) all += (all.empty() ? "" : ", ") + ml_interval_str(s);
  throw Undetermined(c.node.label() + ": the enclosures do not decide " + what + " of row " + std::to_string(row) +
                     " at this input: the largest of the scores " + all + " is open");
}

int64_t ml_decided_positive(const OpCall& c, Interval s, int64_t row, const std::string& what) {
  if (!s.has_nan() && s.lo > 0) return 1;
  if (!s.has_nan() && s.hi <= 0) return 0;
  throw Undetermined(
      c.node.label() + ": the enclosures do not decide " + what + " of row " + std::to_string(row) + " at this input: " +
      (s.has_nan() ? std::string("it is undefined") : "its enclosure " + ml_interval_str(s) + " lies on both sides of 0"));
}

Interval ml_widen_relative(Interval v, double rho, double tiny) {
  if (v.has_nan()) return v;
  if (std::isfinite(v.lo)) v.lo = down(down(v.lo - up(std::fabs(v.lo) * rho)) - tiny);
  if (std::isfinite(v.hi)) v.hi = up(up(v.hi + up(std::fabs(v.hi) * rho)) + tiny);
  return v;
}

}  // namespace sonnx::enclose
