#include "elementary.h"

#include <mpfr.h>

#include <array>
#include <cmath>
#include <limits>

#include "reference/ops/support/post_transform.h"

namespace sonnx::enclose {

namespace {
using MpfrFn = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

// f(x) rounded toward −∞ (down) or +∞; x is a double, so exact at 53 bits.
double bound(MpfrFn f, double x, bool upward) {
  mpfr_t a;
  mpfr_init2(a, 53);
  mpfr_set_d(a, x, MPFR_RNDN);
  f(a, a, upward ? MPFR_RNDU : MPFR_RNDD);
  double r = mpfr_get_d(a, upward ? MPFR_RNDU : MPFR_RNDD);
  mpfr_clear(a);
  return r;
}

// An increasing f over [x.lo, x.hi].
Interval increasing(MpfrFn f, Interval x) {
  if (x.has_nan()) return Interval::undefined();
  return {bound(f, x.lo, false), bound(f, x.hi, true)};
}

// A decreasing f over [x.lo, x.hi].
Interval decreasing(MpfrFn f, Interval x) {
  if (x.has_nan()) return Interval::undefined();
  return {bound(f, x.hi, false), bound(f, x.lo, true)};
}

// Whether x lies within [lo, hi] (a domain's ends, inclusive).
bool within_domain(Interval x, double lo, double hi) { return !x.has_nan() && x.lo >= lo && x.hi <= hi; }

// Whether Φ(x) = erfc(−x/√2)/2, the standard normal distribution function, is certainly ≤ p
// (`below`) or certainly ≥ p. At 200 bits the three roundings and erfc's condition (about 2t² for
// the argument t, below 2^12 for |x| < 64, beyond the quantile of every double p) keep the
// relative error under 2^−180; a margin of 2^−170 covers it.
bool normal_cdf_certainly(double x, double p, bool below) {
  mpfr_t t, root2, margin;
  mpfr_inits2(200, t, root2, margin, static_cast<mpfr_ptr>(nullptr));
  mpfr_sqrt_ui(root2, 2, MPFR_RNDN);
  mpfr_set_d(t, -x, MPFR_RNDN);
  mpfr_div(t, t, root2, MPFR_RNDN);
  mpfr_erfc(t, t, MPFR_RNDN);
  mpfr_div_2ui(t, t, 1, MPFR_RNDN);
  mpfr_set_ui_2exp(margin, 1, -170, MPFR_RNDN);  // then 1 ± 2^−170, exact at 200 bits
  if (below) mpfr_add_ui(margin, margin, 1, MPFR_RNDN);
  else mpfr_ui_sub(margin, 1, margin, MPFR_RNDN);
  mpfr_mul(t, t, margin, below ? MPFR_RNDU : MPFR_RNDD);
  const int cmp = mpfr_cmp_d(t, p);
  mpfr_clears(t, root2, margin, static_cast<mpfr_ptr>(nullptr));
  return below ? cmp <= 0 : cmp >= 0;
}

// A lower (or upper) bound of Φ⁻¹(p): the reference's double value, moved away by a growing step
// until Φ at it certainly lies below (above) p.
double probit_bound(double p, bool upward) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (p == 0) return -inf;
  if (p == 1) return inf;
  double x = support::probit(p), step = std::max(std::fabs(x) * 0x1p-52, 0x1p-1000);
  while (!normal_cdf_certainly(x, p, !upward)) {
    x = upward ? x + step : x - step;
    step *= 2;
  }
  return x;
}

// 1 / (1 + e^(−x)) at one point, rounded down or up: e^(−x) rounded the other way.
double sigmoid_bound(double x, bool upward) {
  mpfr_t a;
  mpfr_init2(a, 53);
  mpfr_set_d(a, -x, MPFR_RNDN);
  mpfr_rnd_t inner = upward ? MPFR_RNDD : MPFR_RNDU, outer = upward ? MPFR_RNDU : MPFR_RNDD;
  mpfr_exp(a, a, inner);
  mpfr_add_ui(a, a, 1, inner);
  mpfr_ui_div(a, 1, a, outer);
  double r = mpfr_get_d(a, outer);
  mpfr_clear(a);
  return r;
}

// ln(1 + e^x) at one point, rounded down or up: every step rounded the same way, since each is
// increasing in the one before it. For x > 0 as x + ln(1 + e^(−x)), where e^x would leave MPFR's
// exponent range for large x; e^(−x) is decreasing in x but increasing as the step's input.
double softplus_bound(double x, bool upward) {
  mpfr_rnd_t rnd = upward ? MPFR_RNDU : MPFR_RNDD;
  mpfr_t a;
  mpfr_init2(a, 64);  // 11 guard bits: the three roundings cost less than one double ulp
  mpfr_set_d(a, -std::fabs(x), MPFR_RNDN);
  mpfr_exp(a, a, rnd);
  mpfr_log1p(a, a, rnd);
  if (x > 0) mpfr_add_d(a, a, x, rnd);
  double r = mpfr_get_d(a, rnd);
  mpfr_clear(a);
  return r;
}

// ---- sin and cos: where the extrema lie ----

// Doubles reach 2^1024, so a quotient x / (π/2) keeps more than 170 bits after the point at this
// precision: far more than the distance of any double from a multiple of π/2 needs (about 2^-62
// relative), so the test below finds no extremum that is not there.
constexpr mpfr_prec_t kQuarterTurnBits = 1200;

// q = x / (π/2) rounded down or up, with π/2 replaced by its rounding that moves q that way:
// for x ≥ 0, q decreases as π/2 grows, for x < 0 it increases.
void quarter_turns(mpfr_t q, double x, bool upward) {
  mpfr_t half_pi;
  mpfr_init2(half_pi, kQuarterTurnBits);
  bool larger_pi = (x >= 0) != upward;
  mpfr_const_pi(half_pi, larger_pi ? MPFR_RNDU : MPFR_RNDD);
  mpfr_div_2ui(half_pi, half_pi, 1, MPFR_RNDN);  // exact
  mpfr_set_d(q, x, MPFR_RNDN);                   // exact
  mpfr_div(q, q, half_pi, upward ? MPFR_RNDU : MPFR_RNDD);
  mpfr_clear(half_pi);
}

// For each r in 0..3, whether [x.lo, x.hi] (finite) may hold a multiple n·π/2 with n ≡ r (mod 4):
// the integers n in [q(x.lo) rounded down, q(x.hi) rounded up], at most four of them looked at
// (four consecutive integers meet every residue).
std::array<bool, 4> quarter_turn_residues(Interval x) {
  mpfr_t n, last, t;
  mpfr_inits2(kQuarterTurnBits, n, last, t, static_cast<mpfr_ptr>(nullptr));
  quarter_turns(n, x.lo, false);
  quarter_turns(last, x.hi, true);
  mpfr_ceil(n, n);  // exact: an integer below 2^1024 has fewer than 1200 bits
  mpfr_floor(last, last);
  std::array<bool, 4> hit{};
  for (int k = 0; k < 4 && mpfr_lessequal_p(n, last); ++k, mpfr_add_ui(n, n, 1, MPFR_RNDN)) {
    mpfr_div_2ui(t, n, 2, MPFR_RNDN);  // n mod 4 = n − 4·floor(n / 4), each step exact
    mpfr_floor(t, t);
    mpfr_mul_2ui(t, t, 2, MPFR_RNDN);
    mpfr_sub(t, n, t, MPFR_RNDN);
    hit[static_cast<size_t>(mpfr_get_si(t, MPFR_RNDN))] = true;
  }
  mpfr_clears(n, last, t, static_cast<mpfr_ptr>(nullptr));
  return hit;
}

// sin or cos over x: the hull of the ends' values, with the maximum 1 where x may hold a multiple
// n·π/2 with n ≡ max_residue (mod 4) (sin: π/2 + 2kπ, n ≡ 1; cos: 2kπ, n ≡ 0), the minimum −1 two
// quarter turns on.
Interval periodic(MpfrFn f, Interval x, size_t max_residue) {
  if (x.has_nan() || !std::isfinite(x.lo) || !std::isfinite(x.hi)) return Interval::undefined();  // sin ∞: no limit
  Interval r{std::min(bound(f, x.lo, false), bound(f, x.hi, false)), std::max(bound(f, x.lo, true), bound(f, x.hi, true))};
  // A point is no multiple of π/2 but 0, where the correctly rounded values are exact (cos 0 = 1).
  if (x.lo == x.hi) return r;
  std::array<bool, 4> hit = quarter_turn_residues(x);
  if (hit[max_residue]) r.hi = 1;
  if (hit[(max_residue + 2) % 4]) r.lo = -1;
  return r;
}

// ---- pow ----

// x^y at one point, rounded down or up (MPFR: x^y for x < 0 only where y is an integer; infinite
// arguments give the limits).
double pow_bound(double x, double y, bool upward) {
  mpfr_t a, b;
  mpfr_inits2(53, a, b, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_d(a, x, MPFR_RNDN);
  mpfr_set_d(b, y, MPFR_RNDN);
  mpfr_rnd_t rnd = upward ? MPFR_RNDU : MPFR_RNDD;
  mpfr_pow(a, a, b, rnd);
  double r = mpfr_get_d(a, rnd);
  mpfr_clears(a, b, static_cast<mpfr_ptr>(nullptr));
  return r;
}

// The hull of x^y over the corners of a box on which x^y is monotone in x for each y and in y for
// each x: its extremes lie at corners.
Interval pow_corners(Interval x, Interval y) {
  Interval r{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (double a : {x.lo, x.hi})
    for (double b : {y.lo, y.hi}) {
      r.lo = std::min(r.lo, pow_bound(a, b, false));
      r.hi = std::max(r.hi, pow_bound(a, b, true));
    }
  return r;
}

// x^n for an integer n: monotone on each side of 0, so by the ends of the pieces x < 0 and x > 0.
Interval integer_power(Interval x, double n) {
  if (n < 0 && x.contains(0)) return Interval::undefined();  // 1 / 0^|n|: no real number
  Interval power = Interval::point(n);
  if (x.lo < 0 && x.hi > 0) return hull(pow_corners({x.lo, 0}, power), pow_corners({0, x.hi}, power));
  return pow_corners(x, power);
}
}  // namespace

Interval exp(Interval x) { return increasing(mpfr_exp, x); }
Interval tanh(Interval x) { return increasing(mpfr_tanh, x); }
Interval erf(Interval x) { return increasing(mpfr_erf, x); }

Interval log(Interval x) {
  if (x.has_nan() || !(x.lo >= 0)) return Interval::undefined();
  return increasing(mpfr_log, x);  // log 0 = −∞, the limit
}

Interval sqrt(Interval x) {
  if (x.has_nan() || !(x.lo >= 0)) return Interval::undefined();
  return increasing(mpfr_sqrt, x);
}

Interval probit(Interval p) {
  if (!within_domain(p, 0, 1)) return Interval::undefined();
  return {probit_bound(p.lo, false), probit_bound(p.hi, true)};
}

Interval sigmoid(Interval x) {
  if (x.has_nan()) return Interval::undefined();
  return {sigmoid_bound(x.lo, false), sigmoid_bound(x.hi, true)};
}

Interval softplus(Interval x) {
  if (x.has_nan()) return Interval::undefined();
  return {softplus_bound(x.lo, false), softplus_bound(x.hi, true)};
}

Interval sin(Interval x) { return periodic(mpfr_sin, x, 1); }
Interval cos(Interval x) { return periodic(mpfr_cos, x, 0); }

Interval asin(Interval x) { return within_domain(x, -1, 1) ? increasing(mpfr_asin, x) : Interval::undefined(); }
Interval acos(Interval x) { return within_domain(x, -1, 1) ? decreasing(mpfr_acos, x) : Interval::undefined(); }
Interval atan(Interval x) { return increasing(mpfr_atan, x); }
Interval sinh(Interval x) { return increasing(mpfr_sinh, x); }
Interval asinh(Interval x) { return increasing(mpfr_asinh, x); }
Interval acosh(Interval x) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  return within_domain(x, 1, inf) ? increasing(mpfr_acosh, x) : Interval::undefined();
}
Interval atanh(Interval x) { return within_domain(x, -1, 1) ? increasing(mpfr_atanh, x) : Interval::undefined(); }

Interval cosh(Interval x) {
  if (x.has_nan()) return Interval::undefined();
  if (x.lo >= 0) return increasing(mpfr_cosh, x);
  if (x.hi <= 0) return decreasing(mpfr_cosh, x);
  return {1, std::max(bound(mpfr_cosh, x.lo, true), bound(mpfr_cosh, x.hi, true))};  // cosh 0 = 1
}

Interval tan(Interval x) {
  if (x.has_nan() || !std::isfinite(x.lo) || !std::isfinite(x.hi)) return Interval::undefined();
  // A point is no odd multiple of π/2 (π is irrational), so tan is finite there.
  if (x.lo != x.hi) {
    std::array<bool, 4> hit = quarter_turn_residues(x);
    if (hit[1] || hit[3]) return Interval::undefined();
  }
  return increasing(mpfr_tan, x);
}

Interval pow(Interval x, Interval y) {
  if (x.has_nan() || y.has_nan()) return Interval::undefined();
  if (y.lo == y.hi && std::isfinite(y.lo) && std::floor(y.lo) == y.lo) return integer_power(x, y.lo);
  // x > 0: x^y = e^(y·ln x) is monotone in x for each y (by the sign of y) and in y for each x (by
  // x ≶ 1); at x = 0 with y > 0 it is continuous (0^y = 0) and still monotone.
  if (x.lo > 0 || (x.lo >= 0 && y.lo > 0)) return pow_corners(x, y);
  return Interval::undefined();
}

}  // namespace sonnx::enclose
