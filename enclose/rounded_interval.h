// Rounded intervals: what a formula may compute when each of its operations is correctly rounded to
// a floating-point type or any wider format (the `admissible` semantics, spec/accuracy.md). Each
// operation takes the exact interval result of its operands and rounds it outward to the type's
// values: rounding to any precision ≥ the type's is monotone and lands between the type's values on
// either side of the exact result, so this encloses every such computation, and a result the type
// holds exactly stays a point. Without a format (f null) the operations are exact interval
// arithmetic. Used by Resize's coordinates and weights (enclose_resize.cpp).
#pragma once
#include <algorithm>

#include "interval.h"
#include "type_rounding.h"

namespace sonnx::enclose {

// An interval of values, and the type its operations round to (null: exact).
struct RI {
  Interval v;
  const FloatFormat* f = nullptr;
};

// An operation without a value on some choice in its operands' intervals (a quotient by an interval
// holding 0: the operands' enclosures are wider than the values) is unbounded here, not undefined.
inline RI rounded(Interval v, const FloatFormat* f) {
  if (v.has_nan()) v = Interval::whole();
  return {f ? f->round_out(v) : v, f};
}
// The format of an operation on a and b: a's, else b's (null: both exact).
inline const FloatFormat* fmt(const RI& a, const RI& b) { return a.f ? a.f : b.f; }
inline RI operator+(const RI& a, const RI& b) { return rounded(a.v + b.v, fmt(a, b)); }
inline RI operator-(const RI& a, const RI& b) { return rounded(a.v - b.v, fmt(a, b)); }
inline RI operator*(const RI& a, const RI& b) { return rounded(a.v * b.v, fmt(a, b)); }
inline RI operator/(const RI& a, const RI& b) { return rounded(a.v / b.v, fmt(a, b)); }
// min, max, |a| and max(a, 0) are exact: no rounding.
inline RI min(const RI& a, const RI& b) { return {{std::min(a.v.lo, b.v.lo), std::min(a.v.hi, b.v.hi)}, fmt(a, b)}; }
inline RI max(const RI& a, const RI& b) { return {{std::max(a.v.lo, b.v.lo), std::max(a.v.hi, b.v.hi)}, fmt(a, b)}; }
inline RI abs(const RI& a) {
  if (a.v.lo >= 0) return a;
  if (a.v.hi <= 0) return {-a.v, a.f};
  return {{0, std::max(-a.v.lo, a.v.hi)}, a.f};
}
inline RI max0(const RI& a) { return {{std::max(0.0, a.v.lo), std::max(0.0, a.v.hi)}, a.f}; }
inline bool is_zero(const RI& a) { return a.v.lo == 0 && a.v.hi == 0; }

}  // namespace sonnx::enclose
