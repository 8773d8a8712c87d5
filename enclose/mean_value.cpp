// Mean-value forms with an a-priori rounding error (mean_value.h): the operations.
#include "mean_value.h"

#include <cmath>

namespace sonnx::enclose {

Grad combine(const Grad& a, Interval ka, const Grad& b, Interval kb) {
  Grad g;
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].first < b[j].first)) g.push_back({a[i].first, ka * a[i].second}), ++i;
    else if (i == a.size() || b[j].first < a[i].first) g.push_back({b[j].first, kb * b[j].second}), ++j;
    else g.push_back({a[i].first, ka * a[i].second + kb * b[j].second}), ++i, ++j;
  }
  return g;
}

double err_of(const FloatFormat* f, Interval r, double ep) {
  if (!f || (ep == 0 && r.lo == r.hi && std::isfinite(r.lo) && f->round_down(r.lo) == r.lo)) return ep;
  double m = upz(magnitude(r) + ep);
  return upz(upz(ep + mulup(f->unit_roundoff(), m)) + f->smallest_subnormal());
}

EA operator+(const EA& a, const EA& b) {
  Interval r = bounded(a.R + b.R);
  return {r, bounded(a.C + b.C), combine(a.G, Interval::point(1), b.G, Interval::point(1)), err_of(fmt(a, b), r, upz(a.e + b.e)),
          fmt(a, b)};
}
EA operator-(const EA& a) { return {-a.R, -a.C, combine(a.G, Interval::point(-1), {}, {}), a.e, a.f}; }
EA operator-(const EA& a, const EA& b) { return a + (-b); }
EA operator*(const EA& a, const EA& b) {
  Interval r = bounded(a.R * b.R);
  double ep = upz(upz(mulup(magnitude(a.R), b.e) + mulup(magnitude(b.R), a.e)) + mulup(a.e, b.e));
  return {r, bounded(a.C * b.C), combine(a.G, b.R, b.G, a.R), err_of(fmt(a, b), r, ep), fmt(a, b)};
}
EA operator/(const EA& a, const EA& b) {
  double bmin = b.R.lo > 0 ? b.R.lo : b.R.hi < 0 ? -b.R.hi : 0;
  if (!(bmin > b.e) || b.R.has_nan()) return EA::unbounded(fmt(a, b));
  Interval r = bounded(a.R / b.R);
  double ep = divup(upz(mulup(magnitude(a.R), b.e) + mulup(magnitude(b.R), a.e)), down(bmin * down(bmin - b.e)));
  Interval inv = Interval::point(1) / b.R, q = bounded(a.R / (b.R * b.R));
  return {r, bounded(a.C / b.C), combine(a.G, inv, b.G, -q), err_of(fmt(a, b), r, ep), fmt(a, b)};
}

namespace {
Grad kinked(const Grad& g, Interval slope) { return combine(g, slope, {}, {}); }
}  // namespace

EA abs(const EA& a) {
  if (a.R.lo >= 0) return a;
  if (a.R.hi <= 0) return -a;
  return {{0, magnitude(a.R)},
          {a.C.lo >= 0   ? a.C.lo
           : a.C.hi <= 0 ? -a.C.hi
                         : 0,
           magnitude(a.C)},
          kinked(a.G, {-1, 1}),
          a.e,
          a.f};
}
EA max0(const EA& a) {
  if (a.R.lo >= 0) return a;
  if (a.R.hi <= 0) return {Interval::point(0), Interval::point(0), {}, a.e, a.f};
  return {{0, a.R.hi}, {std::max(0.0, a.C.lo), std::max(0.0, a.C.hi)}, kinked(a.G, {0, 1}), a.e, a.f};
}
bool is_zero(const EA& a) { return a.R.lo == 0 && a.R.hi == 0 && a.e == 0; }

}  // namespace sonnx::enclose
