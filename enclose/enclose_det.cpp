// The enclosure of Det (11, 22): the determinant of each square matrix in the last two dims of X.
//
// Real: over the box of matrices the input bounds allow, written M + E with M the midpoints (doubles)
// and |E| ≤ R the radii, det(M + E) lies within det(M) ± H(M, R) where
//   H(M, R) = Π_j (‖m_j‖ + ‖r_j‖) − Π_j ‖m_j‖   (column 2-norms):
// det is multilinear in the columns, so det(M + E) − det(M) is the sum over the nonempty sets S of
// columns of the determinant whose columns in S are E's and the others M's, each at most
// Π_{j∈S} ‖e_j‖·Π_{j∉S} ‖m_j‖ by Hadamard's inequality; the sum of those is H. det(M) is exact
// (Gaussian elimination in rationals, rational.h), so a matrix of points is enclosed as the tightest
// interval around its exact determinant. For n ≤ 3 the interval Leibniz expansion over the input
// intervals is also an enclosure (also with ±∞ entries), and we take the intersection of the two.
//
// Admissible (spec/accuracy.md, "Admissible results"): what Gaussian elimination with partial
// pivoting computes in the type (or wider, rounded once): Higham, "Accuracy and Stability of
// Numerical Algorithms", Theorem 9.3: L̂Û = PA + ΔA with |ΔA| ≤ γ_n·|L̂|·|Û|. The multipliers are at
// most 1, and each elimination step updates column j only from column j's entries, so the entries
// of Û's column j are at most ρ·c_j, c_j = max_i |a_ij| and ρ = 2^(n−1)·(1 + γ_2n) (the growth of
// partial pivoting, each step ≤ 2(1 + u)²): |ΔA_ij| ≤ e_j = γ_n·n·ρ·c_j, plus 2n smallest subnormals
// for underflow. The computed determinant ±Π û_kk is det(A + ΔA)·(1 + θ), |θ| ≤ γ_n, plus n smallest
// subnormals times the largest the pivots make them. So the allowance is the real enclosure over the
// input box widened by e_j in column j, times [1 − γ_n, 1 + γ_n], plus that underflow. It also holds
// ad − bc for a 2×2 matrix in the type (|ΔA| ≤ γ_2·|A| there). It is loose by the factor n·2^(n−1)
// of the a priori growth (a few float ulps at n = 2 grow to hundreds at n = 4), and relative to the
// columns' norms, not to |det A|: a nearly singular matrix's determinant has no relative accuracy.
#include <algorithm>
#include <cmath>
#include <vector>

#include "dot.h"
#include "enclose_ops.h"
#include "rational.h"
#include "sonnx/errors.h"

namespace sonnx::enclose::det_detail {

// The exact determinant of the n×n row-major matrix `a` of finite doubles.
Q det_exact(const std::vector<double>& a, int64_t n) {
  std::vector<Q> m;
  m.reserve(a.size());
  for (double v : a) m.emplace_back(v);
  auto el = [&](int64_t r, int64_t c) -> Q& { return m[static_cast<size_t>(r * n + c)]; };
  Q det(1.0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t pivot = k;
    while (pivot < n && is_zero(el(pivot, k))) ++pivot;
    if (pivot == n) return Q(0.0);
    if (pivot != k) {
      for (int64_t c = k; c < n; ++c) std::swap(el(k, c), el(pivot, c));
      det = -det;
    }
    det = det * el(k, k);
    for (int64_t r = k + 1; r < n; ++r) {
      if (is_zero(el(r, k))) continue;
      Q f = el(r, k) / el(k, k);
      for (int64_t c = k + 1; c < n; ++c) el(r, c) = el(r, c) - f * el(k, c);
    }
  }
  return det;
}

// The Leibniz expansion in interval arithmetic, n ≤ 3.
Interval det_leibniz(const std::vector<Interval>& a, int64_t n) {
  auto el = [&](int64_t r, int64_t c) { return a[static_cast<size_t>(r * n + c)]; };
  if (n == 0) return Interval::point(1);
  if (n == 1) return el(0, 0);
  if (n == 2) return el(0, 0) * el(1, 1) - el(0, 1) * el(1, 0);
  return el(0, 0) * (el(1, 1) * el(2, 2) - el(1, 2) * el(2, 1)) - el(0, 1) * (el(1, 0) * el(2, 2) - el(1, 2) * el(2, 0)) +
         el(0, 2) * (el(1, 0) * el(2, 1) - el(1, 1) * el(2, 0));
}

// An upper bound on the 2-norm of column j.
double det_column_norm(const std::vector<double>& a, int64_t n, int64_t j) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i) {
    double v = a[static_cast<size_t>(i * n + j)];
    if (v != 0) s = up(s + up(v * v));  // up(0) would be the smallest subnormal
  }
  return s == 0 ? 0 : up(std::sqrt(s));
}

