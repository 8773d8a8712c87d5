#include "ml_svm_coupling.h"

#include <algorithm>
#include <cmath>

#include "ml_common.h"
#include "reference/ops/support/svm.h"

namespace sonnx::enclose {

namespace {

// The inverse of the n×n row-major matrix `a` by Gauss–Jordan elimination with partial pivoting, in
// double: only an approximation (the proof checks how good it is); empty where a pivot is zero.
std::vector<double> coupling_approximate_inverse(std::vector<double> a, size_t n) {
  std::vector<double> inv(n * n, 0.0);
  for (size_t i = 0; i < n; ++i) inv[i * n + i] = 1;
  for (size_t col = 0; col < n; ++col) {
    size_t pivot = col;
    for (size_t i = col + 1; i < n; ++i)
      if (std::fabs(a[i * n + col]) > std::fabs(a[pivot * n + col])) pivot = i;
    if (!(std::fabs(a[pivot * n + col]) > 0)) return {};
    for (size_t j = 0; j < n; ++j) {
      std::swap(a[pivot * n + j], a[col * n + j]);
      std::swap(inv[pivot * n + j], inv[col * n + j]);
    }
    const double d = a[col * n + col];
    for (size_t j = 0; j < n; ++j) {
      a[col * n + j] /= d;
      inv[col * n + j] /= d;
    }
    for (size_t i = 0; i < n; ++i) {
      const double f = a[i * n + col];
      if (i == col || f == 0) continue;
      for (size_t j = 0; j < n; ++j) {
        a[i * n + j] -= f * a[col * n + j];
        inv[i * n + j] -= f * inv[col * n + j];
      }
    }
  }
  if (!std::all_of(inv.begin(), inv.end(), [](double v) { return std::isfinite(v); })) return {};
  return inv;
}

}  // namespace

std::vector<Interval> svm_coupling_enclosure(const std::vector<Interval>& r, int64_t k, SvmCouplingAllowance allowance,
                                             std::string& why) {
  const auto n = static_cast<size_t>(k), m = n + 1;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      if (i != j && r[i * n + j].has_nan()) return std::vector<Interval>(n, Interval::undefined());
  const FloatFormat* type = allowance.type;
  const double u = type ? type->unit_roundoff() : 0, kd = static_cast<double>(k);

  // M = [Q e; eᵀ 0] over the box of r; admissibly each entry of Q within γ_k relative (the k − 1
  // rounded squares and their sum, or one rounded product) plus k smallest subnormals of underflow.
  std::vector<Interval> big(m * m, Interval::point(0));
  double q_max = 0;
  for (size_t t = 0; t < n; ++t) {
    for (size_t j = 0; j < n; ++j) {
      Interval q = Interval::point(0);
      if (t == j) {
        for (size_t l = 0; l < n; ++l)
          if (l != t) q = q + r[l * n + t] * r[l * n + t];
      } else {
        q = -(r[j * n + t] * r[t * n + j]);
      }
      if (type) q = ml_widen_relative(q, gamma(kd, u), kd * type->smallest_subnormal());
      big[t * m + j] = q;
      q_max = std::max(q_max, magnitude(q));
    }
    big[t * m + n] = big[n * m + t] = Interval::point(1);
  }

  // The right-hand side [ρ; σ]: |ρ_t| ≤ the tolerance, σ = Σp. Admissibly the test itself errs by
  // at most γ_(2k+2)·|Q|·S·(1 + S) with S ≥ Σ|p| (the held p sums to about 1, its entries
  // non-negative up to rounding: S = 2), and each of the k steps of each round moves Σp by a factor
  // within 1 ± γ_3 (p_t + step, 1 + step and the division, each rounded once), the start Σ(1/k) by u.
  double tolerance = support::svm_coupling_tolerance(k);
  Interval sigma = Interval::point(1);
  if (type) {
    constexpr double kSumBound = 2;
    tolerance = up(tolerance + up(up(gamma(2 * kd + 2, u) * q_max) * kSumBound * (1 + kSumBound)));
    const double drift = gamma(3 * static_cast<double>(support::svm_coupling_rounds(k)) * kd + 1, u);
    sigma = {down(1 - drift), up(1 + drift)};
  }

  std::vector<double> center(m * m);
  for (size_t i = 0; i < m * m; ++i) center[i] = big[i].lo / 2 + big[i].hi / 2;
  const std::vector<double> inv = coupling_approximate_inverse(center, m);
  if (inv.empty()) {
    why = "the coupling's matrix at the midpoint of the bounds is singular";
    return {};
  }
  std::vector<double> z(m);  // z̃ = R [0; 1]
  for (size_t i = 0; i < m; ++i) z[i] = inv[i * m + n];

  std::vector<Interval> residual(m);  // [ρ; σ] − M z̃
  for (size_t l = 0; l < m; ++l) {
    Interval s = l < n ? Interval{-tolerance, tolerance} : sigma;
    for (size_t j = 0; j < m; ++j) s = s - big[l * m + j] * Interval::point(z[j]);
    residual[l] = s;
  }
  std::vector<Interval> c(m * m), g(m);  // C ⊇ I − R·M, g ⊇ R([ρ; σ] − M z̃)
  double alpha = 0, beta = 0;
  for (size_t i = 0; i < m; ++i) {
    Interval gi = Interval::point(0);
    for (size_t l = 0; l < m; ++l) gi = gi + Interval::point(inv[i * m + l]) * residual[l];
    g[i] = gi;
    beta = std::max(beta, magnitude(gi));
    double row = 0;
    for (size_t j = 0; j < m; ++j) {
      Interval cij = Interval::point(i == j ? 1 : 0);
      for (size_t l = 0; l < m; ++l) cij = cij - Interval::point(inv[i * m + l]) * big[l * m + j];
      c[i * m + j] = cij;
      row = up(row + magnitude(cij));
    }
    alpha = std::max(alpha, row);
  }
  const double radius = alpha < 1 ? up(beta / down(1 - alpha)) : std::numeric_limits<double>::infinity();
  if (!std::isfinite(radius)) {
    why = "the bounds on the pair probabilities are too wide to prove where the coupling stops (‖I − R·M‖ = " +
          std::to_string(alpha) + ")";
    return {};
  }

  const Interval ball{-radius, radius};
  std::vector<Interval> p(n);
  for (size_t i = 0; i < n; ++i) {
    Interval v = Interval::point(z[i]) + g[i];
    for (size_t j = 0; j < m; ++j) v = v + c[i * m + j] * ball;
    v.lo = std::max(v.lo, down(z[i] - radius));
    v.hi = std::min(v.hi, up(z[i] + radius));
    if (!type) v = {std::max(v.lo, 0.0), std::min(v.hi, 1.0)};  // exactly, p is a probability vector
    p[i] = v;
  }
  return p;
}

}  // namespace sonnx::enclose
