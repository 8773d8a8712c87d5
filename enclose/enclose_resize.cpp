// The enclosure of Resize (versions 10, 11, 13, 18, 19), every mode: nearest, linear (n-linear) and
// cubic, every coordinate_transformation_mode, antialias, axes, keep_aspect_ratio_policy, scales or
// sizes, extrapolation_value. The geometry follows the reference kernel (reference/ops/Resize.cpp,
// support/resample.h) formula by formula: each output element is Σ w·x over the Cartesian product
// of its axes' taps (index, weight), the weights functions of the scales (or sizes), roi and the
// output index alone.
//
// Real semantics. Where the scales and roi are points (given values), the coordinate x_original of
// each output index is computed exactly, as a rational (Q over GMP, rational.h), from the ONNX
// formula with the exact scale (the given float, or sizes / input length as a rational; the
// reference computes both in double, so near a tie or an integer it may pick another neighbour than
// the exact value does: the enclosure is the exact one). The floor, the nearest index and the crop
// test are then decided exactly, the weights are exact rationals enclosed in doubles (a point where
// the double holds it, else one ulp wide), and Σ w·x is summed by Dot2 (accurate_dot; a point where
// the sum is exact in every order: ExactSum; both exact_sum.h).
// Where the scales or roi are intervals (computed by the model), the coordinates are intervals
// (below), computed exactly.
//
// Interval coordinates. The coordinate interval X is split where the floor changes; each piece
// gives its taps, and the element is the hull over the pieces. Sound because the computed result
// for every x in X is that of one piece; and tight because linear and cubic interpolation are
// continuous in x (the taps that enter or leave at an integer have weight 0 there), so the pieces
// agree at their ends. In nearest mode, the candidate indices are every index the rounding rule
// gives over X: the element is the hull of those input elements (as MaxPool's is of its window).
// With tf_crop_and_resize, X may also be partly outside [0, in − 1]: the hull takes
// extrapolation_value too. A discrete value the bounds leave open is Undetermined: an output
// length, an integer output element (X of an integer type), an antialias window.
//
// Admissible semantics (Allowance::own()). An implementation computes the coordinates and weights in
// the element type or any wider format, each operation of the spec's formula (in its order, as the
// reference evaluates it) correctly rounded, and the sum Σ w·x in any order in the element type:
// - the coordinate: each operation's result lies between the element type's values on either side of
//   the exact result of that operation on the operands (rounding to any precision ≥ the type's lands
//   there, and rounding is monotone), and is that value where the type holds it exactly: so it is
//   carried as an interval `RI` (rounded_interval.h), each operation its exact interval result
//   rounded outward to the type (an exact result stays a point: at an exact tie the implementation
//   ties too). The given scales and roi are rounded outward likewise (an implementation may hold
//   them in the type). It is split into pieces as above, so a floor or nearest index the rounding
//   may move is covered by both candidates;
// - the weights, as functions of the computed coordinate (and scale, for antialias) over the piece,
//   two ways, both sound, the output taking the intersection of what each gives: (1) `EA`
//   (mean_value.h), a mean-value form: the exact function's value at the piece's centre, its
//   gradient over the piece, and an a-priori bound on |computed − exact| (u·|v| + one smallest
//   subnormal per rounded operation, propagated through the formula), so the weights of one output,
//   which move together (Σ w_i = 1), cost |Σ_i w_i'·x_i|·(half the piece) rather than
//   Σ_i |w_i'|·|x_i|·(the piece);
//   (2) `RI` over the piece, each operation rounded outward (tighter where the errors stay within the
//   type's values at the intervals' ends). The product of a tap's per-axis weights is rounded the
//   same way;
// - the sum Σ w_i·x_i of n taps in any order: γ_(n+9)·Σ|w_i·x_i| and one smallest subnormal per term,
//   as DotBound's TypeSum for the pools (dot.h);
// - the result is rounded outward to the type (admit()).
// These are worst-case bounds: Keys' cubic kernel evaluated in float by the reference's formula
// cancels (its outer branch sums terms up to about 6 to results below 1), so a cubic output's
// admissible enclosure spans some hundreds of float ulps where a linear one spans some tens.
// The output shape is the exact one (an implementation must produce the spec's shape). For an
// integer X (linear and cubic round the interpolated value half to even), float is taken as the
// type of the computation; the integer is kept where the bounds decide its rounding. A sum that is
// exact in every order (ExactSum) is a point in both semantics.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "enclose_sums.h"
#include "exact_sum.h"
#include "mean_value.h"
#include "rational.h"
#include "rounded_interval.h"
#include "sonnx/errors.h"
#include "reference/model/rounding.h"
#include "reference/ops/support/kernel.h"
#include "reference/ops/support/numeric.h"
#include "reference/ops/support/resample.h"

