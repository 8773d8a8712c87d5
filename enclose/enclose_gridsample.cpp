// The enclosure of GridSample (16, 20, 22): every mode (nearest, linear, cubic; version 16's
// bilinear and bicubic), every padding_mode (zeros, border, reflection), align_corners, and any
// number of spatial axes (from 20). The geometry is the reference's (reference/ops/GridSample.cpp,
// support/grid_sample.h), formula by formula, as Resize's enclosure follows Resize's
// (enclose_resize.cpp): each output element is Σ w·x over the Cartesian product of its axes' taps
// (index, weight), the weights functions of the grid's values.
//
// The grid values are inputs (intervals). Along each axis the unnormalized coordinate is a formula
// of the grid value v and the axis' length s, in the reference's order: align_corners
// ((v + 1)/2)·(s − 1), else ((v + 1)·s − 1)/2; it is carried as an `RI` (rounded_interval.h): under
// `real` exact interval arithmetic, under `admissible` each operation's exact interval result
// rounded outward to the type the implementation computes in (below), which encloses the result
// of every evaluation that rounds each operation to that type or a wider one. The padding maps the
// coordinate: border clamps it to [0, s − 1] (exact); reflection is a triangle wave about the
// corner pixels' centres (align_corners) or their outer edges, continuous and piecewise linear, so
// it is enclosed on the interval by its values at the ends and at the folds the interval holds,
// then clamped; under `admissible` it follows the reference's steps, each an `RI` operation: v − lo
// rounded, the wave of it (fmod and floor exact), span − extra rounded (extra itself is exact),
// + lo rounded; exact steps stay exact, so a coordinate the type holds is not widened. (The
// formula's floor(v/span), rounded up to an integer just below a fold, would flip the parity: no
// allowance grants that.)
//
// Where the coordinate interval holds an integer, the floor (or, in nearest mode, the index
// rint(p), ties to even, nondecreasing in p) may be either: the interval is split into pieces
// between integers, each piece gives its taps, and the element is the hull over the pieces (and
// over their combinations across the axes), as Resize does. Linear: taps (k, 1 − t) and (k + 1, t)
// with t = p − k over the piece; cubic: the unpadded coordinate's floor k, taps k − 1 .. k + 2,
// each index padded separately (an integer, exactly), weights Keys' kernel (A = −0.75) of
// t + 1, t, t − 1, t − 2 over the piece, each branch |d| may take evaluated as an RI. A tap outside
// the input (zeros padding) contributes 0, a tap of weight exactly 0 nothing; a single tap of weight
// exactly 1 on every axis (nearest) moves the value. With zeros padding a coordinate beyond
// [−3, s + 2] reads only padding: 0. A coordinate interval over more than 8 integers, or an
// unbounded one under reflection (or cubic border), is `Undetermined`.
//
// Admissible (Allowance::own()): the coordinates and weights as above, each weight an RI of the
// type; the product of the r weights of a tap and the sum of the n taps' products in any order,
// γ_(n+9)·Σ|w·x| (DotBound with TypeSum: each term's r − 1 product roundings fall within the nine
// spare ones for r ≤ 9, Higham §3.1), rounded outward to the type. The type of the computation is
// the narrower of X's (float for an integer X) and the grid's. An integer X: the float enclosure
// rounded half to even (saturating), kept where both bounds give the same integer, else
// `Undetermined`; in nearest mode every candidate must give the same element.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "enclose_sums.h"
#include "rounded_interval.h"
#include "reference/model/rounding.h"
#include "reference/ops/params/grid_sample.h"
#include "reference/ops/support/grid_sample.h"
#include "reference/ops/support/kernel.h"
#include "reference/ops/support/numeric.h"
#include "sonnx/errors.h"

