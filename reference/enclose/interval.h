// Intervals of reals with double bounds, rounded outward: every operation returns an interval
// that contains the exact real result for every choice of reals in its operands (the `real`
// semantics of spec/accuracy.md, "Enclosures").
//
// Outward rounding without switching the FPU's rounding mode: IEEE 754 +, −, ×, ÷ and sqrt in
// round-to-nearest are within half an ulp of the exact result, so stepping the rounded value one
// double outward (std::nextafter) gives a bound on the exact side. One double of width per
// operation is far below a float ULP (2^29 times finer), and the code stays free of
// -frounding-math and of compiler reordering across mode switches.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>

namespace sonnx::enclose {

inline double down(double x) { return std::nextafter(x, -std::numeric_limits<double>::infinity()); }
inline double up(double x) { return std::nextafter(x, std::numeric_limits<double>::infinity()); }

// [lo, hi] with lo ≤ hi; a bound may be infinite. Where nothing bounds the result (a NaN or
// infinite operand, a quotient by an interval holding 0, log of a number that may be ≤ 0) the
// interval is the whole line [−∞, +∞]: sound, and saying nothing.
struct Interval {
  double lo = 0, hi = 0;

  static Interval point(double x) { return {x, x}; }
  static Interval whole() { return {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()}; }
  bool has_nan() const { return std::isnan(lo) || std::isnan(hi); }
  bool contains(double x) const { return lo <= x && x <= hi; }
  double width() const { return hi - lo; }
};

inline Interval operator+(Interval a, Interval b) {
  if (a.has_nan() || b.has_nan()) return Interval::whole();
  double lo = a.lo + b.lo, hi = a.hi + b.hi;
  if (std::isnan(lo) || std::isnan(hi)) return Interval::whole();  // inf − inf
  return {down(lo), up(hi)};
}

inline Interval operator-(Interval a) { return {-a.hi, -a.lo}; }
inline Interval operator-(Interval a, Interval b) { return a + (-b); }

inline Interval operator*(Interval a, Interval b) {
  if (a.has_nan() || b.has_nan()) return Interval::whole();
  double p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  for (double v : p)
    if (std::isnan(v)) return Interval::whole();  // 0 × inf
  auto [lo, hi] = std::minmax_element(p, p + 4);
  return {down(*lo), up(*hi)};
}

// a / b; no enclosure when b may be zero (the quotient is unbounded or undefined).
inline Interval operator/(Interval a, Interval b) {
  if (a.has_nan() || b.has_nan() || b.contains(0.0)) return Interval::whole();
  double p[4] = {a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi};
  for (double v : p)
    if (std::isnan(v)) return Interval::whole();  // inf / inf
  auto [lo, hi] = std::minmax_element(p, p + 4);
  return {down(*lo), up(*hi)};
}

inline Interval hull(Interval a, Interval b) {
  return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
}

}  // namespace sonnx::enclose
