// Σ a_i·b_i + bias over reals a_i, b_i in intervals (Conv, MatMul, Gemm, averages), in
// midpoint-radius form (Rump): a_i = ma_i ± ra_i, and
// a_i·b_i ∈ ma_i·mb_i ± (|ma_i|·rb_i + ra_i·(|mb_i| + rb_i)); weights are points (radius 0). Evaluated in double round-to-nearest, with
// the rounding error bounded a priori (Higham, "Accuracy and Stability of Numerical Algorithms",
// §3.1: |fl(Σ) − Σ| ≤ γ_n·Σ|terms|, γ_n = n·u / (1 − n·u), u = 2^-53), plus 2^-1074 per product
// for underflow. One accumulator per output element: add() each term, then result().
#pragma once
#include <cmath>

#include "interval.h"

namespace sonnx::enclose {

// Midpoint and radius of an interval, the radius rounded up: [m − r, m + r] ⊇ [lo, hi].
struct MidRad {
  double m = 0, r = 0;
  static MidRad of(Interval x) {
    if (!std::isfinite(x.lo) || !std::isfinite(x.hi)) return {0, std::numeric_limits<double>::infinity()};
    double m = 0.5 * x.lo + 0.5 * x.hi;
    return {m, up(std::max(x.hi - m, m - x.lo))};
  }
};

class DotBound {
 public:
  void add(MidRad a, MidRad b) {
    c_ += a.m * b.m;
    a_ += std::fabs(a.m) * b.r + a.r * (std::fabs(b.m) + b.r);
    b_ += std::fabs(a.m * b.m);
    ++n_;
  }
  // The enclosure of (Σ a_i·b_i + bias) / divisor (bias and divisor points; divisor n for an average).
  Interval result(double bias = 0, double divisor = 1) const {
    Interval s = from_sums(c_ + bias, a_, b_ + std::fabs(bias), static_cast<double>(n_ + 6));
    return divisor == 1 ? s : s / Interval::point(divisor);
  }

  // The enclosure from the round-to-nearest sums of `terms` terms (the products and the roundings
  // within each term's radius): c = Σ ma·mb (+ bias), a = Σ radii, b = Σ |ma·mb| (+ |bias|).
  static Interval from_sums(double c, double a, double b, double terms) {
    if (std::isnan(c) || !std::isfinite(a) || !std::isfinite(b)) return Interval::whole();
    constexpr double u = 0x1p-53, eta = 0x1p-1074;
    if (terms * u >= 0.5) return Interval::whole();
    double gamma = up(up(terms * u) / down(1 - terms * u));
    // rad ≥ Σ|ma|·rb + ra·(|mb| + rb) (exact) + the error of c; a and b are sums of non-negative rounded terms.
    double t = a + gamma * b + 3 * terms * eta;
    double rad = up(up(t) * up(1 + 2 * gamma + 8 * u));
    return {down(c - rad), up(c + rad)};
  }

 private:
  double c_ = 0, a_ = 0, b_ = 0;
  int64_t n_ = 0;
};

}  // namespace sonnx::enclose
