// The enclosures of LpPool (1, 2, 11, 18, 22), GlobalLpPool (1, 2, 22) and LRN (1, 13), which ONNX
// defines by a formula (spec/accuracy.md, "Admissible results").
//
// LpPool: y = (Σ_window |x|^p)^(1/p), the window the reference's (support::pool_setup, as
// AveragePool's enclosure takes it, enclose_pool.cpp); a padded position adds |0|^p = 0, so only
// the taps inside the input count. GlobalLpPool: the same over each whole (n, c) plane.
// LRN: y = x / (bias + α/size · Σ_{j in the channel window} x_j²)^β, the window the reference's.
//
// Real: the formula in interval arithmetic (MPFR bounds for the powers and roots, elementary.h).
// Admissible (Allowance::own()): the formula as a body of operators, each step within its own
// allowance and stored in the element type, hulled, as a function body's enclosure is
// (encloser.cpp, "Operators defined by a function body"), with every value within
// kElementaryUlps of the exact value (an implementation computing the operator as a whole):
//   LpPool: Abs (exact), Pow(p) within kElementaryUlps (Mul, ½ ulp, for p = 2; nothing for p = 1),
//     the window's sum of n terms in any order γ_(n+9)·Σ|terms| (DotBound with TypeSum), Pow(1/p)
//     within kElementaryUlps with the exponent 1/p exact or rounded to the type (Sqrt, ½ ulp, for
//     p = 2; nothing for p = 1);
//   LRN: the squares and their sum over the window's n channels in any order, γ_(n+9)·Σ|terms|
//     (DotBound with TypeSum), stored; the scaling by α/size in two roundings (α/size held in the
//     type then times the sum, or α·sum then divided by size), γ_2 relative, stored; + bias, one
//     rounding; Pow(β) within kElementaryUlps, stored; the division ½ ulp.
#include <cmath>
#include <string>
#include <vector>

#include "elementary.h"
#include "enclose_sums.h"
#include "reference/ops/params/normalization.h"
#include "reference/ops/params/pool.h"
#include "reference/ops/support/reduce.h"
#include "reference/ops/support/window.h"
#include "sonnx/errors.h"

namespace sonnx::enclose::lppool_detail {

Interval lppool_abs(Interval x) {
  if (x.has_nan()) return x;
  if (x.lo >= 0) return x;
  if (x.hi <= 0) return -x;
  return {0.0, std::max(-x.lo, x.hi)};
}

// An enclosure of a value known to be ≥ 0, cut at 0 (a root of it stays defined).
Interval lppool_nonnegative(Interval s) { return s.has_nan() ? s : Interval{std::max(s.lo, 0.0), std::max(s.hi, 0.0)}; }

// The norm's order p, which must be positive and finite (the formula has no value otherwise).
double lppool_order(const OpCall& c, double p) {
  if (!(p > 0) || !std::isfinite(p))
    throw Unsupported("no enclosure for " + op_name(c) + " with p = " + std::to_string(p) + " (not positive)");
  return p;
}

// One output of an Lp pool: the bounds of its window's elements in, the real and (under the
// admissible semantics) the admissible enclosure out.
class LpPoolNorm {
 public:
  LpPoolNorm(double p, DType type, const OpCall& c)
      : p_(p), admissible_(c.semantics == Semantics::Admissible), f_(float_format(type)), ts_(type_sum(c, type)) {
    inverse_ = Interval::point(1) / Interval::point(p);
    // An implementation may hold 1/p in the type (Pow(S, Reciprocal(p))) or exactly.
    rounded_inverse_ = hull(inverse_, f_.round_out(inverse_));
  }

  Interval operator()(const std::vector<Interval>& window) const {
    Interval sum = Interval::point(0);
    DotBound dot;
    for (Interval x : window) {
      Interval term = power(lppool_abs(x));
      sum = sum + term;
      if (admissible_) dot.add(MidRad::of(widen_ulps(term, power_ulps(), f_)), kOne);
    }
    Interval real = root(sum, inverse_);
    if (!admissible_) return real;
    // A sum of terms ≥ 0 rounds to a value ≥ 0 in any order.
    Interval stored_sum = window.empty() ? Interval::point(0) : lppool_nonnegative(f_.round_out(dot.result(1, ts_)));
    Interval steps = widen_ulps(root(stored_sum, rounded_inverse_), root_ulps(), f_);
    if (steps.has_nan() || real.has_nan()) return steps;  // undefined: anything is admitted
    return hull(steps, widen_ulps(real, kElementaryUlps, f_));
  }

 private:
  Interval power(Interval a) const {
    if (p_ == 1) return a;
    if (p_ == 2) return a * a;  // a ≥ 0: the product is the square's enclosure
    return pow(a, Interval::point(p_));
  }
  Interval root(Interval s, Interval inverse) const {
    if (p_ == 1) return s;
    if (p_ == 2) return sqrt(s);
    return pow(s, inverse);
  }
  // The allowance of each step: nothing for the identity, ½ ulp for Mul and Sqrt, else Pow's.
  double power_ulps() const { return p_ == 1 ? 0 : p_ == 2 ? 0.5 : kElementaryUlps; }
  double root_ulps() const { return power_ulps(); }

