// Enclosures of the comparisons (Equal, Greater, Less, GreaterOrEqual, LessOrEqual) on float
// inputs (ArgMax and ArgMin: enclose_select.cpp). Their results are booleans: exact where the operands' enclosures
// leave a single outcome. Where they leave more than one, the enclosures do not decide that output at
// this input, and the enclosure says so (Undetermined) instead of guessing. Integer, boolean and
// string inputs are exact values: the reference computes the result (lift_exact).
#include <cstdio>

#include "enclose_ops.h"
#include "sonnx/errors.h"
#include "reference/ops/support/elementwise.h"

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

}  // namespace

// Equal takes floats from version 11, Greater and Less from 7 (version 1's legacy broadcasting is
// not covered), GreaterOrEqual and LessOrEqual from 12.
SONNX_ENCLOSURE("Equal", (11, 13, 19), Allowance::exact(), [](const OpCall& c) { return compare(c, equal); });
SONNX_ENCLOSURE("Greater", (7, 9, 13), Allowance::exact(), [](const OpCall& c) { return compare(c, greater); });
SONNX_ENCLOSURE("Less", (7, 9, 13), Allowance::exact(), [](const OpCall& c) { return compare(c, less); });
SONNX_ENCLOSURE("GreaterOrEqual", (12, 16), Allowance::exact(), [](const OpCall& c) { return compare(c, greater_or_equal); });
SONNX_ENCLOSURE("LessOrEqual", (12, 16), Allowance::exact(), [](const OpCall& c) { return compare(c, less_or_equal); });

}  // namespace sonnx::enclose
