// Enclosures of Scaler-1 and Normalizer-1 (ai.onnx.ml), which the reference computes in double and
// rounds once to float. Scaler, (x − offset)·scale: real, interval arithmetic; admissible, X
// converted to float or kept wider (ml_features) and each of the two steps rounded to float or
// wider (rounded outward to float: a rounding to a finer format lands between the float
// neighbours of the exact value). Normalizer divides each row by its largest value (MAX), the sum
// of its absolute values (L1) or the square root of the sum of its squares (L2); a zero divisor
// leaves the row as it is; an undefined element makes the row undefined (the reference's NaN
// divisor). The error bounds are in spec/accuracy.md ("The ai.onnx.ml operators"). Integer X is
// enclosed here too.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "elementary.h"
#include "enclose_sums.h"
#include "ml_common.h"
#include "reference/ops/params/ml_scaling.h"
#include "sonnx/errors.h"

namespace sonnx::enclose {

namespace {

std::vector<Bounds> scaling_ml_scaler(const OpCall& c) {
  ml_reference_checks(c, {DType::Float, DType::Double, DType::Float16, DType::BFloat16});
  const ScalerParams p = ScalerParams::read(c.ctx, c.version);
  const Bounds& x = c.input(0);
  const std::vector<Interval> v = ml_features(c, x);
  std::optional<FloatFormat> type;
  if (c.semantics == Semantics::Admissible) type = float_format(DType::Float);
  auto held = [&](Interval i) { return type && !i.has_nan() ? type->round_out(i) : i; };
  const size_t n = p.offset.size();
  Bounds y = float_bounds(DType::Float, x.lo.shape());
  for (size_t i = 0; i < v.size(); ++i) {
    const size_t f = n == 1 ? 0 : i % n;
    set(y, static_cast<int64_t>(i), held(held(v[i] - Interval::point(p.offset[f])) * Interval::point(p.scale[f])));
  }
  return {y};
}

// ---- Normalizer ----

// |v| over the interval v.
Interval scaling_abs(Interval v) {
  if (v.lo >= 0) return v;
  if (v.hi <= 0) return -v;
  return {0, std::max(-v.lo, v.hi)};
}

// Each element's share of the row's norm from the others: for element k, the interval sum of
// `terms` (|x_j| or x_j²) over j ≠ k, from prefix and suffix sums (each rounded outward), its lower
// bound at least 0.
std::vector<Interval> scaling_others(const std::vector<Interval>& terms) {
  const size_t n = terms.size();
  std::vector<Interval> before(n + 1, Interval::point(0)), after(n + 1, Interval::point(0)), others(n);
  for (size_t k = 0; k < n; ++k) before[k + 1] = before[k] + terms[k];
  for (size_t k = n; k-- > 0;) after[k] = after[k + 1] + terms[k];
  for (size_t k = 0; k < n; ++k) {
    others[k] = before[k] + after[k + 1];
    others[k].lo = std::max(others[k].lo, 0.0);
  }
  return others;
}

// x / (|x| + R) (L1) or x / √(x² + R) (L2) for a point x and a point R ≥ 0, rounded outward; 0 at
// x = 0 (the element's quotient, or the element itself where the whole row is 0).
Interval scaling_share(bool l2, double x, double r) {
  if (x == 0) return Interval::point(0);
  const Interval xi = Interval::point(x);
  return xi / (l2 ? sqrt(xi * xi + Interval::point(r)) : Interval::point(std::fabs(x)) + Interval::point(r));
}

// The range of f(x, R) = x / (|x| + R) or x / √(x² + R) over x in v and R in `others`: f is
// nondecreasing in x, and |f| nonincreasing in R, so the range is [f(v.lo, R at the side that
// makes it least), f(v.hi, R at the side that makes it largest)].
Interval scaling_share_range(bool l2, Interval v, Interval others) {
  const double lo = scaling_share(l2, v.lo, v.lo >= 0 ? others.hi : others.lo).lo;
  const double hi = scaling_share(l2, v.hi, v.hi > 0 ? others.lo : others.hi).hi;
  return std::isnan(lo) || std::isnan(hi) ? Interval::undefined() : Interval{lo, hi};
}

// One row of MAX: x / max(row) where the maximum is decided non-zero (x ≤ max(row), so the share is
// at most 1 for a positive maximum and at least 1 for a negative one); the row itself where the
// maximum is 0; anything where the bounds leave both open (a quotient by a maximum near 0 is
// unbounded).
void scaling_max_row(const std::vector<Interval>& row, std::vector<Interval>& out) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  Interval d{-inf, -inf};
  for (const Interval& v : row) d = {std::max(d.lo, v.lo), std::max(d.hi, v.hi)};
  for (size_t k = 0; k < row.size(); ++k) {
    if (d.lo == 0 && d.hi == 0) {
      out[k] = row[k];
    } else if (d.lo > 0 || d.hi < 0) {
      const Interval q = row[k] / d;
      out[k] = q.has_nan() ? q : d.lo > 0 ? Interval{q.lo, std::min(q.hi, 1.0)} : Interval{std::max(q.lo, 1.0), q.hi};
    } else {
      out[k] = Interval::whole();
    }
  }
}

// The admissible widening of an L2 row (spec/accuracy.md): the sum of squares Q̂ in float errs by
// at most eps·Q, eps = γ_(C+1) + C·tiny / Q_lo (a square rounded to float, or to double and then to
// float; the squares' underflows); x / √Q̂ and sign(x)·√(x² / Q̂)
// then lie within a factor (1 ± γ_3) / √(1 ∓ eps) of the exact share, plus √(tiny / Q_lo) where x²
// may underflow in the second form (0 < |x| < 2^-63). Where eps ≥ 1/2 (a row of about √tiny) the
// share is only known to have x's sign and magnitude at most 5/4, or the row is left as it is.
void scaling_l2_admissible(const std::vector<Interval>& row, double q_lo, std::vector<Interval>& out) {
  const FloatFormat f = float_format(DType::Float);
  const double u = f.unit_roundoff(), tiny = f.smallest_subnormal(), n = static_cast<double>(row.size());
  const double eps = q_lo > 0 ? up(gamma(n + 1, u) + up(up(n * tiny) / q_lo)) : std::numeric_limits<double>::infinity();
  const double g3 = gamma(3, u);
  for (size_t k = 0; k < row.size(); ++k) {
    if (!(eps < 0.5)) {
      out[k] = hull(row[k], {row[k].lo < 0 ? -1.25 : 0.0, row[k].hi > 0 ? 1.25 : 0.0});
      continue;
    }
    const Interval x = row[k];
    const bool square_underflows = !(x.lo == 0 && x.hi == 0) && (x.lo < 0x1p-63 && x.hi > -0x1p-63);
    const double rho = up(g3 + up(eps * up(1 + g3)));
    const double absolute = square_underflows ? up(up(up(std::sqrt(up(tiny / q_lo))) * up(1 + g3)) + tiny) : tiny;
    out[k] = ml_widen_relative(out[k], rho, absolute);
  }
}

std::vector<Bounds> scaling_ml_normalizer(const OpCall& c) {
  ml_reference_checks(c, {DType::Float, DType::Double});
  const NormalizerParams p = NormalizerParams::read(c.ctx, c.version);
  const Bounds& x = c.input(0);
  const int64_t cols = x.lo.dim(x.lo.rank() - 1), n = x.lo.rank() == 1 ? 1 : x.lo.dim(0);  // checked by the reference
  const std::vector<Interval> v = ml_features(c, x);
  const bool admissible = c.semantics == Semantics::Admissible;
  const FloatFormat f = float_format(DType::Float);
  Bounds y = float_bounds(DType::Float, x.lo.shape());
  for (int64_t r = 0; r < n; ++r) {
    const std::vector<Interval> row(v.begin() + r * cols, v.begin() + (r + 1) * cols);
    std::vector<Interval> out(row.size(), Interval::undefined());
    const bool undefined = std::any_of(row.begin(), row.end(), [](Interval e) { return e.has_nan(); });
    if (!undefined && p.norm == NormalizerNorm::Max) {
      scaling_max_row(row, out);
      // The quotient, or the product by the reciprocal: two roundings, and an underflow.
      if (admissible)
        for (Interval& e : out) e = ml_widen_relative(e, gamma(2, f.unit_roundoff()), f.smallest_subnormal());
    } else if (!undefined) {
      const bool l2 = p.norm == NormalizerNorm::L2;
      std::vector<Interval> terms(row.size());
      for (size_t k = 0; k < row.size(); ++k) {
        const Interval a = scaling_abs(row[k]);
        terms[k] = l2 ? a * a : a;
      }
      const std::vector<Interval> others = scaling_others(terms);
      for (size_t k = 0; k < row.size(); ++k) out[k] = scaling_share_range(l2, row[k], others[k]);
      if (admissible && l2) {
        scaling_l2_admissible(row, row.empty() ? 0 : (others[0] + terms[0]).lo, out);
      } else if (admissible) {
        // The sum of C non-negative terms in any order errs by γ_(C-1) relative; the quotient (or the
        // reciprocal and a product) adds two roundings: γ_(C+1) relative, and an underflow.
        const double rho = gamma(static_cast<double>(cols) + 1, f.unit_roundoff());
        for (Interval& e : out) e = ml_widen_relative(e, rho, f.smallest_subnormal());
      }
    }
    for (int64_t k = 0; k < cols; ++k) set(y, r * cols + k, out[static_cast<size_t>(k)]);
  }
  return {y};
}

}  // namespace

// Own: the roundings of the sums, the roots and the quotients are bounded here.
SONNX_ML_PREDICTOR_ENCLOSURE("Scaler", (1), Allowance::own(), scaling_ml_scaler);
SONNX_ML_PREDICTOR_ENCLOSURE("Normalizer", (1), Allowance::own(), scaling_ml_normalizer);

}  // namespace sonnx::enclose
