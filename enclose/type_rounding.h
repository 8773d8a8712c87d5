// The floating-point formats of the element types, as the `admissible` semantics needs them
// (spec/accuracy.md, "Admissible results"): each type's precision p (significand bits, the hidden
// one included), smallest normal exponent and largest finite value; rounding a real interval
// outward to the values of a type; units in the last place; a type's unit roundoff.
#pragma once
#include <cmath>

#include "interval.h"
#include "sonnx/dtype.h"

namespace sonnx::enclose {

struct FloatFormat {
  int precision = 53;        // p
  int min_exponent = -1022;  // e_min: normal numbers are ≥ 2^e_min
  double max_finite = std::numeric_limits<double>::max();

  // The spacing of the type's values at |x| (above it, where |x| is a power of two), never less than
  // the smallest subnormal.
  double ulp(double x) const {
    int e = x == 0 || !std::isfinite(x) ? min_exponent : std::max(std::ilogb(x), min_exponent);
    return std::ldexp(1.0, e - precision + 1);
  }
  double unit_roundoff() const { return std::ldexp(1.0, -precision); }  // u = 2^-p
  double smallest_subnormal() const { return std::ldexp(1.0, min_exponent - precision + 1); }

  // The largest value of the type ≤ x (−∞ below the finite range), and the smallest ≥ x.
  double round_down(double x) const {
    if (!std::isfinite(x)) return x;
    if (x > max_finite) return max_finite;
    if (x < -max_finite) return -std::numeric_limits<double>::infinity();
    double q = ulp(x);
    return std::floor(x / q) * q;  // x / q and the product are exact: q is a power of two
  }
  double round_up(double x) const { return -round_down(-x); }
  Interval round_out(Interval i) const { return {round_down(i.lo), round_up(i.hi)}; }
};

// The format of a float element type (float16, bfloat16, float, double, and the float8 and float4
// types); Unsupported otherwise.
FloatFormat float_format(DType type);

// [lo − k·ulp(lo), hi + k·ulp(hi)] in the type's ulps, then rounded outward to the type: every value
// within k ulps of a real in the interval, as the type holds it. k ≤ ½ (correctly or faithfully
// rounded) is the rounding outward alone: the type's values on either side of each real. An
// infinite exact value (log 0) is the result itself.
inline Interval widen_ulps(Interval i, double k, const FloatFormat& f) {
  if (k > 0.5) {
    if (std::isfinite(i.lo)) i.lo = down(i.lo - k * f.ulp(i.lo));
    if (std::isfinite(i.hi)) i.hi = up(i.hi + k * f.ulp(i.hi));
  }
  return f.round_out(i);
}

// The width of an interval in ulps of `type` at its larger-magnitude end: about how many values of
// the type it spans (0 for a point, ±∞ included; +∞ where a bound is infinite; NaN where the value
// is undefined).
inline double width_in_ulps(Interval i, DType type) {
  if (i.has_nan()) return std::nan("");
  if (i.lo == i.hi) return 0;
  if (!std::isfinite(i.lo) || !std::isfinite(i.hi)) return std::numeric_limits<double>::infinity();
  return (i.hi - i.lo) / float_format(type).ulp(std::max(std::fabs(i.lo), std::fabs(i.hi)));
}

// How far x lies outside the interval, in ulps of `type` at the nearer bound (0 inside, and anywhere
// where the value is undefined; +∞ for NaN where the interval is defined).
inline double ulps_outside(double x, Interval i, DType type) {
  if (i.has_nan()) return 0;
  if (std::isnan(x)) return std::numeric_limits<double>::infinity();
  if (i.contains(x)) return 0;
  double bound = x < i.lo ? i.lo : i.hi;
  if (std::isinf(x)) return std::numeric_limits<double>::infinity();
  return std::fabs(x - bound) / float_format(type).ulp(bound);
}

// γ_n = n·u / (1 − n·u) rounded up (Higham §3.1): the relative error bound of n roundings in a
// row at unit roundoff u; +∞ where n·u ≥ 1/2 (no bound worth having).
inline double gamma(double n, double u) {
  if (n * u >= 0.5) return std::numeric_limits<double>::infinity();
  return up(up(n * u) / down(1 - n * u));
}

}  // namespace sonnx::enclose
