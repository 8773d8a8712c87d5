// Enclosure of RoiAlign (versions 10, 16 and 22; reference/ops/RoiAlign.cpp). For roi r (its
// batch index exact), channel c and output bin (ph, pw), the bin's gh×gw samples sit at
//   y = sh + ph·bin_h + (iy + 0.5)·bin_h / gh,   x = sw + pw·bin_w + (ix + 0.5)·bin_w / gw,
// sh = y1·scale − offset, bin_h = rh / output_height, rh = eh − sh (at least 1 without
// half_pixel), the reference's formulas in its order; each is carried as an `RI`
// (rounded_interval.h): exact interval arithmetic under `real`, each operation's result rounded
// outward to X's type under `admissible`. On each axis a position below −1 or above the size
// makes the sample 0, one in range is clamped to [0, size − 1] (the last pixel's weight then 1,
// exactly); the clamped interval's candidate cells are listed as DeformConv lists them
// (bilinear.h), the sample the hull over them, with 0 where the position may lie outside.
// sampling_ratio 0 takes gh = ceil(rh / output_height) (gw likewise): it must be the same at both
// ends of the interval, else `Undetermined`.
//
// mode avg: the samples' sum divided by gh·gw; each sample Σ_corners w_y·w_x·x as
// multilinear_sample encloses it (γ_6 under admissible), the sum and the division γ_(n+9)·Σ|terms|
// (DotBound with TypeSum). mode max: the largest weighted corner term w_y·w_x·x of each sample
// (a corner of weight exactly 0 counts 0), the largest over the samples, no samples 0; each term
// an RI product in the reference's order (weights first), so max itself is exact.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "bilinear.h"
#include "enclose_sums.h"
#include "rounded_interval.h"
#include "reference/ops/params/roi_align.h"
#include "sonnx/errors.h"