namespace sonnx::enclose {

namespace {

using support::CoordMode;
using support::NearestRound;
using support::ResizeMode;

std::string resize_name(const OpCall& c) { return c.node.label(); }

// ---- The geometry's arithmetics: exact rationals (Q, rational.h), rounded intervals (RI,
// rounded_interval.h): what an operation may compute (exact with f null, else in the type f) ----

// The constants and the given values (scale, roi) of each.
struct QMaker {
  Q operator()(double v) const { return Q(v); }
  // A given value (scale, roi): a point here.
  Q given(Interval i) const { return Q(i.lo); }
};

struct RIMaker {
  const FloatFormat* f = nullptr;
  RI operator()(double v) const { return rounded(Interval::point(v), f); }
  RI given(Interval i) const { return rounded(i, f); }
};

// ---- The operator's description, as the reference reads it ----

// The attributes, as the reference reads them.
using Params = support::ResizeParams;

// How one axis gets its output length and scale.
enum class From { Keep, Scale, Size, Aspect };
using support::AspectPolicy;

struct AxisSpec {
  int64_t in = 0;
  From from = From::Keep;
  Interval scale;    // From::Scale: the given scale
  int64_t size = 0;  // From::Size, From::Aspect: the given size
  Interval roi_start = Interval::point(0), roi_end = Interval::point(1);
};

struct Spec {
  std::vector<AxisSpec> axes;
  AspectPolicy policy = AspectPolicy::Stretch;
  bool points = true;  // every scale and roi value the geometry reads is a point
};

// A float input's values as intervals (empty when omitted or of no elements).
std::vector<Interval> optional_intervals(const OpCall& c, size_t k) {
  if (k >= c.in.size() || !c.in[k]) return {};
  const Bounds& b = *c.in[k];
  if (b.exact()) c.ctx.fail("input " + std::to_string(k) + " must be a floating tensor");
  std::vector<Interval> v;
  for (int64_t i = 0; i < b.lo.size(); ++i) v.push_back(at(b, i));
  return v;
}

bool is_point(Interval i) { return i.lo == i.hi && std::isfinite(i.lo); }

// A scale must be positive and finite: the reference traps otherwise.
Interval checked_scale(const OpCall& c, Interval s) {
  if (s.lo > 0 && std::isfinite(s.hi)) return s;
  if (!s.has_nan() && (s.lo == s.hi || s.hi <= 0)) c.ctx.fail("scales must be positive and finite");
  throw Undetermined(resize_name(c) + ": a scale is " + (s.has_nan() ? "undefined" : "not known to be positive and finite") +
                     " at this input");
}

Spec spec_of(const OpCall& c, const Params& p) {
  const Bounds& x = c.input(0);
  int64_t rank = x.lo.rank();
  Spec s;
  s.axes.resize(static_cast<size_t>(rank));
  for (int64_t d = 0; d < rank; ++d) s.axes[static_cast<size_t>(d)].in = x.lo.dim(d);
  if (c.version < 11) {
    std::vector<Interval> scales = optional_intervals(c, 1);
    if (static_cast<int64_t>(scales.size()) != rank)
      c.ctx.fail("scales has " + std::to_string(scales.size()) + " values, expected the rank " + std::to_string(rank));
    for (size_t d = 0; d < scales.size(); ++d) {
      s.axes[d].from = From::Scale;
      s.axes[d].scale = checked_scale(c, scales[d]);
      s.points = s.points && is_point(scales[d]);
    }
    return s;
  }
  // The axes roi, scales and sizes name (versions 18 and 19; all of them before).
  std::vector<size_t> named;
  if (std::string why = p.named_axes(rank, named); !why.empty()) c.ctx.fail(why);
  size_t n = named.size();
  if (p.coord == CoordMode::TfCropAndResize) {
    std::vector<Interval> roi = optional_intervals(c, 1);
    if (!roi.empty()) {
      if (roi.size() != 2 * n)
        c.ctx.fail("roi has " + std::to_string(roi.size()) + " values, expected " + std::to_string(2 * n));
      for (size_t i = 0; i < n; ++i) {
        s.axes[named[i]].roi_start = roi[i];
        s.axes[named[i]].roi_end = roi[n + i];
        s.points = s.points && is_point(roi[i]) && is_point(roi[n + i]);
      }
    }
  }
  std::vector<Interval> scales = optional_intervals(c, 2);
  std::vector<int64_t> sizes;
  if (c.in.size() > 3 && c.in[3]) {
    const Bounds& t = *c.in[3];
    if (!is_integer(t.type)) c.ctx.fail("sizes must be an integer tensor");
    sizes = t.lo.to_int64_vector();
  }
  if (!scales.empty() && !sizes.empty()) c.ctx.fail("only one of scales and sizes may be given");
  if (scales.empty() && sizes.empty()) c.ctx.fail("one of scales and sizes must be given");
  if (!sizes.empty()) {
    if (sizes.size() != n)
      c.ctx.fail("sizes has " + std::to_string(sizes.size()) + " values for " + std::to_string(n) + " axes");
    for (int64_t v : sizes)
      if (v < 0) c.ctx.fail("sizes must not be negative");
    s.policy = p.policy;
    for (size_t i = 0; i < n; ++i) {
      AxisSpec& a = s.axes[named[i]];
      if (s.policy != AspectPolicy::Stretch && a.in == 0) c.ctx.fail("cannot keep the aspect ratio of an empty axis");
      a.from = s.policy == AspectPolicy::Stretch ? From::Size : From::Aspect;
      a.size = sizes[i];
    }
  } else {
    if (scales.size() != n)
      c.ctx.fail("scales has " + std::to_string(scales.size()) + " values for " + std::to_string(n) + " axes");
    for (size_t i = 0; i < n; ++i) {
      AxisSpec& a = s.axes[named[i]];
      a.from = From::Scale;
      a.scale = checked_scale(c, scales[i]);
      s.points = s.points && is_point(scales[i]);
    }
  }
  return s;
}

// ---- The geometry, over exact rationals (Q) or rounded intervals (RI) ----

template <class T>
struct Axis {
  int64_t in = 0, out = 0;
  T scale, resized_length, roi_start, roi_end;
};

// The one scale of keep_aspect_ratio_policy: the min (not_larger) or max (not_smaller) of
// size / in over the named axes.
template <class M>
auto aspect_scale(const M& k, const Spec& s) {
  using T = decltype(k(0.0));
  std::optional<T> scale;
  for (const AxisSpec& a : s.axes) {
    if (a.from != From::Aspect) continue;
    T r = k(static_cast<double>(a.size)) / k(static_cast<double>(a.in));
    scale = !scale ? r : s.policy == AspectPolicy::NotLarger ? min(*scale, r) : max(*scale, r);
  }
  return scale ? *scale : k(1.0);
}

// scale, resized_length (the length_resized of align_corners and half_pixel_symmetric: in·scale,
// or the size) and roi of each axis, as the reference derives them.
template <class M>
auto axes_of(const M& k, const Spec& s) {
  using T = decltype(k(0.0));
  T aspect = aspect_scale(k, s);
  std::vector<Axis<T>> axes;
  for (const AxisSpec& a : s.axes) {
    T in = k(static_cast<double>(a.in));
    Axis<T> x{a.in, 0, k(1.0), in, k.given(a.roi_start), k.given(a.roi_end)};
    switch (a.from) {
      case From::Keep: break;
      case From::Scale:
        x.scale = k.given(a.scale);
        x.resized_length = in * x.scale;
        break;
      case From::Size:
        x.scale = a.in == 0 ? k(1.0) : k(static_cast<double>(a.size)) / in;
        x.resized_length = k(static_cast<double>(a.size));
        break;
      case From::Aspect:
        x.scale = aspect;
        x.resized_length = in * aspect;
        break;
    }
    axes.push_back(x);
  }
  return axes;
}

int64_t floor_of(const OpCall& c, const Q& q) {
  if (q.cmp(-1e18) < 0 || q.cmp(1e19) > 0) c.ctx.fail("an output length is out of range");
  return q.floor();
}
int64_t floor_of(const OpCall& c, const RI& r) {
  if (!std::isfinite(r.v.lo) || !std::isfinite(r.v.hi) || r.v.lo < -1e18 || r.v.hi > 1e19)
    throw Undetermined(resize_name(c) + ": an output length is not determined at this input");
  double lo = std::floor(r.v.lo), hi = std::floor(r.v.hi);
  if (lo != hi)
    throw Undetermined(resize_name(c) +
                       ": an output length is not determined at this input: the scales' (or roi's) enclosures leave " +
                       "floor of a value in [" + std::to_string(r.v.lo) + ", " + std::to_string(r.v.hi) + "] open");
  return static_cast<int64_t>(lo);
}

// The output lengths: floor(in·scale) (floor(in·(roi_end − roi_start)·scale) for tf_crop_and_resize),
// the sizes, or round_half_up(in·scale) under keep_aspect_ratio_policy.
template <class M>
std::vector<int64_t> lengths(const OpCall& c, const M& k, const Spec& s, const Params& p) {
  auto axes = axes_of(k, s);
  std::vector<int64_t> out;
  for (size_t d = 0; d < axes.size(); ++d) {
    const AxisSpec& a = s.axes[d];
    auto in = k(static_cast<double>(a.in));
    int64_t len = a.in;
    if (a.from == From::Scale) {
      auto factor = p.coord == CoordMode::TfCropAndResize && c.version >= 11
                        ? (axes[d].roi_end - axes[d].roi_start) * axes[d].scale
                        : axes[d].scale;
      len = floor_of(c, in * factor);
    } else if (a.from == From::Size) {
      len = a.size;
    } else if (a.from == From::Aspect) {
      len = floor_of(c, in * axes[d].scale + k(0.5));
    }
    if (len < 0 || len > static_cast<int64_t>(9e18)) c.ctx.fail("the output length " + std::to_string(len) + " is out of range");
    out.push_back(len);
  }
  return out;
}

// Tri-state equality of a value to 1.
bool is_one(const OpCall&, const Q& q) { return q.cmp(1.0) == 0; }
bool is_one(const OpCall& c, const RI& r) {
  if (r.v.lo == 1 && r.v.hi == 1) return true;
  if (!r.v.contains(1)) return false;
  throw Undetermined(resize_name(c) + ": whether length_resized is 1 (align_corners) is not determined at this input");
}

// x_original of output index o, the formula of support::original_coordinate in its order.
template <class M, class T>
T coordinate(const OpCall& c, const M& k, const Axis<T>& a, CoordMode mode, int64_t o) {
  T x = k(static_cast<double>(o)), in = k(static_cast<double>(a.in)), half = k(0.5), one = k(1.0);
  switch (mode) {
    case CoordMode::HalfPixel: return (x + half) / a.scale - half;
    case CoordMode::HalfPixelSymmetric: {
      T adjustment = k(static_cast<double>(a.out)) / a.resized_length;
      return in / k(2.0) * (one - adjustment) + (x + half) / a.scale - half;
    }
    case CoordMode::PytorchHalfPixel: return a.out > 1 ? (x + half) / a.scale - half : k(0.0);
    case CoordMode::AlignCorners: return is_one(c, a.resized_length) ? k(0.0) : x * (in - one) / (a.resized_length - one);
    case CoordMode::Asymmetric: return x / a.scale;
    case CoordMode::TfHalfPixelForNN: return (x + half) / a.scale;
    case CoordMode::TfCropAndResize:
      if (a.out > 1)
        return a.roi_start * (in - one) + x * (a.roi_end - a.roi_start) * (in - one) / k(static_cast<double>(a.out - 1));
      return half * (a.roi_start + a.roi_end) * (in - one);
  }
  return k(0.0);
}

// ---- Weights over a box of computed coordinates (EA: mean_value.h; RI) ----

struct EAMaker {
  const FloatFormat* f = nullptr;
  EA operator()(double v) const { return EA::constant(v, f); }
};

// The cubic convolution kernel W(d) (support::cubic_weight): on rationals, the branch of |d|; over a
// box, the hull of the branches |d| may take, which is sound for the mean-value form because W is
// continuous with a continuous derivative (both branches meet with value 0 and slope A at |d| = 1,
// value and slope 0 at 2). The computed |d̂| may lie on another branch than the exact |d|: the error
// is then the error of evaluating the branch of d̂ at d̂ plus |W(d̂) − W(d)| ≤ max|W'|·e_d.
Q cubic_weight(const QMaker& k, Q d, const Q& A) {
  d = abs(d);
  if (d.cmp(1) <= 0) return ((A + k(2)) * d - (A + k(3))) * d * d + k(1);
  if (d.cmp(2) < 0) return ((A * d - k(5) * A) * d + k(8) * A) * d - k(4) * A;
  return k(0);
}

template <class T, class M>
T keys_inner(const M& k, const T& d, const T& A) {
  return ((A + k(2)) * d - (A + k(3))) * d * d + k(1);
}
template <class T, class M>
T keys_outer(const M& k, const T& d, const T& A) {
  return ((A * d - k(5) * A) * d + k(8) * A) * d - k(4) * A;
}

struct IMaker {  // exact interval constants
  Interval operator()(double v) const { return Interval::point(v); }
};

// W over an interval of |d| (exact), and its derivative W'.
Interval keys_range(Interval d, Interval A) {
  std::optional<Interval> h;
  auto join = [&](Interval v) { h = h ? hull(*h, v) : v; };
  if (d.lo <= 1) join(keys_inner(IMaker{}, Interval{d.lo, std::min(d.hi, 1.0)}, A));
  if (d.hi > 1 && d.lo < 2) join(keys_outer(IMaker{}, Interval{std::max(d.lo, 1.0), std::min(d.hi, 2.0)}, A));
  if (d.hi >= 2) join(Interval::point(0));
  return bounded(*h);
}
Interval keys_slope(Interval d, Interval A) {
  IMaker k;
  std::optional<Interval> h;
  auto join = [&](Interval v) { h = h ? hull(*h, v) : v; };
  if (d.lo <= 1) {  // 3(A + 2)d² − 2(A + 3)d
    Interval x{d.lo, std::min(d.hi, 1.0)};
    join(k(3) * (A + k(2)) * x * x - k(2) * (A + k(3)) * x);
  }
  if (d.hi > 1 && d.lo < 2) {  // 3A·d² − 10A·d + 8A
    Interval x{std::max(d.lo, 1.0), std::min(d.hi, 2.0)};
    join(k(3) * A * x * x - k(10) * A * x + k(8) * A);
  }
  if (d.hi >= 2) join(Interval::point(0));
  return bounded(*h);
}

EA cubic_weight(const EAMaker& k, const EA& d0, const EA& A) {
  EA D = abs(d0);
  if (!std::isfinite(D.R.lo) || !std::isfinite(D.R.hi) || !std::isfinite(D.e)) return EA::unbounded(k.f);
  Interval a = A.R;  // the exact coefficient
  EA w{keys_range(D.R, a), keys_range(D.C, a), combine(D.G, keys_slope(D.R, a), {}, {}), 0, k.f};
  // Where the computed |d̂| lies, and the error of evaluating W there.
  Interval dc = D.e == 0 ? D.R : Interval{std::max(0.0, down(D.R.lo - D.e)), up(D.R.hi + D.e)};
  double eval = 0;
  auto branch = [&](Interval x, bool inner) {
    EA arg{x, Interval::point(0.5 * x.lo + 0.5 * x.hi), {}, 0, k.f};
    eval = std::max(eval, (inner ? keys_inner(k, arg, A) : keys_outer(k, arg, A)).e);
  };
  if (dc.lo <= 1) branch({dc.lo, std::min(dc.hi, 1.0)}, true);
  if (dc.hi > 1 && dc.lo < 2) branch({std::max(dc.lo, 1.0), std::min(dc.hi, 2.0)}, false);
  w.e = upz(eval + mulup(magnitude(keys_slope(dc, a)), D.e));
  return w;
}

// The same weights as rounded intervals (RI): each operation's exact interval result rounded outward
// to the type. Rounding is monotone, so an operation whose exact results over the operands' intervals
// run between two values of the type stays between them, whatever the precision: tighter than the
// additive error bound of EA where the intervals' ends are values of the type, looser where the
// weights of one output move together. Both are sound; the output takes the intersection.
RI cubic_weight(const RIMaker& k, const RI& d0, const RI& A) {
  Interval D = abs(d0).v;
  if (!std::isfinite(D.hi) || D.has_nan()) return {Interval::whole(), k.f};
  std::optional<Interval> h;
  auto join = [&](Interval v) { h = h ? hull(*h, v) : v; };
  if (D.lo <= 1) join(keys_inner(k, RI{{D.lo, std::min(D.hi, 1.0)}, k.f}, A).v);
  if (D.hi > 1 && D.lo < 2) join(keys_outer(k, RI{{std::max(D.lo, 1.0), std::min(D.hi, 2.0)}, k.f}, A).v);
  if (D.hi >= 2) join(Interval::point(0));
  return {bounded(*h), k.f};
}

// Both at once: the template code of the taps runs once.
struct Both {
  EA ea;
  RI ri;
};
Both operator+(const Both& a, const Both& b) { return {a.ea + b.ea, a.ri + b.ri}; }
Both operator-(const Both& a, const Both& b) { return {a.ea - b.ea, a.ri - b.ri}; }
Both operator*(const Both& a, const Both& b) { return {a.ea * b.ea, a.ri * b.ri}; }
Both operator/(const Both& a, const Both& b) { return {a.ea / b.ea, a.ri / b.ri}; }
Both abs(const Both& a) { return {abs(a.ea), abs(a.ri)}; }
Both max0(const Both& a) { return {max0(a.ea), max0(a.ri)}; }
bool is_zero(const Both& a) { return is_zero(a.ea) && is_zero(a.ri); }
struct BothMaker {
  const FloatFormat* f = nullptr;
  Both operator()(double v) const { return {EA::constant(v, f), RIMaker{f}(v)}; }
};
Both cubic_weight(const BothMaker& k, const Both& d, const Both& A) {
  return {cubic_weight(EAMaker{k.f}, d.ea, A.ea), cubic_weight(RIMaker{k.f}, d.ri, A.ri)};
}
Both variable(Interval box, int id, const FloatFormat* f) {
  return {EA::variable(box, 0.5 * box.lo + 0.5 * box.hi, id, f), RI{box, f}};
}

// A tap's weight as the output sum takes it: both forms.
struct TapW {
  EA ea;
  Interval ri;
};
TapW weight_of(const Q& q) {
  Interval i = q.enclose();
  return {{i, i, {}, 0, nullptr}, i};
}
TapW weight_of(const Both& a) { return {a.ea, a.ri.v}; }

using Taps = std::vector<std::pair<int64_t, TapW>>;

// What the taps of one axis need besides the coordinate.
template <class T>
struct TapRule {
  int64_t in = 0;
  ResizeMode mode = ResizeMode::Linear;
  bool antialias = false, exclude_outside = false;
  T A, s;             // cubic_coeff_a; min(scale, 1) for antialias
  int64_t first = 0;  // antialias: the first offset, floor(−support / s) + 1 (at most the reference's)
};

// The taps (support::axis_taps, linear and cubic) of coordinate x, whose floor is x0 (f = x − x0).
// Antialias: the reference's base is ⌈x⌉ − 1 (x0, or x0 − 1 where x is an integer) and its taps
// base + i for i in [first, 1 − first]; base x0 and i in [first − 1, 2 − first] hold both, and the
// extra taps lie at |d| ≥ support, where the kernel is 0 (dropped where it is exactly 0).
template <class M, class T>
Taps interp_taps(const M& k, int64_t x0, const T& x, const T& f, const TapRule<T>& r) {
  std::vector<std::pair<int64_t, T>> raw;
  bool defined = true;
  auto normalize = [&](const T& sum) {
    if (is_zero(sum)) defined = false;  // 0/0: NaN weights
    else
      for (auto& [i, w] : raw) w = w / sum;
  };
  if (r.antialias) {
    T sum = k(0.0);
    for (int64_t i = r.first - 1; i <= 2 - r.first; ++i) {
      T d = r.s * (k(static_cast<double>(x0 + i)) - x);
      T w = r.mode == ResizeMode::Linear ? max0(k(1.0) - abs(d)) : cubic_weight(k, d, r.A);
      sum = sum + w;
      raw.push_back({x0 + i, w});
    }
    normalize(sum);
  } else if (r.mode == ResizeMode::Linear) {
    raw = {{x0, k(1.0) - f}, {x0 + 1, f}};
  } else {
    raw = {{x0 - 1, cubic_weight(k, f + k(1.0), r.A)},
           {x0, cubic_weight(k, f, r.A)},
           {x0 + 1, cubic_weight(k, k(1.0) - f, r.A)},
           {x0 + 2, cubic_weight(k, k(2.0) - f, r.A)}};
  }
  if (r.exclude_outside && defined) {
    T sum = k(0.0);
    for (auto& [i, w] : raw) {
      if (i < 0 || i >= r.in) w = k(0.0);
      sum = sum + w;
    }
    normalize(sum);
  }
  Taps taps;
  for (const auto& [i, w] : raw) {
    if (defined && is_zero(w)) continue;
    TapW v = defined ? weight_of(w)
                     : TapW{{Interval::undefined(), Interval::undefined(), {}, 0, nullptr}, Interval::undefined()};
    taps.push_back({std::clamp<int64_t>(i, 0, r.in - 1), v});
  }
  return taps;
}

// One way an output index along an axis may be computed: outside the crop, or these taps, whose
// weights are functions of the axis' computed coordinate in box_x and scale in box_s (centres cx, cs).
struct Alt {
  bool outside = false;
  Taps taps;
  Interval box_x = Interval::point(0), box_s = Interval::point(0);
  double cx = 0, cs = 0;
};

Taps one_tap(int64_t i) { return {{i, TapW{{Interval::point(1), Interval::point(1), {}, 0, nullptr}, Interval::point(1)}}}; }

// The nearest index rule on a double (support::axis_taps).
double nearest_of(double x, NearestRound rule, bool downsampling) {
  switch (rule) {
    case NearestRound::RoundPreferFloor: return std::ceil(x - 0.5);
    case NearestRound::RoundPreferCeil: return std::floor(x + 0.5);
    case NearestRound::Floor: return std::floor(x);
    case NearestRound::Ceil: return std::ceil(x);
    case NearestRound::Simple: return downsampling ? std::ceil(x) : std::floor(x);
  }
  return 0;
}

int64_t nearest_of(const Q& x, NearestRound rule, bool downsampling) {
  Q half(0.5);
  switch (rule) {
    case NearestRound::RoundPreferFloor: return (x - half).ceil();
    case NearestRound::RoundPreferCeil: return (x + half).floor();
    case NearestRound::Floor: return x.floor();
    case NearestRound::Ceil: return x.ceil();
    case NearestRound::Simple: return downsampling ? x.ceil() : x.floor();
  }
  return 0;
}

constexpr double kMaxCoordinate = 1e15;  // beyond it the reference traps

// The alternatives of output index o along an axis, from its exact coordinate: exactly one.
std::vector<Alt> alternatives(const OpCall& c, const QMaker& k, const Axis<Q>& a, const TapRule<Q>& r, const Params& p,
                              int64_t o) {
  Q x = coordinate(c, k, a, p.coord, o);
  if (p.coord == CoordMode::TfCropAndResize && (x.sign() < 0 || x.cmp(static_cast<double>(a.in - 1)) > 0))
    return {Alt{true, {}}};
  if (abs(x).cmp(kMaxCoordinate) > 0) c.ctx.fail("resize coordinate is not finite (check scales/roi)");
  if (p.mode == ResizeMode::Nearest) {
    int64_t i = nearest_of(x, p.nearest, a.scale.cmp(1) < 0);
    return {Alt{false, one_tap(std::clamp<int64_t>(i, 0, a.in - 1))}};
  }
  int64_t x0 = x.floor();
  return {Alt{false, interp_taps(k, x0, x, x - k(static_cast<double>(x0)), r)}};
}

constexpr int64_t kMaxPieces = 8;  // a coordinate interval over more integers is not enclosed

// The alternatives of output index o along axis d, from the interval of its computed coordinate.
std::vector<Alt> alternatives(const OpCall& c, const BothMaker& k, const Axis<RI>& a, const TapRule<Both>& r, const Params& p,
                              int64_t o, int d) {
  Interval x = coordinate(c, RIMaker{k.f}, a, p.coord, o).v;
  std::vector<Alt> alts;
  auto open = [&](const std::string& why) {
    return Undetermined(resize_name(c) + ": the coordinate of output index " + std::to_string(o) +
                        " is not determined closely enough at this input (" + why + ")");
  };
  if (x.has_nan()) throw open("undefined");
  if (p.coord == CoordMode::TfCropAndResize) {
    double last = static_cast<double>(a.in - 1);
    if (x.lo < 0 || x.hi > last) alts.push_back(Alt{true, {}});
    if (x.hi < 0 || x.lo > last) return alts;
    x = {std::max(x.lo, 0.0), std::min(x.hi, last)};
  }
  if (!std::isfinite(x.lo) || !std::isfinite(x.hi) || std::fabs(x.lo) > kMaxCoordinate || std::fabs(x.hi) > kMaxCoordinate)
    throw open("[" + std::to_string(x.lo) + ", " + std::to_string(x.hi) + "]");
  if (p.mode == ResizeMode::Nearest) {
    // The rule is nondecreasing in x: every index between its values at the ends. Upsample's rule
    // (version 10) depends on whether the scale is below 1: both where that is open.
    double lo = nearest_of(x.lo, p.nearest, a.scale.v.hi < 1), hi = nearest_of(x.hi, p.nearest, !(a.scale.v.lo >= 1));
    int64_t first = std::clamp<int64_t>(static_cast<int64_t>(lo), 0, a.in - 1),
            last = std::clamp<int64_t>(static_cast<int64_t>(hi), 0, a.in - 1);
    for (int64_t i = first; i <= last; ++i) alts.push_back(Alt{false, one_tap(i)});
    return alts;
  }
  double f0 = std::floor(x.lo), f1 = std::floor(x.hi);
  if (f1 - f0 >= kMaxPieces) throw open("it spans more than " + std::to_string(kMaxPieces) + " integers");
  for (double k0 = f0; k0 <= f1; ++k0) {
    Interval piece{std::max(x.lo, k0), std::min(x.hi, k0 + 1)};
    Both xv = variable(piece, 2 * d, k.f);
    Alt alt{false, interp_taps(k, static_cast<int64_t>(k0), xv, xv - k(k0), r), piece, r.s.ea.R, xv.ea.C.lo, r.s.ea.C.lo};
    alts.push_back(std::move(alt));
  }
  return alts;
}

int64_t first_offset(const Q& s, double support, const OpCall&) { return (Q(-support) / s).floor() + 1; }
int64_t first_offset(const Both& s, double support, const OpCall& c) {  // the smallest any ŝ in the box allows
  Interval q = Interval::point(-support) / Interval::point(s.ea.R.lo);
  if (!std::isfinite(q.lo) || q.lo < -1e6)
    throw Undetermined(resize_name(c) + ": the antialias window is not determined at this input");
  return static_cast<int64_t>(std::floor(q.lo)) + 1;
}

using Geometry = std::vector<std::vector<std::vector<Alt>>>;  // per axis, per output index: the alternatives

Geometry geometry(const OpCall& c, const Spec& s, const Params& p, const std::vector<int64_t>& out) {
  QMaker k;
  std::vector<Axis<Q>> axes = axes_of(k, s);
  Geometry g(axes.size());
  for (size_t d = 0; d < axes.size(); ++d) {
    Axis<Q>& a = axes[d];
    a.out = out[d];
    if (a.out > 0 && a.in == 0) c.ctx.fail("cannot resize an empty axis to a non-empty one");
    TapRule<Q> r{a.in, p.mode, p.antialias, p.exclude_outside, k(p.cubic_a), min(a.scale, k(1.0)), 0};
    if (p.antialias) r.first = first_offset(r.s, p.mode == ResizeMode::Linear ? 1.0 : 2.0, c);
    for (int64_t o = 0; o < a.out; ++o) g[d].push_back(alternatives(c, k, a, r, p, o));
  }
  return g;
}

Geometry geometry(const OpCall& c, const BothMaker& k, const Spec& s, const Params& p, const std::vector<int64_t>& out) {
  std::vector<Axis<RI>> axes = axes_of(RIMaker{k.f}, s);
  Geometry g(axes.size());
  for (size_t d = 0; d < axes.size(); ++d) {
    Axis<RI>& a = axes[d];
    a.out = out[d];
    if (a.out > 0 && a.in == 0) c.ctx.fail("cannot resize an empty axis to a non-empty one");
    Interval sbox = min(a.scale, RIMaker{k.f}(1.0)).v;  // the computed min(scale, 1)
    TapRule<Both> r{a.in, p.mode, p.antialias, p.exclude_outside, k(p.cubic_a), variable(sbox, 2 * static_cast<int>(d) + 1, k.f),
                    0};
    if (p.antialias) r.first = first_offset(r.s, p.mode == ResizeMode::Linear ? 1.0 : 2.0, c);
    for (int64_t o = 0; o < a.out; ++o) g[d].push_back(alternatives(c, k, a, r, p, o, static_cast<int>(d)));
  }
  return g;
}

// ---- The output elements ----

// Calls f(alternative per axis) for each combination of the alternatives of output index idx.
template <class F>
void each_combination(const Geometry& g, const std::vector<int64_t>& idx, F f) {
  size_t r = g.size();
  std::vector<const Alt*> pick(r);
  std::vector<size_t> choice(r, 0);
  while (true) {
    for (size_t d = 0; d < r; ++d) pick[d] = &g[d][static_cast<size_t>(idx[d])][choice[d]];
    f(pick);
    size_t d = r;
    while (d > 0) {
      --d;
      if (++choice[d] < g[d][static_cast<size_t>(idx[d])].size()) break;
      choice[d] = 0;
      if (d == 0) return;
    }
    if (r == 0) return;
  }
}

// Calls f(input offset, weight) for each tap of the Cartesian product of the picked taps, the
// weight the product of the per-axis weights (in the order of the axes, as the reference takes
// it), each product rounded to the type `f` (null: exact).
template <class F>
void each_tap(const std::vector<const Alt*>& pick, const std::vector<int64_t>& strides, const FloatFormat* type, F f) {
  size_t r = pick.size();
  std::vector<size_t> pos(r, 0);
  while (true) {
    int64_t off = 0;
    EA w = EA::constant(1, type);
    RI wr{Interval::point(1), type};
    for (size_t d = 0; d < r; ++d) {
      const TapW& t = pick[d]->taps[pos[d]].second;
      off += pick[d]->taps[pos[d]].first * strides[d];
      w = d == 0 ? EA{t.ea.R, t.ea.C, t.ea.G, t.ea.e, type} : w * t.ea;
      wr = d == 0 ? RI{t.ri, type} : wr * RI{t.ri, type};
    }
    f(off, w, wr.v);
    size_t d = r;
    bool done = true;
    while (d > 0) {
      --d;
      if (++pos[d] < pick[d]->taps.size()) {
        done = false;
        break;
      }
      pos[d] = 0;
    }
    if (done) return;
  }
}

// Σ w_i·x_i for one combination of alternatives, the weights over the box of the picked pieces:
// the exact sum lies in Σ C_i·x_i + Σ_j (Σ_i G_ij·x_i)·(P_j − c_j) (the mean-value form) and in
// Σ R_i·x_i; the computed one adds Σ e_i·|x_i| (the weights' errors) and, under the admissible
// semantics, the sum of the products in any order in the type, γ_(n+9)·Σ|ŵ_i·x_i| and one smallest
// subnormal a term (as DotBound's TypeSum).
template <class Get>
Interval combination(const std::vector<const Alt*>& pick, const std::vector<int64_t>& strides, const FloatFormat* type,
                     Get value) {
  std::vector<std::pair<EA, Interval>> terms;
  std::vector<std::pair<Interval, Interval>> ri_terms, centre_terms;
  DotBound by_ri;  // the rounded intervals' enclosure
  bool ri_point = true;
  ExactSum exact{type};
  each_tap(pick, strides, type, [&](int64_t off, const EA& w, Interval wr) {
    Interval x = value(off);
    terms.push_back({w, x});
    by_ri.add(MidRad::of(wr), MidRad::of(x));
    ri_terms.push_back({wr, x});
    exact.add(w.exact_point() ? w.R : wr, x);
    ri_point = ri_point && wr.lo == 1 && wr.hi == 1;
  });
  if (terms.size() == 1 && ((terms[0].first.exact_point() && terms[0].first.R.lo == 1) || ri_point))
    return terms[0].second;  // moves the value
  if (std::optional<double> e = exact.result()) return Interval::point(*e);
  // In the type, the sum's rounding (TypeSum) dwarfs DotBound's own; exactly, Dot2 is tighter.
  Interval y_ri = type ? by_ri.result(1, TypeSum::of(*type)) : accurate_dot(ri_terms);
  auto meet = [&](Interval y) {  // both enclose the computed sum: their intersection does
    if (y.has_nan() || y_ri.has_nan()) return y.has_nan() ? y_ri : y;
    Interval m{std::max(y.lo, y_ri.lo), std::min(y.hi, y_ri.hi)};
    return m.lo <= m.hi ? m : hull(y, y_ri);  // (disjoint only if one of them were unsound)
  };
  bool plain = !type;                 // exact weights (the rationals' enclosures): the EA form adds nothing
  for (const auto& [w, x] : terms) {  // an unbounded weight (a normalization my bounds cannot keep from 0)
    if (!std::isfinite(w.R.lo) || !std::isfinite(w.R.hi) || !std::isfinite(w.e))
      return w.R.has_nan() ? w.R : meet(Interval::whole());
    plain = plain && w.G.empty() && w.e == 0;
  }
  if (plain) return y_ri;
  Interval range = Interval::point(0);
  double err = 0, mag = 0;
  std::vector<Interval> slope(2 * pick.size(), Interval::point(0));  // Σ_i G_ij·x_i by parameter
  for (const auto& [w, x] : terms) {
    if (x.has_nan() || w.R.has_nan()) return Interval::undefined();  // an undefined input or 0/0
    centre_terms.push_back({w.C, x});
    range = bounded(range + w.R * x);
    for (const auto& [j, g] : w.G) slope[static_cast<size_t>(j)] = bounded(slope[static_cast<size_t>(j)] + bounded(g * x));
    err = upz(err + mulup(w.e, magnitude(x)));
    mag = upz(mag + mulup(upz(magnitude(w.R) + w.e), magnitude(x)));
  }
  Interval y = accurate_dot(centre_terms);
  for (size_t j = 0; j < slope.size(); ++j) {
    if (slope[j].lo == 0 && slope[j].hi == 0) continue;
    const Alt& a = *pick[j / 2];
    Interval box = j % 2 == 0 ? a.box_x : a.box_s;
    double c = j % 2 == 0 ? a.cx : a.cs;
    y = bounded(y + slope[j] * (box - Interval::point(c)));
  }
  if (!y.has_nan()) y = {std::max(y.lo, range.lo), std::min(y.hi, range.hi)};
  if (type) {
    double n = static_cast<double>(terms.size());
    err = upz(err + upz(mulup(gamma(n + 9, type->unit_roundoff()), mag) + mulup(n, type->smallest_subnormal())));
  }
  if (y.has_nan() || !std::isfinite(err)) return y.has_nan() ? y : meet(Interval::whole());
  return meet(err == 0 ? y : Interval{down(y.lo - err), up(y.hi + err)});
}

// The hull over the combinations of the alternatives of output index idx; `extrapolated` where a
// picked alternative is outside the crop.
template <class Get>
Interval element(const Geometry& g, const std::vector<int64_t>& idx, const std::vector<int64_t>& strides,
                 const FloatFormat* type, Interval extrapolated, Get value) {
  std::optional<Interval> h;
  each_combination(g, idx, [&](const std::vector<const Alt*>& pick) {
    bool outside = false, empty = false;
    for (const Alt* a : pick) {
      outside = outside || a->outside;
      empty = empty || a->taps.empty();
    }
    Interval v = outside ? extrapolated : empty ? Interval::point(0) : combination(pick, strides, type, value);
    h = h ? hull(*h, v) : v;
  });
  return h ? *h : Interval::whole();
}

std::vector<Bounds> resize(const OpCall& c) {
  const Bounds& xb = c.input(0);
  Params p = Params::read(c.ctx, c.version);
  Spec s = spec_of(c, p);
  bool admissible = c.semantics == Semantics::Admissible;
  // The output lengths: exact (rationals where the scales and roi are points, else exact intervals).
  std::vector<int64_t> out = s.points ? lengths(c, QMaker{}, s, p) : lengths(c, RIMaker{}, s, p);
  Shape out_shape(out.begin(), out.end());
  shape_size(out_shape);
  // The type the admissible implementation computes in: X's, float for an integer X.
  FloatFormat type = float_format(is_float(xb.type) ? xb.type : DType::Float);
  const FloatFormat* rounding = admissible ? &type : nullptr;
  Geometry g = s.points && !admissible ? geometry(c, s, p, out) : geometry(c, BothMaker{rounding}, s, p, out);
  std::vector<int64_t> strides = support::strides_of(xb.lo.shape());

  if (!xb.exact()) {
    Bounds y = float_bounds(xb.type, out_shape);
    // extrapolation_value rounded outward to X's type: as the type holds it.
    Interval extrapolated = float_format(xb.type).round_out(Interval::point(p.extrapolation));
    auto value = [&](int64_t off) { return at(xb, off); };
    support::for_each_index(out_shape, [&](const std::vector<int64_t>& idx, int64_t lin) {
      set(y, lin, element(g, idx, strides, rounding, extrapolated, value));
    });
    return {y};
  }

  // X of an exact type: nearest mode moves its values, which the alternatives must agree on; the
  // interpolating modes round the interpolated value half to even (saturating), kept where the
  // bounds decide it.
  const Tensor& x = xb.lo;
  Tensor y(x.dtype(), out_shape);
  auto undecided = [&](int64_t lin) {
    return Undetermined(resize_name(c) + ": element " + std::to_string(lin) + " of its " + std::string(dtype_name(x.dtype())) +
                        " output is not determined at this input: its coordinate's enclosure leaves more than one value");
  };
  if (p.mode == ResizeMode::Nearest) {
    visit_dtype(x.dtype(), [&]<class T>() {
      const T* px = x.data<T>();
      T* py = y.data<T>();
      T extrapolated{};
      if constexpr (std::is_same_v<T, bool>) extrapolated = p.extrapolation != 0;
      else if constexpr (std::is_integral_v<T>) extrapolated = support::saturating_cast<T>(std::trunc(p.extrapolation));
      support::for_each_index(out_shape, [&](const std::vector<int64_t>& idx, int64_t lin) {
        std::optional<T> v;
        each_combination(g, idx, [&](const std::vector<const Alt*>& pick) {
          bool outside = false;
          int64_t off = 0;
          for (size_t d = 0; d < pick.size(); ++d) {
            outside = outside || pick[d]->outside;
            if (!pick[d]->outside) off += pick[d]->taps[0].first * strides[d];
          }
          T e = outside ? extrapolated : px[off];
          if (v && !(*v == e)) throw undecided(lin);
          v = e;
        });
        py[lin] = *v;
      });
    });
    return {Bounds::of(y)};
  }
  auto value = [&](int64_t off) {
    double v = x.as_double(off);
    return std::fabs(v) < 0x1p53 ? Interval::point(v) : Interval{down(v), up(v)};
  };
  Interval extrapolated = Interval::point(p.extrapolation);
  support::visit_real(c.ctx, x.dtype(), [&]<class T>() {
    if constexpr (std::is_integral_v<T>) {
      T* py = y.data<T>();
      support::for_each_index(out_shape, [&](const std::vector<int64_t>& idx, int64_t lin) {
        Interval v = element(g, idx, strides, rounding, extrapolated, value);
        T lo = support::saturating_cast<T>(round_half_even(v.lo)), hi = support::saturating_cast<T>(round_half_even(v.hi));
        if (lo != hi || v.has_nan()) throw undecided(lin);
        py[lin] = lo;
      });
    }
  });
  return {Bounds::of(y)};
}

}  // namespace

SONNX_ENCLOSURE("Resize", (10, 11, 13, 18, 19), Allowance::own(), resize);

}  // namespace sonnx::enclose