  double p_;
  bool admissible_;
  FloatFormat f_;
  TypeSum ts_;
  Interval inverse_, rounded_inverse_;
};

std::vector<Bounds> enclose_lp_pool(const OpCall& c) {
  const Bounds& x = float_input(c, 0);
  PoolParams params = PoolParams::read(c.ctx, c.version);
  LpPoolNorm norm(lppool_order(c, params.p), x.type, c);
  support::PoolSetup s = support::pool_setup(c.ctx, params, x.lo.shape());
  Bounds y = float_bounds(x.type, s.out_shape);
  std::vector<Interval> window;
  support::pool_loop(s, [&](int64_t p, int64_t o, const std::vector<int64_t>&, const std::vector<support::Tap>& taps) {
    window.clear();
    for (const support::Tap& t : taps) window.push_back(at(x, p * s.in_plane + t.in_off));
    set(y, p * s.out_plane + o, norm(window));
  });
  return {y};
}

std::vector<Bounds> enclose_global_lp_pool(const OpCall& c) {
  const Bounds& x = float_input(c, 0);
  const Shape& xs = x.lo.shape();
  if (xs.size() < 3) c.ctx.fail("input X must have rank at least 3 (N, C, spatial...), got " + shape_str(xs));
  LpPoolNorm norm(lppool_order(c, PoolParams::read(c.ctx, c.version).p), x.type, c);
  Shape out_shape(xs.size(), 1);
  out_shape[0] = xs[0];
  out_shape[1] = xs[1];
  int64_t planes = xs[0] * xs[1], plane = planes == 0 ? 0 : x.lo.size() / planes;
  Bounds y = float_bounds(x.type, out_shape);
  std::vector<Interval> window;
  for (int64_t k = 0; k < planes; ++k) {
    window.clear();
    for (int64_t i = 0; i < plane; ++i) window.push_back(at(x, k * plane + i));
    set(y, k, norm(window));
  }
  return {y};
}

// ---- LRN ----

std::vector<Bounds> enclose_lrn(const OpCall& c) {
  const Bounds& x = float_input(c, 0);
  LRNParams p = LRNParams::read(c.ctx, c.version);
  if (x.lo.rank() < 2) c.ctx.fail("input must have shape (N x C x D1 ... Dk)");
  const int64_t size = p.size, before = (size - 1) / 2, after = size / 2;  // as the reference's window
  const auto bias = static_cast<double>(p.bias), beta = static_cast<double>(p.beta);
  const Interval scale = Interval::point(static_cast<double>(p.alpha)) / Interval::point(static_cast<double>(size));
  const bool admissible = c.semantics == Semantics::Admissible;
  const FloatFormat f = float_format(x.type);
  const TypeSum ts = type_sum(c, x.type);
  support::AxisView v = support::axis_view(x.lo.shape(), 1);
  Bounds y = float_bounds(x.type, x.lo.shape());
  for (int64_t o = 0; o < v.outer; ++o)
    for (int64_t ch = 0; ch < v.n; ++ch)
      for (int64_t i = 0; i < v.inner; ++i) {
        Interval squares = Interval::point(0);
        DotBound dot;
        for (int64_t j = std::max<int64_t>(0, ch - before); j <= std::min(v.n - 1, ch + after); ++j) {
          Interval e = at(x, v.at(o, j, i));
          squares = squares + pow(e, Interval::point(2));
          dot.add(MidRad::of(e), MidRad::of(e));
        }
        int64_t k = v.at(o, ch, i);
        Interval xi = at(x, k);
        Interval real = xi / pow(Interval::point(bias) + scale * squares, Interval::point(beta));
        if (!admissible) {
          set(y, k, real);
          continue;
        }
        Interval sum = lppool_nonnegative(f.round_out(dot.result(1, ts)));
        Interval scaled = scale * sum;  // α/size rounded then ·Σ, or α·Σ then /size: two roundings
        double err = up(gamma(2, f.unit_roundoff()) * magnitude(scaled));
        scaled = f.round_out(scaled + Interval{-err, err});
        Interval base = f.round_out(Interval::point(bias) + scaled);
        Interval power = widen_ulps(pow(base, Interval::point(beta)), kElementaryUlps, f);
        Interval steps = widen_ulps(xi / power, 0.5, f);
        set(y, k, steps.has_nan() || real.has_nan() ? steps : hull(steps, widen_ulps(real, kElementaryUlps, f)));
      }
  return {y};
}

}  // namespace sonnx::enclose::lppool_detail

namespace sonnx::enclose {
// Each step's allowance is taken inside: the operator adds none.
SONNX_ENCLOSURE("LpPool", (1, 2, 11, 18, 22), Allowance::own(), lppool_detail::enclose_lp_pool);
SONNX_ENCLOSURE("GlobalLpPool", (1, 2, 22), Allowance::own(), lppool_detail::enclose_global_lp_pool);
SONNX_ENCLOSURE("LRN", (1, 13), Allowance::own(), lppool_detail::enclose_lrn);
}  // namespace sonnx::enclose
