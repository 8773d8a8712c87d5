// Elementwise enclosures: the arithmetic operators with multidirectional broadcasting, and the
// unary functions (MPFR bounds for the transcendental ones, elementary.h).
#include "elementary.h"
#include "enclose_ops.h"
#include "reference/model/errors.h"
#include "reference/ops/support/elementwise.h"

namespace sonnx::enclose {

namespace {

template <class F>
std::vector<Bounds> binary(const OpCall& c, F f) {
  const Bounds &a = float_input(c, 0), &b = float_input(c, 1);
  if (a.type != b.type) throw Trap(c.node.label() + ": A and B have different element types");
  Shape shape = support::broadcast_shapes(c.ctx, a.lo.shape(), b.lo.shape());
  Bounds out = float_bounds(a.type, shape);
  auto ia = support::broadcast_index_map(a.lo.shape(), shape), ib = support::broadcast_index_map(b.lo.shape(), shape);
  for (int64_t i = 0; i < out.lo.size(); ++i) set(out, i, f(at(a, ia[static_cast<size_t>(i)]), at(b, ib[static_cast<size_t>(i)])));
  return {out};
}

template <class F>
std::vector<Bounds> unary(const OpCall& c, F f) {
  const Bounds& x = float_input(c, 0);
  Bounds out = float_bounds(x.type, x.lo.shape());
  for (int64_t i = 0; i < out.lo.size(); ++i) set(out, i, f(at(x, i)));
  return {out};
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

}  // namespace

void register_elementwise() {
  register_enclosure("Add", {7, 13, 14}, [](const OpCall& c) { return binary(c, [](Interval a, Interval b) { return a + b; }); });
  register_enclosure("Sub", {7, 13, 14}, [](const OpCall& c) { return binary(c, [](Interval a, Interval b) { return a - b; }); });
  register_enclosure("Mul", {7, 13, 14}, [](const OpCall& c) { return binary(c, [](Interval a, Interval b) { return a * b; }); });
  register_enclosure("Div", {7, 13, 14}, [](const OpCall& c) { return binary(c, [](Interval a, Interval b) { return a / b; }); });
  register_enclosure("Neg", {6, 13}, [](const OpCall& c) { return unary(c, [](Interval x) { return -x; }); });
  register_enclosure("Abs", {6, 13}, [](const OpCall& c) { return unary(c, abs); });
  register_enclosure("Exp", {6, 13}, [](const OpCall& c) { return unary(c, [](Interval x) { return exp(x); }); });
  register_enclosure("Log", {6, 13}, [](const OpCall& c) { return unary(c, [](Interval x) { return log(x); }); });
  register_enclosure("Sqrt", {6, 13}, [](const OpCall& c) { return unary(c, [](Interval x) { return sqrt(x); }); });
  register_enclosure("Tanh", {6, 13}, [](const OpCall& c) { return unary(c, [](Interval x) { return tanh(x); }); });
  register_enclosure("Sigmoid", {6, 13}, [](const OpCall& c) { return unary(c, [](Interval x) { return sigmoid(x); }); });
  register_enclosure("Erf", {9, 13}, [](const OpCall& c) { return unary(c, [](Interval x) { return erf(x); }); });
  register_enclosure("LeakyRelu", {6, 16}, [](const OpCall& c) {
    double alpha = c.ctx.attr_float("alpha", 0.01f);
    return unary(c, [alpha](Interval x) { return leaky_relu(x, alpha); });
  });
}

}  // namespace sonnx::enclose
