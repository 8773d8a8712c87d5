// Multilinear sampling of a tensor's plane at a position held as intervals (DeformConv,
// enclose_deform_conv.cpp; RoiAlign, enclose_roialign.cpp). On each axis the position's floor may
// be undecided: every candidate cell is listed (sample_axis) and the sample is the hull over the
// cells' combinations (multilinear_sample). Within a cell the weights frac = p − floor(p) and
// 1 − frac are intervals as the type computes them (rounded_interval.h), the sample the interval
// sum Σ_corners Π_d weight_d·x; under a format, widened by γ_(2^r + r)·Σ|corner terms| plus an
// underflow per rounding (the 2^r corner terms of r products each, summed in any order; Higham
// §3.1).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "enclose_ops.h"
#include "interval.h"
#include "rounded_interval.h"
#include "type_rounding.h"
#include "reference/ops/support/numeric.h"

namespace sonnx::enclose {

// Beyond this many candidate cells (over all axes) a sample is bounded by the convex hull of its
// plane's values and 0 (the interpolation weights are nonnegative and sum to at most 1).
constexpr size_t kSampleMaxCells = 64;

// A candidate cell on one axis: its lower pixel l, and the weights frac and 1 − frac as held.
struct SampleCell {
  int64_t l;
  Interval frac, rest;
};
struct SampleAxis {
  std::vector<SampleCell> cells;
  bool outside =
      false;  // the position may lie outside the image (DeformConv: at or beyond −1 or the size): the sample is 0 there
  bool too_many = false;  // more than kSampleMaxCells cells: not listed
};

// The cells the held position p (an interval) may fall in on an axis of n pixels.
inline SampleAxis sample_axis(Interval p, int64_t n, const FloatFormat* f) {
  SampleAxis a;
  a.outside = p.lo <= -1 || p.hi >= static_cast<double>(n);
  const double first = std::max(std::floor(p.lo), -1.0), last = std::min(std::floor(p.hi), static_cast<double>(n - 1));
  if (last - first + 1 > static_cast<double>(kSampleMaxCells)) {
    a.too_many = true;
    return a;
  }
  const RI one{Interval::point(1), f};
  for (double l = first; l <= last; ++l) {
    // The part of p in [l, l + 1), as held; frac = p − l and 1 − frac rounded as the type rounds.
    const Interval part{std::max(p.lo, l), std::min(p.hi, l + 1)};
    RI frac = RI{part, f} - RI{Interval::point(l), f};
    frac.v = {std::clamp(frac.v.lo, 0.0, 1.0), std::clamp(frac.v.hi, 0.0, 1.0)};
    const RI rest = one - frac;
    a.cells.push_back({static_cast<int64_t>(l), frac.v, rest.v});
  }
  return a;
}

// The enclosure of one sample of plane `plane` (element offset in x) at the positions' cells.
inline Interval multilinear_sample(const Bounds& x, int64_t plane, const std::vector<int64_t>& in,
                                   const std::vector<int64_t>& st, const std::vector<SampleAxis>& axes, const FloatFormat* f) {
  const size_t r = in.size();
  bool outside = false;
  size_t cells = 1;
  for (const SampleAxis& a : axes) {
    outside = outside || a.outside;
    cells *= a.cells.size();
  }
  const bool too_many = cells > kSampleMaxCells ||
                        std::any_of(axes.begin(), axes.end(), [](const SampleAxis& a) { return a.too_many; });
  const double corners = std::ldexp(1.0, static_cast<int>(r));
  const double g = f ? gamma(corners + static_cast<double>(r), f->unit_roundoff()) : 0;
  const double tiny = f ? corners * static_cast<double>(r + 1) * f->smallest_subnormal() : 0;
  auto widened = [&](Interval s, double magnitudes) {
    if (!f || s.has_nan()) return s;
    double e = up(up(g * magnitudes) + tiny);
    return Interval{down(s.lo - e), up(s.hi + e)};
  };
  Interval result = outside ? Interval::point(0)
                            : Interval{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  if (too_many) {  // a convex combination of the plane's values and 0
    Interval span = Interval::point(0);
    for (int64_t i = 0; i < support::element_count(in); ++i) span = hull(span, at(x, plane + i));
    return widened(span, 2 * magnitude(span));
  }
  std::vector<size_t> pick(r, 0);
  for (size_t cell = 0; cell < cells; ++cell) {
    size_t rem = cell;
    for (size_t d = r; d-- > 0;) {
      pick[d] = rem % axes[d].cells.size();
      rem /= axes[d].cells.size();
    }
    Interval sum = Interval::point(0);
    double magnitudes = 0;
    for (size_t corner = 0; corner < (size_t{1} << r); ++corner) {
      Interval term = Interval::point(1);
      int64_t off = 0;
      bool inside = true;
      for (size_t d = 0; d < r && inside; ++d) {
        const SampleCell& cd = axes[d].cells[pick[d]];
        const bool upper = (corner >> d) & 1;
        const int64_t i = cd.l + (upper ? 1 : 0);
        inside = i >= 0 && i < in[d];
        term = term * (upper ? cd.frac : cd.rest);
        off += i * st[d];
      }
      if (!inside) continue;
      term = term * at(x, plane + off);
      sum = sum + term;
      magnitudes = up(magnitudes + magnitude(term));
    }
    result = result.lo > result.hi ? widened(sum, magnitudes) : hull(result, widened(sum, magnitudes));
  }
  return result;
}

}  // namespace sonnx::enclose
