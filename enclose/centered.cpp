#include "centered.h"

namespace sonnx::enclose {

std::shared_ptr<const Centered> centered_of(const Bounds& b) {
  if (b.centered) return b.centered;
  if (b.exact()) return nullptr;
  auto c = std::make_shared<Centered>(static_cast<size_t>(b.lo.size()));
  const double *lo = b.lo.data<double>(), *hi = b.hi.data<double>();
  for (size_t i = 0; i < c->size(); ++i) {
    if (!std::isfinite(lo[i]) || !std::isfinite(hi[i])) return nullptr;
    if (lo[i] == hi[i]) {
      c->set(i, {lo[i], 0}, 0);
      continue;
    }
    // (lo + hi) / 2 exactly: TwoSum, then halving (exact but in the subnormal range, which the
    // radius absorbs: η each half).
    DD s;
    two_sum(lo[i], hi[i], s.hi, s.lo);
    DD m;
    two_sum(0.5 * s.hi, 0.5 * s.lo, m.hi, m.lo);
    double r = up(0.5 * up(hi[i] - lo[i]));  // hi − mid = (hi − lo) / 2
    if (std::fabs(s.hi) < 0x1p-1020) r = up(r + 0x1p-1073);
    if (!std::isfinite(r)) return nullptr;
    c->set(i, m, r);
  }
  return c;
}

namespace {

// [hi + lo − r, hi + lo + r] rounded outward. With |lo| ≤ ulp(hi)/2 (normalized) and r ≤ ulp(hi)/4
// (the common case: a radius far below the midpoint's ulp) both ends lie within one double of hi,
// on the side the sign of fl(lo ∓ r) gives (round-to-nearest keeps the sign of the exact sum): at
// most one double wide, and a point stays a point. Otherwise interval arithmetic.
Interval ends_of(double hi, double lo, double r) {
  if (std::isfinite(hi) && std::fabs(hi) >= 0x1p-1000 && r <= std::ldexp(1.0, std::ilogb(hi) - 54))
    return {lo - r < 0 ? down(hi) : hi, lo + r > 0 ? up(hi) : hi};
  return Interval::point(hi) + Interval::point(lo) + Interval{-r, r};
}

}  // namespace

Bounds centered_bounds(DType type, const Shape& shape, std::shared_ptr<const Centered> c) {
  Bounds b = float_bounds(type, shape);
  for (size_t i = 0; i < c->size(); ++i) {
    set(b, static_cast<int64_t>(i), ends_of(c->hi[i], c->lo[i], c->rad[i]));
  }
  b.centered = std::move(c);
  return b;
}

}  // namespace sonnx::enclose