namespace sonnx::enclose::gridsample_detail {

constexpr int64_t kGridMaxPieces = 8;        // a coordinate interval over more integers is not enclosed
constexpr double kGridMaxCoordinate = 1e15;  // as the reference's index rule
constexpr double kGridCubicA = -0.75;        // the cubic coefficient the reference uses
constexpr size_t kGridMaxProductAxes = 9;    // the spare roundings of DotBound's γ_(n+9)

// One tap: an input index along the axis (inside [0, s)) and its weight.
struct GridTap {
  int64_t index;
  Interval w;
};
// One way an output index may be computed along an axis: its taps (none: it reads only padding).
using GridAlt = std::vector<GridTap>;

// What one axis of the sampling needs.
struct GridAxis {
  int64_t size = 0;
  GridInterp mode = GridInterp::Linear;
  GridPadding pad = GridPadding::Zeros;
  bool align = false;
  const FloatFormat* f = nullptr;  // the type the operations round to (null: exact)
  RI k(double v) const { return rounded(Interval::point(v), f); }
};

Undetermined grid_open(const OpCall& c, const std::string& why) {
  return Undetermined(c.node.label() + ": a sampling coordinate is not determined closely enough at this input (" + why + ")");
}

// The unnormalized coordinate of grid value v, the reference's formula in its order.
RI grid_coordinate(const GridAxis& a, Interval v) {
  RI g = rounded(v, a.f), one = a.k(1), two = a.k(2), s = a.k(static_cast<double>(a.size));
  return a.align ? (g + one) / two * (s - one) : ((g + one) * s - one) / two;
}

// ---- Reflection ----

// The triangle wave of period 2·span with values in [0, span]: |t| folded at each multiple of span,
// at the point t (exact interval).
Interval grid_wave_at(double t, double span) {
  double a = std::fabs(t);
  double k = std::floor(a / span);  // corrected to k·span ≤ a < (k + 1)·span, exactly
  while (k > 0 && k * span > a) --k;
  while ((k + 1) * span <= a) ++k;
  Interval extra = Interval::point(a) - Interval::point(k * span);
  return std::fmod(k, 2.0) == 0 ? extra : Interval::point(span) - extra;
}

// The wave over T: linear between the folds, so the hull of its values at the ends and at the
// folds T holds (0 at even multiples of span, span at odd ones).
Interval grid_wave(Interval T, double span) {
  if (T.width() >= 2 * span) return {0, span};
  Interval h = hull(grid_wave_at(T.lo, span), grid_wave_at(T.hi, span));
  double j = std::ceil(T.lo / span);
  while (j * span > T.lo && (j - 1) * span >= T.lo) --j;
  while (j * span < T.lo) ++j;
  for (; j * span <= T.hi; ++j) h = hull(h, Interval::point(std::fmod(std::fabs(j), 2.0) == 0 ? 0 : span));
  return h;
}

// The reflection into [twice_low/2, twice_high/2] (support::grid_reflect) of every coordinate p
// in P, as computed in the type a.f (see the top).
RI grid_reflect(const GridAxis& a, RI p, double twice_low, double twice_high) {
  if (twice_low == twice_high) return a.k(0);
  double lo = twice_low / 2, span = (twice_high - twice_low) / 2;  // halves of integers: exact
  RI t = p - a.k(lo);
  RI wave = rounded(grid_wave(t.v, span), a.f);  // extra, or span − extra rounded
  return wave + a.k(lo);
}

RI grid_clamp(const GridAxis& a, RI p) {
  double hi = static_cast<double>(a.size - 1);
  return {{std::clamp(p.v.lo, 0.0, hi), std::clamp(p.v.hi, 0.0, hi)}, a.f};
}

// support::grid_pad_coordinate over an interval.
RI grid_pad(const OpCall& c, const GridAxis& a, RI p) {
  if (a.pad == GridPadding::Border) return grid_clamp(a, p);
  if (a.pad == GridPadding::Reflection) {
    if (!std::isfinite(p.v.lo) || !std::isfinite(p.v.hi)) throw grid_open(c, "an unbounded coordinate to reflect");
    double hi = static_cast<double>(a.size - 1), s = static_cast<double>(a.size);
    return grid_clamp(a, a.align ? grid_reflect(a, p, 0, 2 * hi) : grid_reflect(a, p, -1, 2 * s - 1));
  }
  return p;
}

// ---- Keys' cubic kernel over an RI of d ----

RI grid_keys_inner(const GridAxis& a, const RI& d, const RI& A) { return ((A + a.k(2)) * d - (A + a.k(3))) * d * d + a.k(1); }
RI grid_keys_outer(const GridAxis& a, const RI& d, const RI& A) {
  return ((A * d - a.k(5) * A) * d + a.k(8) * A) * d - a.k(4) * A;
}

// support::cubic_weight over the interval of d: the hull over the branches |d| may take.
Interval grid_keys(const GridAxis& a, const RI& d) {
  RI A = a.k(kGridCubicA);
  Interval D = abs(d).v;
  std::optional<Interval> h;
  auto join = [&](Interval v) { h = h ? hull(*h, v) : v; };
  if (D.lo <= 1) join(grid_keys_inner(a, RI{{D.lo, std::min(D.hi, 1.0)}, a.f}, A).v);
  if (D.hi > 1 && D.lo < 2) join(grid_keys_outer(a, RI{{std::max(D.lo, 1.0), std::min(D.hi, 2.0)}, a.f}, A).v);
  if (D.hi >= 2) join(Interval::point(0));
  return *h;
}

// ---- The alternatives of one axis ----

bool grid_is_zero(Interval w) { return w.lo == 0 && w.hi == 0; }

// Adds tap (i, w) where it reads the input and its weight may be other than 0.
void grid_add_tap(GridAlt& alt, const GridAxis& a, int64_t i, Interval w) {
  if (i < 0 || i >= a.size || grid_is_zero(w)) return;
  alt.push_back({i, w});
}

// The pieces of P between consecutive integers: calls f(k, piece) for each, k the floor.
template <class F>
void grid_pieces(const OpCall& c, Interval P, F f) {
  double first = std::floor(P.lo), last = std::floor(P.hi);
  if (last - first >= kGridMaxPieces) throw grid_open(c, "it spans more than " + std::to_string(kGridMaxPieces) + " integers");
  for (double k = first; k <= last; ++k) f(static_cast<int64_t>(k), Interval{std::max(P.lo, k), std::min(P.hi, k + 1)});
}

// Under zeros padding, the part of P beyond [−3, s + 2] reads only padding: an alternative
// without taps, and P cut to the rest (nullopt where nothing is left).
std::optional<Interval> grid_cut(const GridAxis& a, Interval P, std::vector<GridAlt>& alts) {
  double lo = -3, hi = static_cast<double>(a.size) + 2;
  if (P.lo < lo || P.hi > hi) alts.emplace_back();
  if (P.hi < lo || P.lo > hi) return std::nullopt;
  return Interval{std::max(P.lo, lo), std::min(P.hi, hi)};
}

std::vector<GridAlt> grid_axis_alternatives(const OpCall& c, const GridAxis& a, Interval v) {
  RI F = grid_coordinate(a, v);
  if (F.v.has_nan()) throw InternalError("grid_axis_alternatives: an undefined coordinate");
  std::vector<GridAlt> alts;
  RI P = a.mode == GridInterp::Cubic ? F : grid_pad(c, a, F);  // cubic pads each tap's index instead
  Interval range = P.v;
  if (a.pad == GridPadding::Zeros) {
    std::optional<Interval> cut = grid_cut(a, range, alts);
    if (!cut) return alts;
    range = *cut;
  }
  if (!std::isfinite(range.lo) || !std::isfinite(range.hi) || std::fabs(range.lo) > kGridMaxCoordinate ||
      std::fabs(range.hi) > kGridMaxCoordinate)
    throw grid_open(c, "[" + std::to_string(range.lo) + ", " + std::to_string(range.hi) + "]");
  switch (a.mode) {
    case GridInterp::Nearest: {
      auto first = static_cast<int64_t>(std::nearbyint(range.lo)), last = static_cast<int64_t>(std::nearbyint(range.hi));
      if (last - first >= kGridMaxPieces)
        throw grid_open(c, "it spans more than " + std::to_string(kGridMaxPieces) + " indices");
      for (int64_t i = first; i <= last; ++i) {
        GridAlt alt;
        grid_add_tap(alt, a, i, Interval::point(1));
        alts.push_back(std::move(alt));
      }
      break;
    }
    case GridInterp::Linear:
      grid_pieces(c, range, [&](int64_t k, Interval piece) {
        RI t = RI{piece, a.f} - a.k(static_cast<double>(k));
        GridAlt alt;
        grid_add_tap(alt, a, k, (a.k(1) - t).v);
        grid_add_tap(alt, a, k + 1, t.v);
        alts.push_back(std::move(alt));
      });
      break;
    case GridInterp::Cubic:
      grid_pieces(c, range, [&](int64_t k, Interval piece) {
        RI t = RI{piece, a.f} - a.k(static_cast<double>(k));
        GridAlt alt;
        for (int i = 0; i < 4; ++i) {
          double neighbour = static_cast<double>(k - 1 + i);  // an integer: padded exactly
          int64_t index = support::grid_index(support::grid_pad_coordinate(neighbour, a.size, a.pad, a.align));
          grid_add_tap(alt, a, index, grid_keys(a, t - a.k(static_cast<double>(i - 1))));
        }
        alts.push_back(std::move(alt));
      });
      break;
  }
  return alts;
}

// ---- The output elements ----

// Per spatial axis, the alternatives of one output point.
using GridPoint = std::vector<std::vector<GridAlt>>;

// Calls f(picked alternative per axis) for each combination of the point's alternatives.
template <class F>
void grid_each_combination(const GridPoint& g, F f) {
  size_t r = g.size();
  std::vector<const GridAlt*> pick(r);
  std::vector<size_t> choice(r, 0);
  while (true) {
    for (size_t d = 0; d < r; ++d) pick[d] = &g[d][choice[d]];
    f(pick);
    size_t d = r;
    while (d > 0 && ++choice[d - 1] == g[d - 1].size()) choice[--d] = 0;
    if (d == 0) return;
  }
}

// Σ (Π_d w_d)·x over the Cartesian product of the picked taps; value(offset) gives x's interval.
template <class Get>
Interval grid_combination(const std::vector<const GridAlt*>& pick, const std::vector<int64_t>& strides, const TypeSum& ts,
                          Get value) {
  size_t r = pick.size();
  bool moves = true;  // one tap of weight exactly 1 on every axis: the value itself
  for (const GridAlt* alt : pick) {
    if (alt->empty()) return Interval::point(0);
    moves = moves && alt->size() == 1 && (*alt)[0].w.lo == 1 && (*alt)[0].w.hi == 1;
  }
  if (moves) {
    int64_t off = 0;
    for (size_t d = 0; d < r; ++d) off += (*pick[d])[0].index * strides[d];
    return value(off);
  }
  DotBound dot;
  std::vector<size_t> pos(r, 0);
  while (true) {
    Interval w = Interval::point(1);
    int64_t off = 0;
    for (size_t d = 0; d < r; ++d) {
      const GridTap& t = (*pick[d])[pos[d]];
      w = d == 0 ? t.w : w * t.w;
      off += t.index * strides[d];
    }
    dot.add(MidRad::of(w), MidRad::of(value(off)));
    size_t d = r;
    while (d > 0 && ++pos[d - 1] == pick[d - 1]->size()) pos[--d] = 0;
    if (d == 0) break;
  }
  return dot.result(1, ts);
}

// The hull over the combinations of the point's alternatives.
template <class Get>
Interval grid_element(const GridPoint& g, const std::vector<int64_t>& strides, const TypeSum& ts, Get value) {
  std::optional<Interval> h;
  grid_each_combination(g, [&](const std::vector<const GridAlt*>& pick) {
    Interval v = grid_combination(pick, strides, ts, value);
    h = h ? hull(*h, v) : v;
  });
  return *h;
}

// The narrower of two formats (fewer significand bits, else the smaller range).
FloatFormat grid_narrower(const FloatFormat& a, const FloatFormat& b) {
  if (a.precision != b.precision) return a.precision < b.precision ? a : b;
  return a.max_finite <= b.max_finite ? a : b;
}

std::vector<Bounds> enclose_grid_sample(const OpCall& c) {
  const Bounds& xb = c.input(0);
  const Bounds& grid = float_input(c, 1);
  GridSampleParams p = GridSampleParams::read(c.ctx, c.version);
  const Shape& xs = xb.lo.shape();
  const Shape& gs = grid.lo.shape();
  const auto r = static_cast<int64_t>(xs.size()) - 2;
  if (c.version < 20 && xs.size() != 4) c.ctx.fail("X must be 4-D [N, C, H, W], got " + shape_str(xs));
  if (r < 1) c.ctx.fail("X must be (N, C, D1, ...), got " + shape_str(xs));
  if (static_cast<int64_t>(gs.size()) != r + 2 || gs.back() != r || gs[0] != xs[0])
    c.ctx.fail("grid must be (N, D1_out, ..., " + std::to_string(r) + ") with X's N, got " + shape_str(gs));
  const bool admissible = c.semantics == Semantics::Admissible;
  if (admissible && static_cast<size_t>(r) > kGridMaxProductAxes)
    throw Unsupported("no enclosure for " + op_name(c) + " over more than " + std::to_string(kGridMaxProductAxes) + " axes");
  if (!is_float(xb.type) && !is_integer(xb.type)) throw Unsupported("no enclosure for " + op_name(c) + " of this X type");
  // The type the admissible computation rounds to.
  const FloatFormat type = grid_narrower(float_format(is_float(xb.type) ? xb.type : DType::Float), float_format(grid.type));
  const FloatFormat* rounding = admissible ? &type : nullptr;
  const TypeSum ts = admissible ? TypeSum::of(type) : TypeSum{};
  const int64_t N = xs[0], C = xs[1];
  Shape in(xs.begin() + 2, xs.end()), out_sp(gs.begin() + 1, gs.end() - 1);
  const int64_t in_plane = shape_size(in), out_plane = shape_size(out_sp);
  const std::vector<int64_t> strides = support::strides_of(in);
  Shape out_shape{N, C};
  out_shape.insert(out_shape.end(), out_sp.begin(), out_sp.end());
  std::vector<GridAxis> axes;
  for (int64_t d = 0; d < r; ++d) axes.push_back({in[static_cast<size_t>(d)], p.mode, p.padding, p.align_corners, rounding});

  // The alternatives of point (n, o), or nullopt where a grid value is undefined.
  auto point = [&](int64_t n, int64_t o) -> std::optional<GridPoint> {
    GridPoint g(static_cast<size_t>(r));
    for (int64_t d = 0; d < r; ++d) {
      Interval v = at(grid, (n * out_plane + o) * r + (r - 1 - d));  // the last spatial axis comes first
      if (v.has_nan()) return std::nullopt;
      g[static_cast<size_t>(d)] = grid_axis_alternatives(c, axes[static_cast<size_t>(d)], v);
    }
    return g;
  };

  if (!xb.exact()) {
    Bounds y = float_bounds(xb.type, out_shape);
    for (int64_t n = 0; n < N; ++n)
      for (int64_t o = 0; o < out_plane; ++o) {
        std::optional<GridPoint> g = point(n, o);
        for (int64_t ch = 0; ch < C; ++ch) {
          int64_t base = (n * C + ch) * in_plane;
          Interval v = g ? grid_element(*g, strides, ts, [&](int64_t off) { return at(xb, base + off); })
                         : Interval::undefined();
          set(y, (n * C + ch) * out_plane + o, admissible ? type.round_out(v) : v);
        }
      }
    return {y};
  }

  // An integer X: the interpolated value rounded half to even, kept where the bounds decide it.
  const Tensor& x = xb.lo;
  Tensor y(x.dtype(), out_shape);
  auto value = [&](int64_t off) {
    double v = x.as_double(off);
    return std::fabs(v) < 0x1p53 ? Interval::point(v) : Interval{down(v), up(v)};
  };
  support::visit_real(c.ctx, x.dtype(), [&]<class T>() {
    if constexpr (std::is_integral_v<T>) {
      T* py = y.data<T>();
      for (int64_t n = 0; n < N; ++n)
        for (int64_t o = 0; o < out_plane; ++o) {
          std::optional<GridPoint> g = point(n, o);
          for (int64_t ch = 0; ch < C; ++ch) {
            int64_t base = (n * C + ch) * in_plane, k = (n * C + ch) * out_plane + o;
            Interval v = g ? grid_element(*g, strides, ts, [&](int64_t off) { return value(base + off); })
                           : Interval::undefined();
            T lo = support::saturating_cast<T>(round_half_even(v.lo)), hi = support::saturating_cast<T>(round_half_even(v.hi));
            if (v.has_nan() || lo != hi)
              throw Undetermined(c.node.label() + ": element " + std::to_string(k) + " of its " +
                                 std::string(dtype_name(x.dtype())) +
                                 " output is not determined at this input: its enclosure leaves more than one value");
            py[k] = lo;
          }
        }
    }
  });
  return {Bounds::of(y)};
}

}  // namespace sonnx::enclose::gridsample_detail

namespace sonnx::enclose {
SONNX_ENCLOSURE("GridSample", (16, 20, 22), Allowance::own(), gridsample_detail::enclose_grid_sample);
}  // namespace sonnx::enclose
