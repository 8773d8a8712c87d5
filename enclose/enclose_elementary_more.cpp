// Elementwise enclosures of the inverse trigonometric functions, the hyperbolic functions and their
// inverses, Tan (MPFR bounds, elementary.h), Reciprocal and PRelu.
#include <algorithm>
#include <string>
#include <vector>

#include "elementary.h"
#include "enclose_ops.h"
#include "reference/ops/support/elementwise.h"
#include "sonnx/errors.h"

namespace sonnx::enclose::elementary_more {
namespace {

// slope·x for x < 0, x otherwise, over x and slope in intervals: by the sign of x (at x = 0 both
// pieces are 0).
Interval prelu(Interval x, Interval slope) {
  if (x.has_nan() || slope.has_nan()) return Interval::undefined();
  Interval positive{std::max(x.lo, 0.0), std::max(x.hi, 0.0)};
  if (x.lo >= 0) return positive;
  Interval negative = Interval{x.lo, std::min(x.hi, 0.0)} * slope;
  return x.hi <= 0 ? negative : hull(negative, positive);
}

// Whether `from` broadcasts to `to` unidirectionally (numpy rules, the result of `to`'s shape).
bool broadcasts_to(const Shape& from, const Shape& to) {
  if (from.size() > to.size()) return false;
  size_t offset = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i)
    if (from[i] != 1 && from[i] != to[offset + i]) return false;
  return true;
}

// PRelu: the slope broadcasts unidirectionally to X; versions 1 and 6 also take a one-element slope
// and a 1-D slope of X's channel count (dimension 1), as the reference does (reference/ops/PRelu.cpp).
std::vector<Bounds> prelu_op(const OpCall& c) {
  const Bounds &x = float_input(c, 0), &slope = float_input(c, 1);
  if (x.type != slope.type) c.ctx.fail("X and slope have different element types");
  const Shape &xs = x.lo.shape(), &ss = slope.lo.shape();
  std::vector<int64_t> index;  // the slope element of each element of X
  if (c.version < 7 && slope.lo.size() == 1) {
    index.assign(static_cast<size_t>(x.lo.size()), 0);
  } else if (broadcasts_to(ss, xs)) {
    index = support::broadcast_index_map(ss, xs);
  } else if (c.version < 7 && ss.size() == 1 && xs.size() >= 2 && ss[0] == xs[1]) {
    Shape channel(xs.size(), 1);
    channel[1] = ss[0];
    index = support::broadcast_index_map(channel, xs);
  } else {
    c.ctx.fail("slope shape " + shape_str(ss) + " does not fit X shape " + shape_str(xs));
  }
  Bounds out = float_bounds(x.type, xs);
  for (int64_t i = 0; i < out.lo.size(); ++i) set(out, i, prelu(at(x, i), at(slope, index[static_cast<size_t>(i)])));
  return {out};
}

}  // namespace
}  // namespace sonnx::enclose::elementary_more

namespace sonnx::enclose {

#define SONNX_ELEMENTARY_ENCLOSURE(op, versions, fn)                \
  SONNX_ENCLOSURE(op, versions, Allowance::within(kElementaryUlps), \
                  [](const OpCall& c) { return map_elements(c, [](Interval x) { return fn(x); }); })

SONNX_ELEMENTARY_ENCLOSURE("Acos", (7, 22), acos);
SONNX_ELEMENTARY_ENCLOSURE("Asin", (7, 22), asin);
SONNX_ELEMENTARY_ENCLOSURE("Atan", (7, 22), atan);
SONNX_ELEMENTARY_ENCLOSURE("Acosh", (9, 22), acosh);
SONNX_ELEMENTARY_ENCLOSURE("Asinh", (9, 22), asinh);
SONNX_ELEMENTARY_ENCLOSURE("Atanh", (9, 22), atanh);
SONNX_ELEMENTARY_ENCLOSURE("Cosh", (9, 22), cosh);
SONNX_ELEMENTARY_ENCLOSURE("Sinh", (9, 22), sinh);
SONNX_ELEMENTARY_ENCLOSURE("Tan", (7, 22), tan);
#undef SONNX_ELEMENTARY_ENCLOSURE

// 1/x correctly rounded, as Div: undefined where x may be 0 (±∞ at ±0 is no real number).
SONNX_ENCLOSURE("Reciprocal", (1, 6, 13), Allowance::within(0.5),
                [](const OpCall& c) { return map_elements(c, [](Interval x) { return Interval::point(1) / x; }); });
// One product, correctly rounded; x itself where x ≥ 0. Version 16 also has a function body; this
// enclosure is the operator's own.
SONNX_ENCLOSURE("PRelu", (1, 6, 7, 9, 16), Allowance::within(0.5), elementary_more::prelu_op);

}  // namespace sonnx::enclose
