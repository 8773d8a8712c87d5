// Intervals of reals with double bounds, rounded outward: every operation returns an interval
// that contains the exact real result for every choice of reals in its operands (the `real`
// semantics of spec/accuracy.md, "Enclosures").
//
// Outward rounding without switching the FPU's rounding mode: IEEE 754 +, −, ×, ÷ and sqrt in
// round-to-nearest are within half an ulp of the exact result, so stepping the rounded value one
// double outward (std::nextafter) gives a bound on the exact side. The rounding error of +, ×
// and ÷ is itself a double (error-free transformations: TwoSum, and the exact remainder an FMA
// gives), so a bound is stepped only on the side where the exact result lies: a result that is
// exact in double stays a point. The code stays free of -frounding-math and of compiler
// reordering across mode switches.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>

namespace sonnx::enclose {

inline double down(double x) { return std::nextafter(x, -std::numeric_limits<double>::infinity()); }
inline double up(double x) { return std::nextafter(x, std::numeric_limits<double>::infinity()); }

// [lo, hi] with lo ≤ hi over the extended reals: a bound may be ±∞, and [−∞, −∞] is the value −∞
// itself (an attention mask's). The operations take the limits IEEE 754 takes (∞ + x = ∞,
// x / ∞ = 0); where no value exists (∞ − ∞, 0·∞, a quotient by an interval holding 0, log of a
// number that may be < 0, a NaN operand) the result is `undefined`. A bound the rounding takes past
// the finite doubles is ±∞: [DBL_MAX, +∞] holds a finite real beyond DBL_MAX.
struct Interval {
  double lo = 0, hi = 0;

  static Interval point(double x) { return {x, x}; }
  static Interval whole() { return {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()}; }
  // No value at all (a NaN input, ∞ − ∞, log of a negative number): whatever an implementation
  // gives there, NaN included, is admissible, and every operation on it is undefined as well.
  static Interval undefined() { return {std::nan(""), std::nan("")}; }
  bool has_nan() const { return std::isnan(lo) || std::isnan(hi); }
  bool contains(double x) const { return lo <= x && x <= hi; }
  double width() const { return hi - lo; }
};

// The rounded result r of an operation and the sign of (exact − r): the bound on either side.
struct Rounded {
  double r;
  double err_sign;  // < 0: the exact result is below r; 0: r is exact; > 0: above; NaN: unknown
  double below() const { return err_sign < 0 || std::isnan(err_sign) ? down(r) : r; }
  double above() const { return err_sign > 0 || std::isnan(err_sign) ? up(r) : r; }
};

// Where the error-free transformations hold: no overflow, and no underflow that could make the
// error itself inexact (2^-960 leaves room for the products of the error terms).
inline bool transformable(double r) { return std::isfinite(r) && (r == 0 || std::fabs(r) >= 0x1p-960); }

// An infinite operand's result is that limit, exactly (NaN where there is none).
inline bool exact_limit(double x, double y, double r) { return !std::isnan(r) && (std::isinf(x) || std::isinf(y)); }

inline Rounded sum(double x, double y) {
  double s = x + y;
  if (exact_limit(x, y, s)) return {s, 0};
  if (!transformable(s)) return {s, std::nan("")};
  double bb = s - x;
  return {s, (x - (s - bb)) + (y - bb)};  // TwoSum (Knuth): exactly x + y − s
}

inline Rounded product(double x, double y) {
  double p = x * y;
  if (exact_limit(x, y, p)) return {p, 0};
  if (!transformable(p) || (p == 0 && x != 0 && y != 0)) return {p, std::nan("")};
  return {p, std::fma(x, y, -p)};  // exactly x·y − p
}

inline Rounded quotient(double x, double y) {
  double q = x / y;
  if (exact_limit(x, y, q)) return {q, 0};
  if (!transformable(q) || (q == 0 && x != 0)) return {q, std::nan("")};
  double rem = std::fma(-q, y, x);  // exactly x − q·y, so x/y − q = rem/y
  return {q, rem == 0 ? 0.0 : (rem > 0) == (y > 0) ? 1.0 : -1.0};
}

inline Interval operator+(Interval a, Interval b) {
  if (a.has_nan() || b.has_nan()) return Interval::undefined();
  Rounded lo = sum(a.lo, b.lo), hi = sum(a.hi, b.hi);
  if (std::isnan(lo.r) || std::isnan(hi.r)) return Interval::undefined();  // ∞ − ∞
  return {lo.below(), hi.above()};
}

inline Interval operator-(Interval a) { return {-a.hi, -a.lo}; }
inline Interval operator-(Interval a, Interval b) { return a + (-b); }

// The hull of the four corner results (× and ÷ are monotone in each operand on each sign).
template <class Op>
Interval corners(Interval a, Interval b, Op op) {
  Rounded p[4] = {op(a.lo, b.lo), op(a.lo, b.hi), op(a.hi, b.lo), op(a.hi, b.hi)};
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const Rounded& v : p) {
    if (std::isnan(v.r)) return Interval::undefined();  // 0 × ∞, ∞ / ∞
    lo = std::min(lo, v.below());
    hi = std::max(hi, v.above());
  }
  return {lo, hi};
}

inline Interval operator*(Interval a, Interval b) {
  if (a.has_nan() || b.has_nan()) return Interval::undefined();
  return corners(a, b, product);
}

// a / b; undefined when b may be zero.
inline Interval operator/(Interval a, Interval b) {
  if (a.has_nan() || b.has_nan() || b.contains(0.0)) return Interval::undefined();
  return corners(a, b, quotient);
}

inline Interval hull(Interval a, Interval b) {
  if (a.has_nan() || b.has_nan()) return Interval::undefined();
  return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
}

// The largest |x| over the interval.
inline double magnitude(Interval i) { return std::max(std::fabs(i.lo), std::fabs(i.hi)); }

}  // namespace sonnx::enclose
