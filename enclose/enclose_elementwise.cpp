// Elementwise enclosures: the arithmetic operators with multidirectional broadcasting, and the
// unary functions (MPFR bounds for the transcendental ones, elementary.h).
#include <optional>

#include "elementary.h"
#include "enclose_ops.h"
#include "sonnx/errors.h"
#include "reference/ops/params/activation.h"
#include "reference/ops/support/elementwise.h"

namespace sonnx::enclose {

namespace {

// Element i of bounds as an interval: an integer element (Pow's exponent) as a point, or the
// whole line beyond 2^53, where the double may have lost its parity.
Interval element(const Bounds& b, int64_t i) {
  if (!b.exact()) return at(b, i);
  double v = b.lo.as_double(i);
  return std::fabs(v) < 0x1p53 ? Interval::point(v) : Interval::whole();
}

// f of a and b broadcast multidirectionally; the result has a's element type.
template <class F>
std::vector<Bounds> broadcast_binary(const OpCall& c, const Bounds& a, const Bounds& b, F f) {
  Shape shape = support::broadcast_shapes(c.ctx, a.lo.shape(), b.lo.shape());
  Bounds out = float_bounds(a.type, shape);
  auto ia = support::broadcast_index_map(a.lo.shape(), shape), ib = support::broadcast_index_map(b.lo.shape(), shape);
  for (int64_t i = 0; i < out.lo.size(); ++i)
    set(out, i, f(element(a, ia[static_cast<size_t>(i)]), element(b, ib[static_cast<size_t>(i)])));
  return {out};
}

template <class F>
std::vector<Bounds> binary(const OpCall& c, F f) {
  const Bounds &a = float_input(c, 0), &b = float_input(c, 1);
  if (a.type != b.type) throw Trap(c.node.label() + ": A and B have different element types");
  return broadcast_binary(c, a, b, f);
}

Interval abs(Interval x) {
  if (x.lo >= 0) return x;
  if (x.hi <= 0) return -x;
  return {0.0, std::max(-x.lo, x.hi)};
}

// alpha·x for x < 0, x otherwise (alpha ≥ 0: increasing; any alpha: by cases on the sign).
Interval leaky_relu(Interval x, double alpha) {
  Interval neg = Interval{std::min(x.lo, 0.0), std::min(x.hi, 0.0)} * Interval::point(alpha);
  Interval pos{std::max(x.lo, 0.0), std::max(x.hi, 0.0)};
  if (x.hi <= 0) return neg;
  if (x.lo >= 0) return pos;
  return hull(neg, pos);
}

// Elu: α·(e^x − 1) for x < 0, x otherwise. e^x − 1 from the enclosure of e^x (exact interval
// subtraction): sound, though loose near 0, where the subtraction cancels.
Interval elu(Interval x, double alpha) {
  Interval neg = (exp(Interval{std::min(x.lo, 0.0), std::min(x.hi, 0.0)}) - Interval::point(1)) * Interval::point(alpha);
  Interval pos{std::max(x.lo, 0.0), std::max(x.hi, 0.0)};
  if (x.hi < 0) return neg;
  if (x.lo >= 0) return pos;
  return hull(neg, pos);
}

// ---- Operators the text defines by a formula of elementary functions ----

// Sigmoid 1/(1 + e^(−x)) and Elu α·(e^x − 1) below 0: an implementation may
// compute the operator as a whole, within kElementaryUlps of its exact value, or evaluate the
// formula as written, each step within its allowance and stored in the type (an elementary
// function within kElementaryUlps of its value at the computed argument, +, −, ·, / correctly
// rounded). Under `admissible` the enclosure is the hull of the two (spec/accuracy.md); `steps`
// gives the second from x's interval, rounded to the type's values. (Not Softplus: ln(e^x + 1) as
// written overflows from x ≈ 88 in float, which no allowance should grant.)
template <class Whole, class Steps>
std::vector<Bounds> formula_op(const OpCall& c, Whole whole, Steps steps) {
  if (c.semantics == Semantics::Real) return map_elements(c, whole);
  FloatFormat f = float_format(float_input(c, 0).type);
  return map_elements(c, [&](Interval x) {
    Interval w = whole(x), s = steps(x, f);
    return w.has_nan() || s.has_nan() ? w : hull(widen_ulps(w, kElementaryUlps, f), s);
  });
}

Interval stored(Interval x, double ulps, const FloatFormat& f) { return widen_ulps(x, ulps, f); }

Interval sigmoid_steps(Interval x, const FloatFormat& f) {
  Interval e = stored(exp(-x), kElementaryUlps, f);
  return stored(Interval::point(1) / stored(Interval::point(1) + e, 0.5, f), 0.5, f);
}

Interval elu_steps(Interval x, double alpha, const FloatFormat& f) {
  Interval e = stored(exp(Interval{std::min(x.lo, 0.0), std::min(x.hi, 0.0)}), kElementaryUlps, f);
  Interval neg = stored(stored(e - Interval::point(1), 0.5, f) * Interval::point(alpha), 0.5, f);
  Interval pos{std::max(x.lo, 0.0), std::max(x.hi, 0.0)};
  if (x.hi < 0) return neg;
  if (x.lo >= 0) return pos;
  return hull(neg, pos);
}

// ---- HardSwish: x·max(0, min(1, x/6 + 1/2)), alpha = 1/6 and beta = 1/2 as reals ----

// At one point: x for x ≥ 3, 0 for x ≤ −3, x·(x + 3)/6 between.
Interval hard_swish_at(double x) {
  if (x >= 3) return Interval::point(x);
  if (x <= -3) return Interval::point(0);
  Interval p = Interval::point(x);
  return p * (p + Interval::point(3)) / Interval::point(6);
}

// Nonincreasing up to −3/2, where it takes its minimum −3/8, nondecreasing from there.
Interval hard_swish(Interval x) {
  if (x.has_nan()) return Interval::undefined();
  constexpr double turn = -1.5, minimum = -0.375;
  if (x.hi <= turn) return {hard_swish_at(x.hi).lo, hard_swish_at(x.lo).hi};
  if (x.lo >= turn) return {hard_swish_at(x.lo).lo, hard_swish_at(x.hi).hi};
  return {minimum, std::max(hard_swish_at(x.lo).hi, hard_swish_at(x.hi).hi)};
}

// How far an implementation's HardSwish in the type `f` may lie from the exact value over x. Any
// arrangement computes h = x/6 + 1/2 (as x·(1/6) + 1/2 with 1/6 rounded or not, or (x + 3)/6) with
// at most 3 roundings, so |ĥ − h| ≤ γ_3·(|x|/6 + 1/2); clamps it exactly (1-Lipschitz, and exact
// where h ± that error is ≥ 1 or ≤ 0 all over x: ĥ clamps to the same 1 or 0); then forms x·h
// (or x·(6h)/6) with at most 2 roundings more. So |ŷ − y| ≤ |x|·|ĉ − c|·(1 + γ_2) + γ_2·|x·c| with
// c = clamp(h) ≤ 1, at most m·γ_5·(m/6 + 1/2) + γ_5·m for m = max |x| (γ_3·(1 + γ_2) ≤ γ_5,
// Higham lemma 3.3), plus 5 underflows. Not relative to the result: near x = −3 the result is
// about 0 but the error is about 3u.
double hard_swish_error(Interval x, const FloatFormat& f) {
  double m = magnitude(x), g = gamma(5, f.unit_roundoff());
  double h_err = up(g * up(m / 6 + 0.5));
  Interval h = x / Interval::point(6) + Interval::point(0.5);
  bool clamp_exact = h.lo - h_err >= 1 || h.hi + h_err <= 0;
  double err = up(g * m);
  if (!clamp_exact) err = up(err + up(m * h_err));
  return up(err + 5 * f.smallest_subnormal());
}

std::vector<Bounds> hard_swish_op(const OpCall& c) {
  std::optional<FloatFormat> admissible;
  if (c.semantics == Semantics::Admissible) admissible = float_format(float_input(c, 0).type);
  return map_elements(c, [&](Interval x) {
    Interval y = hard_swish(x);
    if (!admissible) return y;
    double err = hard_swish_error(x, *admissible);
    return Interval{down(y.lo - err), up(y.hi + err)};
  });
}

// ---- Pow: a float base, a float or (from version 12) integer exponent ----

// An integer base (int32 or int64) and a float exponent: x^y in real arithmetic (within
// kElementaryUlps of the exponent's type under the admissible semantics), converted toward zero
// and saturating into X's type, as the reference converts pow(double, double). Determined where
// the whole enclosure converts to one integer; Undetermined where it does not (an exact integer
// power under the admissible semantics: a power just below it converts to one less) or where x^y
// is no real number (a negative base, a non-integer exponent: the reference's NaN → 0).
template <class T>
Bounds integer_base_pow(const OpCall& c, const Bounds& x, const Bounds& y) {
  Shape shape = support::broadcast_shapes(c.ctx, x.lo.shape(), y.lo.shape());
  auto ix = support::broadcast_index_map(x.lo.shape(), shape), iy = support::broadcast_index_map(y.lo.shape(), shape);
  std::optional<FloatFormat> admissible;
  if (c.semantics == Semantics::Admissible) admissible = float_format(y.type);
  Tensor out(x.type, shape);
  T* po = out.data<T>();
  for (int64_t i = 0; i < out.size(); ++i) {
    Interval r = pow(element(x, ix[static_cast<size_t>(i)]), element(y, iy[static_cast<size_t>(i)]));
    if (admissible) r = widen_ulps(r, kElementaryUlps, *admissible);
    T lo = support::saturating_cast<T>(r.lo), hi = support::saturating_cast<T>(r.hi);
    if (r.has_nan() || lo != hi)
      throw Undetermined(c.node.label() + ": element " + std::to_string(i) +
                         " of its integer output is not determined at this input: x^y lies in [" + std::to_string(r.lo) + ", " +
                         std::to_string(r.hi) + "]");
    po[i] = lo;
  }
  return Bounds::of(out);
}

std::vector<Bounds> pow_op(const OpCall& c) {
  const Bounds &x = c.input(0), &y = c.input(1);
  if (x.exact()) {  // an integer base: exact with an integer exponent, through the reference
    if (y.exact()) return lift_exact(c);
    if (x.type == DType::Int32) return {integer_base_pow<int32_t>(c, x, y)};
    if (x.type == DType::Int64) return {integer_base_pow<int64_t>(c, x, y)};
    throw Trap(c.node.label() + ": X has element type " + std::string(dtype_name(x.type)));
  }
  if (c.version < 12 && x.type != y.type) throw Trap(c.node.label() + ": X and Y have different element types");
  return broadcast_binary(c, x, y, [](Interval a, Interval b) { return pow(a, b); });
}

}  // namespace

SONNX_ENCLOSURE("Add", (7, 13, 14), Allowance::within(0.5),
                [](const OpCall& c) { return binary(c, [](Interval a, Interval b) { return a + b; }); });
SONNX_ENCLOSURE("Sub", (7, 13, 14), Allowance::within(0.5),
                [](const OpCall& c) { return binary(c, [](Interval a, Interval b) { return a - b; }); });
SONNX_ENCLOSURE("Mul", (7, 13, 14), Allowance::within(0.5),
                [](const OpCall& c) { return binary(c, [](Interval a, Interval b) { return a * b; }); });
SONNX_ENCLOSURE("Div", (7, 13, 14), Allowance::within(0.5),
                [](const OpCall& c) { return binary(c, [](Interval a, Interval b) { return a / b; }); });
SONNX_ENCLOSURE("Neg", (6, 13), Allowance::exact(),
                [](const OpCall& c) { return map_elements(c, [](Interval x) { return -x; }); });
SONNX_ENCLOSURE("Abs", (6, 13), Allowance::exact(), [](const OpCall& c) {
  return map_elements(c, [](Interval x) { return abs(x); });
});  // abs is overloaded (rational.h)
SONNX_ENCLOSURE("Exp", (6, 13), Allowance::within(kElementaryUlps),
                [](const OpCall& c) { return map_elements(c, [](Interval x) { return exp(x); }); });
SONNX_ENCLOSURE("Log", (6, 13), Allowance::within(kElementaryUlps),
                [](const OpCall& c) { return map_elements(c, [](Interval x) { return log(x); }); });
SONNX_ENCLOSURE("Sqrt", (6, 13), Allowance::within(0.5),
                [](const OpCall& c) { return map_elements(c, [](Interval x) { return sqrt(x); }); });
SONNX_ENCLOSURE("Tanh", (6, 13), Allowance::within(kElementaryUlps),
                [](const OpCall& c) { return map_elements(c, [](Interval x) { return tanh(x); }); });
SONNX_ENCLOSURE("Sigmoid", (6, 13), Allowance::own(), [](const OpCall& c) {
  return formula_op(
      c, [](Interval x) { return sigmoid(x); }, sigmoid_steps);
});
SONNX_ENCLOSURE("Erf", (9, 13), Allowance::within(kElementaryUlps),
                [](const OpCall& c) { return map_elements(c, [](Interval x) { return erf(x); }); });
SONNX_ENCLOSURE("Softplus", (1, 22), Allowance::within(kElementaryUlps),
                [](const OpCall& c) { return map_elements(c, [](Interval x) { return softplus(x); }); });
SONNX_ENCLOSURE("Sin", (7, 22), Allowance::within(kElementaryUlps),
                [](const OpCall& c) { return map_elements(c, [](Interval x) { return sin(x); }); });
SONNX_ENCLOSURE("Cos", (7, 22), Allowance::within(kElementaryUlps),
                [](const OpCall& c) { return map_elements(c, [](Interval x) { return cos(x); }); });
SONNX_ENCLOSURE("HardSwish", (14, 22), Allowance::own(), hard_swish_op);
// Pow's error is relative to its result: an elementary pow of the type (within kElementaryUlps),
// or x^n by repeated products, whose relative error γ_k after k ≤ 3 roundings (x^4 in a row, x^8
// by squaring) stays within 4 ulps (u·|y| < ulp(y), so γ_3·|y| < 3.01 ulps). Version 1's legacy
// broadcasting is not covered.
SONNX_ENCLOSURE("Pow", (7, 12, 13, 15), Allowance::within(kElementaryUlps), pow_op);
SONNX_ENCLOSURE("Elu", (6, 22), Allowance::own(), [](const OpCall& c) {
  double alpha = ActivationParams::read(c.ctx, c.version).alpha;
  return formula_op(
      c, [alpha](Interval x) { return elu(x, alpha); },
      [alpha](Interval x, const FloatFormat& f) { return elu_steps(x, alpha, f); });
});
SONNX_ENCLOSURE("LeakyRelu", (6, 16), Allowance::within(0.5), [](const OpCall& c) {
  double alpha = ActivationParams::read(c.ctx, c.version).alpha;
  return map_elements(c, [alpha](Interval x) { return leaky_relu(x, alpha); });
});

}  // namespace sonnx::enclose
