// Σ a_i·b_i + bias over reals a_i, b_i in intervals (Conv, MatMul, Gemm, averages), in
// midpoint-radius form (Rump): a_i = ma_i ± ra_i, and
// a_i·b_i ∈ ma_i·mb_i ± (|ma_i|·rb_i + ra_i·(|mb_i| + rb_i)); weights are points (radius 0). Evaluated in double round-to-nearest, with
// the rounding error bounded a priori (Higham, "Accuracy and Stability of Numerical Algorithms",
// §3.1: |fl(Σ) − Σ| ≤ γ_n·Σ|terms|, γ_n = n·u / (1 − n·u), u = 2^-53), plus 2^-1074 per product
// for underflow; a sum whose every product has an exact zero factor (and a bounded other one) is
// exactly 0. One accumulator per output element: add() each term, then result().
#pragma once
#include <cmath>

#include "interval.h"
#include "type_rounding.h"

namespace sonnx::enclose {

// Midpoint and radius of an interval, the radius rounded up: [m − r, m + r] ⊇ [lo, hi].
struct MidRad {
  double m = 0, r = 0;
  static MidRad of(Interval x) {
    if (!std::isfinite(x.lo) || !std::isfinite(x.hi)) return {0, std::numeric_limits<double>::infinity()};
    if (x.lo == x.hi) return {x.lo, 0};  // a point: exact (halving a subnormal could round)
    double m = 0.5 * x.lo + 0.5 * x.hi;
    return {m, up(std::max(x.hi - m, m - x.lo))};
  }
};
constexpr MidRad kOne{1, 0};  // the weight of each term of a sum or an average

// What a sum in the element type may add under the admissible semantics: any summation order,
// each product and sum rounded to the type (unit roundoff `unit`), underflow up to `tiny` a term;
// nothing under the real semantics.
struct TypeSum {
  double unit = 0, tiny = 0;
  static TypeSum of(const FloatFormat& f) { return {f.unit_roundoff(), f.smallest_subnormal()}; }
};

class DotBound {
 public:
  void add(MidRad a, MidRad b) {
    c_ += a.m * b.m;
    a_ += std::fabs(a.m) * b.r + a.r * (std::fabs(b.m) + b.r);
    b_ += std::fabs(a.m * b.m);
    zero_ = zero_ && ((exact_zero(a) && bounded(b)) || (exact_zero(b) && bounded(a)));  // not 0·∞
    ++n_;
  }
  // The enclosure of (Σ a_i·b_i) / divisor (a point divisor: n for an average).
  Interval result(double divisor = 1, TypeSum in_type = {}) const {
    Interval s = affine(1, {}, in_type);
    return divisor == 1 ? s : s / Interval::point(divisor);
  }
  // The enclosure of alpha·Σ a_i·b_i + c (Gemm's alpha·A·B + beta·C, a Conv's bias): three more
  // roundings, which the count of terms makes room for.
  Interval affine(double alpha, MidRad c, TypeSum in_type = {}) const {
    if (n_ == 0) return Interval::point(c.m) + Interval{-c.r, c.r};  // the empty sum is exactly 0
    // Every product with an exact zero factor, no bias: exactly 0 in any type, with no underflow.
    if (zero_ && c.m == 0 && c.r == 0) return Interval::point(0);
    double fa = std::fabs(alpha);
    return from_sums(alpha * c_ + c.m, fa * a_ + c.r, fa * b_ + std::fabs(c.m), static_cast<double>(n_ + 9), in_type);
  }

  // The enclosure from the round-to-nearest sums of `terms` terms (the products and the roundings
  // within each term's radius): c = Σ ma·mb (+ bias), a = Σ radii, b = Σ |ma·mb| (+ |bias|). With
  // `in_type`, widened by what the same sum in the element type may err: γ_terms·Σ|a_i·b_i| ≤
  // γ_terms·(a + b), and the underflows.
  static Interval from_sums(double c, double a, double b, double terms, TypeSum in_type = {}) {
    if (std::isnan(c) || !std::isfinite(a) || !std::isfinite(b)) return Interval::undefined();  // a NaN or ±∞ term
    constexpr double u = 0x1p-53, eta = 0x1p-1074;
    double g = gamma(terms, u);
    if (!std::isfinite(g)) return Interval::whole();
    // rad ≥ Σ|ma|·rb + ra·(|mb| + rb) (exact) + the error of c; a and b are sums of non-negative rounded terms.
    double t = a + g * b + 3 * terms * eta;
    double rad = up(up(t) * up(1 + 2 * g + 8 * u));
    if (in_type.unit > 0) {
      double gt = gamma(terms, in_type.unit);
      if (!std::isfinite(gt)) return Interval::whole();
      rad = up(rad + up(up(gt * up(a + b)) * up(1 + 2 * g + 8 * u)) + up(terms * in_type.tiny));
    }
    return {down(c - rad), up(c + rad)};
  }

 private:
  double c_ = 0, a_ = 0, b_ = 0;
  int64_t n_ = 0;
  bool zero_ = true;  // every term so far has an exact zero factor and a bounded one
  static bool exact_zero(MidRad x) { return x.m == 0 && x.r == 0; }
  static bool bounded(MidRad x) { return std::isfinite(x.m) && std::isfinite(x.r); }
};

}  // namespace sonnx::enclose
