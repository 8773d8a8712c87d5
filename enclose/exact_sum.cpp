// Exact and compensated sums of products (exact_sum.h).
#include "exact_sum.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "dot.h"
#include "double_double.h"

namespace sonnx::enclose {

void ExactSum::add(Interval w, Interval x) {
  if (!ok_) return;
  if (w.lo != w.hi || x.lo != x.hi || !std::isfinite(w.lo) || !std::isfinite(x.lo)) return fail();
  double p = w.lo * x.lo;
  if (!std::isfinite(p) || std::fma(w.lo, x.lo, -p) != 0 || (p == 0 && w.lo != 0 && x.lo != 0)) return fail();
  if (f_ && (f_->round_down(p) != p || f_->round_up(p) != p)) return fail();
  sum_ += p;
  if (p != 0) {  // a zero product adds nothing (and up(0) would make abs_ nonzero with no low_)
    abs_ = up(abs_ + std::fabs(p));
    int ex = 0;
    double fr = std::frexp(std::fabs(p), &ex);  // p = fr·2^ex, fr in [1/2, 1)
    auto m = static_cast<uint64_t>(std::ldexp(fr, 53));
    low_ = std::min(low_, ex - 53 + std::countr_zero(m));  // 2^low_ divides p
  }
}

std::optional<double> ExactSum::result() const {
  if (!ok_) return std::nullopt;
  if (abs_ == 0) return 0.0;
  int precision = f_ ? f_->precision : 53;
  int min_low = f_ ? f_->min_exponent - f_->precision + 1 : -1074;  // the smallest subnormal's exponent
  if (low_ < min_low || !(abs_ < std::ldexp(1.0, low_ + precision))) return std::nullopt;
  return sum_;  // exact: the double sum's partial sums are the exact ones too
}

Interval accurate_dot(const std::vector<std::pair<Interval, Interval>>& terms) {
  constexpr double u = 0x1p-53, eta = 0x1p-1074;
  double p = 0, sigma = 0, abs_sum = 0, radius = 0;
  for (const auto& [a, b] : terms) {
    MidRad x = MidRad::of(a), y = MidRad::of(b);
    if (!std::isfinite(x.r) || !std::isfinite(y.r)) return Interval::whole();
    double h = x.m * y.m, r = std::fma(x.m, y.m, -h);  // TwoProduct: h + r = x.m·y.m exactly
    double q;
    two_sum(p, h, p, q);  // p' + q = p + h exactly
    sigma += q + r;
    abs_sum = up(abs_sum + up(std::fabs(h) + std::fabs(r)));
    radius = up(radius + up(up(std::fabs(x.m) * y.r) + up(x.r * up(std::fabs(y.m) + y.r))));
  }
  double res = p + sigma, n = static_cast<double>(terms.size());
  double g = gamma(n, u);
  if (!std::isfinite(res) || !std::isfinite(g) || !std::isfinite(abs_sum)) return Interval::whole();
  double err = up(up(up(u * std::fabs(res)) + up(up(g * g) * abs_sum)) / down(1 - u));  // |Σ| ≤ |res| + err
  double rad = up(up(up(err) + radius) + 4 * n * eta);
  return {down(res - rad), up(res + rad)};
}

}  // namespace sonnx::enclose
