// Double-double numbers (the real hi + lo, |lo| ≤ u·|hi|) and sums of them whose error is bounded a
// priori, for the centered enclosures (centered.h) that keep a deep network's rounding at u² where
// double bounds lose u per operator and the loss compounds through every layer.
//
// DDSum is Ogita, Rump and Oishi's cascaded summation ("Accurate sum and dot product", SIAM J. Sci.
// Comput. 26(6), 2005) one level deeper: each addend enters level 1 by TwoSum, whose exact error
// enters level 2 by TwoSum, whose exact error is summed in round-to-nearest at level 3. The error
// bound (result()) is derived in the comments below; u = 2^-53, η = 2^-1074.
#pragma once
#include <cmath>
#include <cstdint>

#include "interval.h"
#include "type_rounding.h"

namespace sonnx::enclose {

struct DD {
  double hi = 0, lo = 0;
};

// s + e = a + b exactly (Knuth's TwoSum; exact barring overflow, subnormal results included).
inline void two_sum(double a, double b, double& s, double& e) {
  s = a + b;
  double bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}

// A double-double's value as an interval (outward).
inline Interval interval_of(DD x) { return Interval::point(x.hi) + Interval::point(x.lo); }

class DDSum {
 public:
  // Adds a·b = a.hi·b.hi + a.hi·b.lo + a.lo·b.hi + a.lo·b.lo. p + e = a.hi·b.hi exactly (the FMA's
  // remainder, unless p is near the subnormal range); the cross terms x and y, their sum t and e + t
  // are rounded, each by at most u times its rounded magnitude (plus η/2 in the subnormal range),
  // and a.lo·b.lo is dropped. The bound counts what the roundings can have lost (rounded_, dropped_),
  // not the a-priori worst case: a product of two doubles (both lows 0) loses nothing, nor does a
  // product with a zero factor.
  void add_product(DD a, DD b) {
    double p = a.hi * b.hi, e = std::fma(a.hi, b.hi, -p);
    double x = a.hi * b.lo, y = a.lo * b.hi, t = x + y, w = e + t;
    level1(p);
    level2(w);
    rounded_ += (std::fabs(x) + std::fabs(y)) + (std::fabs(t) + std::fabs(w));
    dropped_ += std::fabs(a.lo * b.lo);
    bool exact_zero = a.hi == 0 || b.hi == 0;  // 0·b: nothing to round, however small
    lossy_ += (a.lo != 0) | (b.lo != 0) | (!exact_zero && !(std::fabs(p) >= 0x1p-960));
  }
  // Adds an exact double.
  void add(double v) { level1(v); }
  void add(DD v) {
    add(v.hi);
    add(v.lo);
  }

  // The sum as a normalized double-double, and a bound on its distance from the exact sum of the
  // addends: 0 where nothing was rounded.
  //
  // Levels 1 and 2 are exact (TwoSum): s1 + s2 + s3 equals the sum of the addends but for the
  // products' roundings and level 3's. Level 3 sums its terms q in round-to-nearest: at most
  // γ_k·Σ|q| for k ≤ 2n terms, Σ|q| ≤ 1.01·level3_ (the round-to-nearest sum of k non-negative
  // terms, 2n·u ≤ 0.01). The final fl(l + s3) errs by u·|l2| + η (|l| ≤ u·|h|: u² of the result);
  // the last TwoSum is exact. The products' roundings are at most 1.01u·rounded_ and 1.01·dropped_,
  // plus 5η for each product with a rounding (lossy_).
  std::pair<DD, double> result() const {
    constexpr double u = 0x1p-53, eta = 0x1p-1074;
    double h, l;
    two_sum(s1_, s2_, h, l);
    double l2 = l + s3_;
    DD r;
    two_sum(h, l2, r.hi, r.lo);
    double n = static_cast<double>(count_);
    if (!std::isfinite(r.hi) || !std::isfinite(rounded_) || 2 * n * u > 0.01)  // an addend or a sum past the doubles
      return {r, std::numeric_limits<double>::infinity()};
    double err = 0;
    if (level3_ > 0) err = up(up(up(gamma(2 * n, u) * up(1.01 * level3_)) + up(u * std::fabs(l2))) + eta);
    if (lossy_ > 0)
      err = up(err + up(up(up(1.01 * u * rounded_) + up(1.01 * dropped_)) + 5 * static_cast<double>(lossy_) * eta));
    return {r, err};
  }

 private:
  void level1(double v) {
    double q;
    two_sum(s1_, v, s1_, q);
    level2(q);
    ++count_;
  }
  void level2(double v) {
    double q;
    two_sum(s2_, v, s2_, q);
    s3_ += q;
    level3_ += std::fabs(q);
  }
  double s1_ = 0, s2_ = 0, s3_ = 0, level3_ = 0, rounded_ = 0, dropped_ = 0;
  int64_t count_ = 0, lossy_ = 0;
};

}  // namespace sonnx::enclose
