// Enclosures of the elementwise and running sums and of the reduced product: Sum and Mean (n-ary,
// broadcast), CumSum (each output the sum of its prefix along an axis) and ReduceProd. The sums are
// DotBounds of their terms with unit weights (dot.h), as ReduceSum's (enclose_pool.cpp): under the
// admissible semantics each is a sum in any order in the element type, γ_(n+9)·Σ|terms| (TypeSum),
// the spare roundings covering Mean's division, so their allowance is Allowance::own(). The product
// is interval arithmetic, and under the admissible semantics its n − 1 multiplications in any order
// err by at most γ_(n−1) relative plus the underflows (ScatterND's rule, enclose_lift.cpp).
//
// Integer inputs never reach these: the encloser lifts an operator whose inputs are all exact.
#include <optional>

#include "enclose_sums.h"
#include "reference/ops/params/indexing.h"
#include "reference/ops/params/reduce.h"
#include "reference/ops/support/elementwise.h"
#include "reference/ops/support/indexing.h"
#include "reference/ops/support/reduce.h"
#include "sonnx/errors.h"

namespace sonnx::enclose {

namespace {

// ---- Sum and Mean ----

// x_1 + ... + x_n (divided by n for the mean), broadcast multidirectionally from version 8 and of
// one shape before. One input is itself, exactly: no addition, and a division by 1.
std::vector<Bounds> enclose_sum_or_mean(const OpCall& c, bool mean) {
  if (c.in.empty()) c.ctx.fail("needs at least one input");
  std::vector<const Bounds*> xs;
  std::vector<Shape> shapes;
  for (size_t k = 0; k < c.in.size(); ++k) {
    const Bounds& b = float_input(c, k);  // Trap where one is omitted
    if (b.type != c.input(0).type) c.ctx.fail("input " + std::to_string(k) + " has a different element type from input 0");
    if (c.version < 8 && b.lo.shape() != c.input(0).lo.shape())
      c.ctx.fail("all inputs must have the same shape before opset 8 (" + shape_str(c.input(0).lo.shape()) + " vs " +
                 shape_str(b.lo.shape()) + ")");
    xs.push_back(&b);
    shapes.push_back(b.lo.shape());
  }
  if (xs.size() == 1) return {*xs[0]};
  Shape out_shape = support::broadcast_shapes(c.ctx, shapes);
  std::vector<std::vector<int64_t>> maps;
  for (const Shape& s : shapes) maps.push_back(support::broadcast_index_map(s, out_shape));
  std::vector<std::vector<MidRad>> terms;
  for (const Bounds* x : xs) terms.push_back(mid_rad(*x));
  DType type = xs[0]->type;
  Bounds y = float_bounds(type, out_shape);
  TypeSum ts = type_sum(c, type);
  double divisor = mean ? static_cast<double>(xs.size()) : 1.0;
  for (int64_t i = 0; i < y.lo.size(); ++i) {
    DotBound sum;
    for (size_t k = 0; k < xs.size(); ++k) sum.add(terms[k][static_cast<size_t>(maps[k][static_cast<size_t>(i)])], kOne);
    set(y, i, sum.result(divisor, ts));
  }
  return {y};
}

// ---- CumSum ----

// y[j] = Σ x[k] over the prefix of j along the axis (k ≤ j; k < j when exclusive; from the end when
// reverse), each output its own sum: a running sum, a parallel scan or any other order of the
// additions gives a value within its bound. An empty prefix (exclusive) is exactly 0.
std::vector<Bounds> enclose_cumsum(const OpCall& c) {
  const Bounds& x = float_input(c, 0);
  std::vector<MidRad> xm = mid_rad(x);
  TypeSum ts = type_sum(c, x.type);
  return {prefix_scan<DotBound>(
      c, x, [&](DotBound& prefix, int64_t k) { prefix.add(xm[static_cast<size_t>(k)], kOne); },
      [&](const DotBound& prefix) { return prefix.result(1, ts); })};
}

// ---- ReduceProd ----

// The product of each group in interval arithmetic (an empty group is exactly 1). Admissible: m
// factors multiplied in any order (m − 1 roundings, or in a wider type and rounded once) lie within
// γ_(m−1)·|product| of it (Higham §3.5), plus, for underflow, m smallest subnormals of the type times
// the largest any subset of the factors can make them (Π max(1, |x_i|)); then the encloser rounds
// outward to the type.
std::vector<Bounds> enclose_reduce_prod(const OpCall& c) {
  const Bounds& x = float_input(c, 0);
  std::optional<support::ReduceGeometry> g = reduction_geometry(c, x);
  if (!g) return {x};
  std::vector<Interval> product(static_cast<size_t>(g->out_size), Interval::point(1));
  std::vector<double> factors(product.size(), 1.0);  // bounds |the product of any subset of the factors|
  std::vector<int64_t> count(product.size(), 0);
  for (int64_t i = 0; i < x.lo.size(); ++i) {
    size_t o = static_cast<size_t>(g->out_index[static_cast<size_t>(i)]);
    Interval f = at(x, i);
    product[o] = count[o] == 0 ? f : product[o] * f;
    factors[o] = up(factors[o] * std::max(1.0, magnitude(f)));
    ++count[o];
  }
  TypeSum ts = type_sum(c, x.type);
  Bounds y = float_bounds(x.type, g->out_shape);
  for (size_t o = 0; o < product.size(); ++o) {
    Interval p = product[o];
    if (ts.unit > 0 && count[o] > 1 && !p.has_nan()) {
      double m = static_cast<double>(count[o]);
      double err = up(up(gamma(m - 1, ts.unit) * magnitude(p)) + up(up(m * ts.tiny) * factors[o]));
      // An infinite bound or error (an overflow the type may or may not reach) bounds nothing, but an
      // infinite product known exactly (a factor ±∞, none 0) is ±∞ in any order.
      if (std::isfinite(err)) p = p + Interval{-err, err};
      else if (!(std::isinf(p.lo) && p.lo == p.hi)) p = Interval::whole();
    }
    set(y, static_cast<int64_t>(o), p);
  }
  return {y};
}

}  // namespace

// Version 1 also has the legacy consumed_inputs attribute, which changes nothing here.
SONNX_ENCLOSURE("Sum", (1, 6, 8, 13), Allowance::own(), [](const OpCall& c) { return enclose_sum_or_mean(c, false); });
SONNX_ENCLOSURE("Mean", (1, 6, 8, 13), Allowance::own(), [](const OpCall& c) { return enclose_sum_or_mean(c, true); });
SONNX_ENCLOSURE("CumSum", (11, 14), Allowance::own(), enclose_cumsum);
SONNX_ENCLOSURE("ReduceProd", (1, 11, 13, 18), Allowance::own(), enclose_reduce_prod);

}  // namespace sonnx::enclose