namespace sonnx::enclose::roialign {
namespace {

Undetermined roialign_open(const OpCall& c, const std::string& why) {
  return Undetermined(c.node.label() + ": " + why + " is not determined closely enough at this input");
}

// The cells of a sample at position p on an axis of n pixels, by the reference's rule: outside
// (sample 0) below −1 or above n, else clamped into [0, n − 1].
SampleAxis roialign_axis(Interval p, int64_t n, const FloatFormat* f) {
  SampleAxis a;
  const auto size = static_cast<double>(n);
  a.outside = n == 0 || p.lo < -1 || p.hi > size;
  const double lo = std::max(p.lo, -1.0), hi = std::min(p.hi, size);
  if (n == 0 || lo > hi) return a;  // no cell: the sample is 0
  const double last = static_cast<double>(n - 1);
  SampleAxis in = sample_axis({std::clamp(lo, 0.0, last), std::clamp(hi, 0.0, last)}, n, f);
  in.outside = a.outside;
  return in;
}

// max(a, b) over intervals, NaN from either side propagating (as the reference's max_nan).
Interval roialign_max(Interval a, Interval b) {
  if (a.has_nan() || b.has_nan()) return Interval::undefined();
  return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
}

// The number of samples along an axis: sampling_ratio, or ceil(length / bins) where it is 0.
int64_t roialign_grid(const OpCall& c, int64_t ratio, const RI& length, int64_t bins, const char* axis) {
  if (ratio > 0) return ratio;
  const RI q = length / rounded(Interval::point(static_cast<double>(bins)), length.f);
  const double lo = std::max(std::ceil(q.v.lo), 0.0), hi = std::max(std::ceil(q.v.hi), 0.0);
  if (q.v.has_nan() || lo != hi) throw roialign_open(c, std::string("the adaptive sampling grid's ") + axis);
  return static_cast<int64_t>(lo);
}

// The largest weighted corner term of one sample of the plane at `plane` (mode max).
Interval roialign_max_sample(const Bounds& x, int64_t plane, int64_t H, int64_t W, const SampleAxis& ay, const SampleAxis& ax,
                             const FloatFormat* f) {
  if (ay.too_many || ax.too_many) {  // the terms lie between 0 and the plane's values
    Interval span = Interval::point(0);
    for (int64_t i = 0; i < H * W; ++i) span = hull(span, at(x, plane + i));
    return f ? f->round_out(span) : span;
  }
  std::optional<Interval> result;
  if (ay.outside || ax.outside) result = Interval::point(0);
  for (const SampleCell& cy : ay.cells)
    for (const SampleCell& cx : ax.cells) {
      std::optional<Interval> best;
      for (int corner = 0; corner < 4; ++corner) {
        const bool uy = corner & 2, ux = corner & 1;
        const int64_t iy = cy.l + (uy ? 1 : 0), ix = cx.l + (ux ? 1 : 0);
        // A corner past the last pixel has weight exactly 0 (the reference reads the last pixel).
        Interval term = Interval::point(0);
        if (iy < H && ix < W) {
          const RI w = RI{uy ? cy.frac : cy.rest, f} * RI{ux ? cx.frac : cx.rest, f};
          term = (w * RI{at(x, plane + iy * W + ix), f}).v;
        }
        best = best ? roialign_max(*best, term) : term;
      }
      result = result ? hull(*result, *best) : *best;
    }
  return result ? *result : Interval::point(0);
}

std::vector<Bounds> roi_align(const OpCall& c) {
  run_on_bounds(c, false);  // the reference's own checks and traps
  const RoiAlignParams p = RoiAlignParams::read(c.ctx, c.version);
  const Bounds &x = float_input(c, 0), &rois = float_input(c, 1);
  const std::vector<int64_t> batches = c.input(2).lo.to_int64_vector();
  const int64_t C = x.lo.shape()[1], H = x.lo.shape()[2], W = x.lo.shape()[3], R = rois.lo.shape()[0];
  const int64_t PH = p.output_height, PW = p.output_width;
  std::optional<FloatFormat> format;
  if (c.semantics == Semantics::Admissible) format = float_format(x.type);
  const FloatFormat* f = format ? &*format : nullptr;
  const TypeSum ts = type_sum(c, x.type);
  auto k = [&](double v) { return rounded(Interval::point(v), f); };
  const std::vector<int64_t> in{H, W}, st{W, 1};

  Bounds y = float_bounds(x.type, {R, C, PH, PW});
  for (int64_t r = 0; r < R; ++r) {
    RI corner[4];  // x1, y1, x2, y2 scaled and shifted
    for (int i = 0; i < 4; ++i) {
      const Interval v = at(rois, r * 4 + i);
      if (!std::isfinite(v.lo) || !std::isfinite(v.hi)) throw roialign_open(c, "a roi's coordinate");
      corner[i] = RI{v, f} * k(p.spatial_scale) - k(p.half_pixel ? 0.5 : 0.0);
    }
    RI rw = corner[2] - corner[0], rh = corner[3] - corner[1];
    if (!p.half_pixel) {
      rw = max(rw, k(1));
      rh = max(rh, k(1));
    }
    const RI bin_h = rh / k(static_cast<double>(PH)), bin_w = rw / k(static_cast<double>(PW));
    const int64_t gh = roialign_grid(c, p.sampling_ratio, rh, PH, "height");
    const int64_t gw = roialign_grid(c, p.sampling_ratio, rw, PW, "width");
    const double count = static_cast<double>(std::max<int64_t>(gh * gw, 1));
    // The sample positions' cells: along y per (ph, iy), along x per (pw, ix).
    auto axes = [&](const RI& start, const RI& bin, int64_t bins, int64_t g, int64_t n) {
      std::vector<SampleAxis> out;
      for (int64_t b = 0; b < bins; ++b)
        for (int64_t i = 0; i < g; ++i) {
          const RI pos = start + k(static_cast<double>(b)) * bin +
                         k(static_cast<double>(i) + 0.5) * bin / k(static_cast<double>(g));
          out.push_back(roialign_axis(pos.v, n, f));
        }
      return out;
    };
    const std::vector<SampleAxis> ys = axes(corner[1], bin_h, PH, gh, H), xs = axes(corner[0], bin_w, PW, gw, W);
    const int64_t n = batches[static_cast<size_t>(r)];
    for (int64_t ch = 0; ch < C; ++ch) {
      const int64_t plane = (n * C + ch) * H * W;
      for (int64_t ph = 0; ph < PH; ++ph)
        for (int64_t pw = 0; pw < PW; ++pw) {
          DotBound sum;
          std::optional<Interval> largest;
          for (int64_t iy = 0; iy < gh; ++iy)
            for (int64_t ix = 0; ix < gw; ++ix) {
              const SampleAxis &ay = ys[static_cast<size_t>(ph * gh + iy)], &ax = xs[static_cast<size_t>(pw * gw + ix)];
              if (p.max_mode) {
                const Interval v = roialign_max_sample(x, plane, H, W, ay, ax, f);
                largest = largest ? roialign_max(*largest, v) : v;
              } else {
                sum.add(MidRad::of(multilinear_sample(x, plane, in, st, {ay, ax}, f)), kOne);
              }
            }
          const int64_t i = ((r * C + ch) * PH + ph) * PW + pw;
          set(y, i, p.max_mode ? largest.value_or(Interval::point(0)) : sum.result(count, ts));
        }
    }
  }
  return {y};
}

}  // namespace
}  // namespace sonnx::enclose::roialign

namespace sonnx::enclose {
SONNX_ENCLOSURE("RoiAlign", (10, 16, 22), Allowance::own(), roialign::roi_align);
}  // namespace sonnx::enclose