// H(M, R) = Σ_j ‖r_j‖·Π_{i<j}(‖m_i‖ + ‖r_i‖)·Π_{i>j}‖m_i‖ (the telescoped difference of the
// products: no cancellation), rounded up; exactly 0 where R is.
double det_perturbation(const std::vector<double>& m, const std::vector<double>& r, int64_t n) {
  std::vector<double> mn(static_cast<size_t>(n)), rn(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j) {
    mn[static_cast<size_t>(j)] = det_column_norm(m, n, j);
    rn[static_cast<size_t>(j)] = det_column_norm(r, n, j);
  }
  double h = 0;
  for (int64_t j = 0; j < n; ++j) {
    if (rn[static_cast<size_t>(j)] == 0) continue;
    double t = rn[static_cast<size_t>(j)];
    for (int64_t i = 0; i < n; ++i)
      if (i != j) t = up(t * (i < j ? up(mn[static_cast<size_t>(i)] + rn[static_cast<size_t>(i)]) : mn[static_cast<size_t>(i)]));
    h = up(h + t);
  }
  return h;
}

// The determinant over the box of matrices whose entries lie in `a` (n×n, row-major).
Interval det_over_box(const std::vector<Interval>& a, int64_t n) {
  bool finite = std::all_of(a.begin(), a.end(), [](Interval v) { return std::isfinite(v.lo) && std::isfinite(v.hi); });
  bool defined = std::none_of(a.begin(), a.end(), [](Interval v) { return v.has_nan(); });
  if (!defined) return Interval::undefined();
  if (!finite) return n <= 3 ? det_leibniz(a, n) : Interval::undefined();
  std::vector<double> mid(a.size()), rad(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    MidRad mr = MidRad::of(a[i]);
    mid[i] = mr.m;
    rad[i] = a[i].lo == a[i].hi ? 0 : mr.r;  // a point has no radius (MidRad's is up(0) > 0)
  }
  double h = det_perturbation(mid, rad, n);
  Interval d = det_exact(mid, n).enclose();
  if (!std::isfinite(h)) d = Interval::whole();
  else if (h > 0) d = d + Interval{-h, h};
  if (n <= 3) {  // both enclose the same set: their intersection does
    Interval l = det_leibniz(a, n);
    if (!l.has_nan()) d = {std::max(d.lo, l.lo), std::min(d.hi, l.hi)};
  }
  return d;
}

// Under the admissible semantics: each column j widened by e_j (the backward error of Gaussian
// elimination with partial pivoting in the type), the determinant over that box, times
// (1 ± γ_n), plus the pivots' product's underflow.
Interval det_admissible(std::vector<Interval> a, int64_t n, const FloatFormat& f) {
  if (n == 0) return Interval::point(1);
  const double u = f.unit_roundoff(), tiny = f.smallest_subnormal(), nd = static_cast<double>(n);
  const double gn = gamma(nd, u),
               rho = up(std::ldexp(1.0, static_cast<int>(std::min<int64_t>(n - 1, 2000))) * up(1 + gamma(2 * nd, u)));
  double pivots = 1;  // a bound on |the product of any subset of the pivots|
  for (int64_t j = 0; j < n; ++j) {
    double cj = 0;
    for (int64_t i = 0; i < n; ++i) cj = std::max(cj, magnitude(a[static_cast<size_t>(i * n + j)]));
    double e = up(up(up(gn * nd) * up(rho * cj)) + 2 * nd * tiny);
    pivots = up(pivots * std::max(1.0, up(rho * cj)));
    for (int64_t i = 0; i < n; ++i) {
      Interval& v = a[static_cast<size_t>(i * n + j)];
      v = {down(v.lo - e), up(v.hi + e)};
    }
  }
  Interval d = det_over_box(a, n);
  if (d.has_nan()) return d;
  d = d * Interval{down(1 - gn), up(1 + gn)};
  double under = up(up(nd * tiny) * pivots);
  return std::isfinite(under) ? d + Interval{-under, under} : Interval::whole();
}

std::vector<Bounds> enclose_det(const OpCall& c) {
  const Bounds& x = float_input(c, 0);
  const Shape& xs = x.lo.shape();
  if (xs.size() < 2) c.ctx.fail("input must have shape [*, M, M]");
  const int64_t n = xs.back();
  if (xs[xs.size() - 2] != n) c.ctx.fail("the last two dims must be equal, got " + shape_str(xs));
  Bounds y = float_bounds(x.type, Shape(xs.begin(), xs.end() - 2));
  const FloatFormat f = float_format(x.type);
  std::vector<Interval> a(static_cast<size_t>(n * n));
  for (int64_t b = 0; b < y.lo.size(); ++b) {
    for (int64_t i = 0; i < n * n; ++i) a[static_cast<size_t>(i)] = at(x, b * n * n + i);
    set(y, b, c.semantics == Semantics::Admissible ? det_admissible(a, n, f) : det_over_box(a, n));
  }
  return {y};
}

}  // namespace sonnx::enclose::det_detail

namespace sonnx::enclose {
SONNX_ENCLOSURE("Det", (11, 22), Allowance::own(), det_detail::enclose_det);
}  // namespace sonnx::enclose
