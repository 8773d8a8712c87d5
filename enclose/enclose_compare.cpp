// Enclosures of the comparisons (Equal, Greater, Less, GreaterOrEqual, LessOrEqual) and of ArgMax
// on float inputs. Their results are booleans and indices: exact where the operands' enclosures
// leave a single outcome. Where they leave more than one, the enclosures do not decide that output at
// this input, and the enclosure says so (Undetermined) instead of guessing. Integer, boolean and
// string inputs are exact values: the reference computes the result (lift_exact).
#include <cstdio>

#include "enclose_ops.h"
#include "sonnx/errors.h"
#include "reference/ops/support/elementwise.h"
#include "reference/ops/params/reduce.h"
#include "reference/ops/support/reduce.h"

namespace sonnx::enclose {

namespace {

// The outcome of a relation between reals a ∈ A and b ∈ B: the same for every choice, or open.
enum class Outcome { False, True, Open };
using Relation = Outcome (*)(Interval, Interval);

Outcome greater(Interval a, Interval b) {
  if (a.lo > b.hi) return Outcome::True;
  if (a.hi <= b.lo) return Outcome::False;
  return Outcome::Open;
}
Outcome greater_or_equal(Interval a, Interval b) {
  if (a.lo >= b.hi) return Outcome::True;
  if (a.hi < b.lo) return Outcome::False;
  return Outcome::Open;
}
Outcome less(Interval a, Interval b) { return greater(b, a); }
Outcome less_or_equal(Interval a, Interval b) { return greater_or_equal(b, a); }
// Equal only where both are the same point: two reals in intervals that share more than one point
// may or may not be equal.
Outcome equal(Interval a, Interval b) {
  if (a.lo == a.hi && b.lo == b.hi && a.lo == b.lo) return Outcome::True;
  if (a.hi < b.lo || b.hi < a.lo) return Outcome::False;
  return Outcome::Open;
}

std::string interval_str(Interval i) {
  char s[64];
  std::snprintf(s, sizeof s, "[%.17g, %.17g]", i.lo, i.hi);
  return s;
}

[[noreturn]] void undecided(const OpCall& c, int64_t element, const std::string& why) {
  throw Undetermined(c.node.label() + ": the enclosures do not decide element " + std::to_string(element) +
                     " of its output at this input: " + why);
}

// A and B broadcast multidirectionally (the comparisons from version 7).
std::vector<Bounds> compare(const OpCall& c, Relation relation) {
  const Bounds &a = c.input(0), &b = c.input(1);
  if (a.exact() && b.exact()) return lift_exact(c);
  if (a.type != b.type) throw Trap(c.node.label() + ": A and B have different element types");
  Shape shape = support::broadcast_shapes(c.ctx, a.lo.shape(), b.lo.shape());
  auto ia = support::broadcast_index_map(a.lo.shape(), shape), ib = support::broadcast_index_map(b.lo.shape(), shape);
  Tensor out(DType::Bool, shape);
  bool* po = out.data<bool>();
  for (int64_t i = 0; i < out.size(); ++i) {
    Interval x = at(a, ia[static_cast<size_t>(i)]), y = at(b, ib[static_cast<size_t>(i)]);
    Outcome r = relation(x, y);
    if (r == Outcome::Open)
      undecided(c, i, "its operands' enclosures " + interval_str(x) + " and " + interval_str(y) + " allow both results");
    po[i] = r == Outcome::True;
  }
  return {Bounds::of(out)};
}

// ---- ArgMax ----

// The index ArgMax takes on one line of x (n elements `stride` apart from `base`) when it is the
// same for every choice of reals in the elements' enclosures, or −1. Element k is the first maximum
// for every choice iff its lower bound exceeds the upper bound of every earlier element and reaches
// that of every later one (ties go to the first); with select_last the other way round. Exact ties
// between points are decided so.
int64_t decided_argmax(const Bounds& x, int64_t base, int64_t n, int64_t stride, bool select_last) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  std::vector<double> after(static_cast<size_t>(n) + 1, -inf);  // the largest upper bound from k + 1 on
  for (int64_t k = n - 1; k >= 0; --k)
    after[static_cast<size_t>(k)] = std::max(after[static_cast<size_t>(k) + 1], at(x, base + k * stride).hi);
  double before = -inf;  // the largest upper bound before k
  for (int64_t k = 0; k < n; ++k) {
    Interval v = at(x, base + k * stride);
    double later = after[static_cast<size_t>(k) + 1];
    bool always = select_last ? v.lo >= before && v.lo > later : v.lo > before && v.lo >= later;
    if (always) return k;
    before = std::max(before, v.hi);
  }
  return -1;
}

std::vector<Bounds> argmax(const OpCall& c) {
  if (c.input(0).exact()) return lift_exact(c);
  const Bounds& x = float_input(c, 0);
  const Shape& xs = x.lo.shape();
  ArgReduceParams p = ArgReduceParams::read(c.ctx, c.version);
  int64_t axis = support::normalize_axis(c.ctx, p.axis, x.lo.rank());
  bool select_last = p.select_last_index;
  support::AxisView v = support::axis_view(xs, axis);
  Shape ys;
  for (int64_t d = 0; d < x.lo.rank(); ++d)
    if (d != axis) ys.push_back(xs[static_cast<size_t>(d)]);
    else if (p.keepdims) ys.push_back(1);
  Tensor out(DType::Int64, ys);
  if (out.size() > 0 && v.n == 0) c.ctx.fail("cannot take the arg extreme of an empty axis");
  int64_t* po = out.data<int64_t>();
  for (int64_t o = 0; o < v.outer; ++o)
    for (int64_t i = 0; i < v.inner; ++i) {
      int64_t k = decided_argmax(x, v.at(o, 0, i), v.n, v.inner, select_last);
      if (k < 0)
        undecided(c, o * v.inner + i,
                  "no element along axis " + std::to_string(axis) + " is the maximum for every choice within its enclosure");
      po[o * v.inner + i] = k;
    }
  return {Bounds::of(out)};
}

}  // namespace

// Equal takes floats from version 11, Greater and Less from 7 (version 1's legacy broadcasting is
// not covered), GreaterOrEqual and LessOrEqual from 12.
SONNX_ENCLOSURE("Equal", (11, 13, 19), Allowance::exact(), [](const OpCall& c) { return compare(c, equal); });
SONNX_ENCLOSURE("Greater", (7, 9, 13), Allowance::exact(), [](const OpCall& c) { return compare(c, greater); });
SONNX_ENCLOSURE("Less", (7, 9, 13), Allowance::exact(), [](const OpCall& c) { return compare(c, less); });
SONNX_ENCLOSURE("GreaterOrEqual", (12, 16), Allowance::exact(), [](const OpCall& c) { return compare(c, greater_or_equal); });
SONNX_ENCLOSURE("LessOrEqual", (12, 16), Allowance::exact(), [](const OpCall& c) { return compare(c, less_or_equal); });
SONNX_ENCLOSURE("ArgMax", (1, 11, 12, 13), Allowance::exact(), argmax);

}  // namespace sonnx::enclose
