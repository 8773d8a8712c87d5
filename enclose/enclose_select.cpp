// Enclosures of the operators that select by comparing floats (ArgMax, ArgMin, Hardmax, TopK,
// Unique) and of the float tests IsInf and IsNaN. Their indices, booleans and one-hot patterns are
// kept where the bounds decide them for every choice of reals in the inputs' enclosures, as the
// comparisons' are (enclose_compare.cpp); where the bounds leave them open the model does not decide them at this
// input, and the enclosure says so (Undetermined). An undefined element (no value) decides nothing.
// The values TopK and Unique select are lifted from the reference (enclose_movement.cpp): the k-th
// largest of a line is nondecreasing in each element (a sorting network is made of min and max), and
// Unique's values are its input's once the order and the equalities are decided.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "enclose_ops.h"
#include "reference/ops/params/indexing.h"
#include "reference/ops/params/reduce.h"
#include "reference/ops/params/softmax.h"
#include "reference/ops/support/indexing.h"
#include "reference/ops/support/reduce.h"
#include "sonnx/errors.h"

namespace sonnx::enclose::movement {
// The reference run on the lower and on the upper bounds (enclose_movement.cpp).
std::vector<Bounds> lift_bounds(const OpCall& c, DType type);
}  // namespace sonnx::enclose::movement

namespace sonnx::enclose::selection {
namespace {

std::string interval_text(Interval i) {
  char s[64];
  std::snprintf(s, sizeof s, "[%.17g, %.17g]", i.lo, i.hi);
  return s;
}

[[noreturn]] void open_element(const OpCall& c, const std::string& output, int64_t element, const std::string& why) {
  throw Undetermined(c.node.label() + ": the enclosures do not decide element " + std::to_string(element) + " of its " + output +
                     " at this input: " + why);
}

// ---- ArgMin and Hardmax: the extreme of a line ----

// The index of the first maximum (or minimum; with select_last the last) of one line of x (n elements
// `stride` apart from `base`) when it is the same for every choice of reals in the elements'
// enclosures, or −1. For the maximum, element k is the first for every choice iff its lower bound
// exceeds the upper bound of every earlier element and reaches that of every later one; the minimum
// is the maximum of −x. An undefined element decides nothing.
int64_t decided_extreme(const Bounds& x, int64_t base, int64_t n, int64_t stride, bool maximum, bool select_last) {
  auto value = [&](int64_t k) {
    Interval v = at(x, base + k * stride);
    return maximum ? v : -v;
  };
  constexpr double inf = std::numeric_limits<double>::infinity();
  std::vector<double> after(static_cast<size_t>(n) + 1, -inf);  // the largest upper bound from k + 1 on
  for (int64_t k = n - 1; k >= 0; --k) {
    Interval v = value(k);
    if (v.has_nan()) return -1;
    after[static_cast<size_t>(k)] = std::max(after[static_cast<size_t>(k) + 1], v.hi);
  }
  double before = -inf;  // the largest upper bound before k
  for (int64_t k = 0; k < n; ++k) {
    Interval v = value(k);
    double later = after[static_cast<size_t>(k) + 1];
    if (select_last ? v.lo >= before && v.lo > later : v.lo > before && v.lo >= later) return k;
    before = std::max(before, v.hi);
  }
  return -1;
}

// ArgMax and ArgMin: the index decided on each line, else Undetermined.
std::vector<Bounds> arg_extreme(const OpCall& c, bool maximum) {
  if (c.input(0).exact()) return lift_exact(c);
  const Bounds& x = float_input(c, 0);
  const Shape& xs = x.lo.shape();
  ArgReduceParams p = ArgReduceParams::read(c.ctx, c.version);
  int64_t axis = support::normalize_axis(c.ctx, p.axis, x.lo.rank());
  support::AxisView v = support::axis_view(xs, axis);
  Shape ys;
  for (int64_t d = 0; d < x.lo.rank(); ++d)
    if (d != axis) ys.push_back(xs[static_cast<size_t>(d)]);
    else if (p.keepdims) ys.push_back(1);
  Tensor out(DType::Int64, ys);
  if (out.size() > 0 && v.n == 0) c.ctx.fail("cannot take the arg extreme of an empty axis");
  auto* po = out.data<int64_t>();
  for (int64_t o = 0; o < v.outer; ++o)
    for (int64_t i = 0; i < v.inner; ++i) {
      int64_t k = decided_extreme(x, v.at(o, 0, i), v.n, v.inner, maximum, p.select_last_index);
      if (k < 0)
        open_element(c, "output", o * v.inner + i,
                     "no element along axis " + std::to_string(axis) + " is the " + (maximum ? "maximum" : "minimum") +
                         " for every choice within its enclosure");
      po[o * v.inner + i] = k;
    }
  return {Bounds::of(out)};
}

// Hardmax: 1 at the first maximum of each line (versions 1 and 11: the rows of the input coerced to
// 2-D at `axis`; 13: along `axis`), 0 elsewhere: points wherever the first maximum is decided.
std::vector<Bounds> hardmax(const OpCall& c) {
  const Bounds& x = float_input(c, 0);
  SoftmaxParams p = SoftmaxParams::read(c.ctx, c.version);
  int64_t axis = support::normalize_axis(c.ctx, p.axis, x.lo.rank());
  support::AxisView v = p.coerced_2d ? support::coerced_2d_view(x.lo.shape(), axis) : support::axis_view(x.lo.shape(), axis);
  Bounds y = float_bounds(x.type, x.lo.shape());  // zeros
  for (int64_t o = 0; o < v.outer; ++o)
    for (int64_t i = 0; i < v.inner; ++i) {
      if (v.n == 0) continue;
      int64_t k = decided_extreme(x, v.at(o, 0, i), v.n, v.inner, true, false);
      if (k < 0) open_element(c, "output", v.at(o, 0, i), "no element of its line is the first maximum for every choice");
      set(y, v.at(o, k, i), Interval::point(1));
    }
  return {y};
}

// ---- TopK ----

// Whether element a (at index ia of its line) comes before element b (at ib) in TopK's order for
// every choice: larger (smaller with !largest), ties to the lower index.
bool always_before(Interval a, int64_t ia, Interval b, int64_t ib, bool largest) {
  if (!largest) return always_before(-a, ia, -b, ib, true);
  return ia < ib ? a.lo >= b.hi : a.lo > b.hi;
}

// The k values TopK selects on each line are its k largest (smallest) in order, nondecreasing in
// every element: lifted. Its indices are decided where the order of the first k is the same for
// every choice: in the order the lower bounds take (one of the choices), each of the first k comes
// before the next for every choice, and the k-th before every later one (then so does each earlier
// one). A line holding an undefined element has undefined values and undecided indices. With
// sorted=0 an implementation may return the k in any order: not enclosed.
std::vector<Bounds> top_k(const OpCall& c) {
  if (c.input(0).exact()) return lift_exact(c);
  const Bounds& x = float_input(c, 0);
  TopKParams p = TopKParams::read(c.ctx, c.version);
  std::vector<Bounds> out = movement::lift_bounds(c, x.type);  // the reference's checks and traps first
  int64_t axis = support::normalize_axis(c.ctx, p.axis, x.lo.rank());
  support::AxisView v = support::axis_view(x.lo.shape(), axis);
  const int64_t k = p.k ? *p.k : c.input(1).lo.to_int64_vector().at(0);
  if (c.version >= 11 && c.ctx.attr_int("sorted", 1) == 0 && k > 1)
    throw Unsupported("no enclosure for " + op_name(c) + " with sorted=0 (the order of its results is unspecified)");
  auto named = [&](size_t output) { return c.node.outputs.size() > output && !c.node.outputs[output].empty(); };
  std::vector<int64_t> order(static_cast<size_t>(v.n));
  for (int64_t o = 0; o < v.outer; ++o)
    for (int64_t i = 0; i < v.inner; ++i) {
      auto elem = [&](int64_t j) { return at(x, v.at(o, j, i)); };
      auto result = [&](int64_t j) { return (o * k + j) * v.inner + i; };  // the j-th selected, in the outputs
      bool undefined = false;
      for (int64_t j = 0; j < v.n; ++j) undefined = undefined || elem(j).has_nan();
      if (undefined) {
        if (named(1)) open_element(c, "Indices", result(0), "its line holds an undefined element");
        if (named(0))
          for (int64_t j = 0; j < k; ++j) set(out[0], result(j), Interval::undefined());
        continue;
      }
      if (!named(1) || k == 0) continue;
      std::iota(order.begin(), order.end(), int64_t{0});
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t a, int64_t b) { return p.largest ? elem(a).lo > elem(b).lo : elem(a).lo < elem(b).lo; });
      auto require_before = [&](int64_t s, int64_t t) {
        int64_t a = order[static_cast<size_t>(s)], b = order[static_cast<size_t>(t)];
        if (!always_before(elem(a), a, elem(b), b, p.largest))
          open_element(c, "Indices", result(s),
                       "elements " + std::to_string(a) + " " + interval_text(elem(a)) + " and " + std::to_string(b) + " " +
                           interval_text(elem(b)) + " of its line may come in either order");
      };
      for (int64_t s = 0; s + 1 < k; ++s) require_before(s, s + 1);
      for (int64_t t = k; t < v.n; ++t) require_before(k - 1, t);
    }
  return out;
}

// ---- Unique ----

// How two items (elements, or slices along the axis) of Unique's input compare for every choice
// within their enclosures: decided where, at the first position the items do not hold the same
// point, their enclosures do not meet (that position orders them), or where they hold the same
// points everywhere (equal). Undefined elements decide nothing.
bool decided_pair(const Bounds& x, int64_t a, int64_t b, const support::AxisView& v) {
  for (int64_t o = 0; o < v.outer; ++o)
    for (int64_t i = 0; i < v.inner; ++i) {
      Interval p = at(x, v.at(o, a, i)), q = at(x, v.at(o, b, i));
      if (p.has_nan() || q.has_nan()) return false;
      if (p.lo == p.hi && q.lo == q.hi && p.lo == q.lo) continue;
      return p.hi < q.lo || q.hi < p.lo;
    }
  return true;
}

// Unique's outputs (the distinct items, sorted or in order of first occurrence, their first
// indices, the inverse map, the counts) follow from the order and the equalities of the items
// alone. Where every pair is decided they are the same for every choice, the lower bounds' run
// among them: lifted. It suffices that neighbours in the order of the lower bounds are decided: a
// decided order is transitive.
std::vector<Bounds> unique(const OpCall& c) {
  if (c.input(0).exact()) return lift_exact(c);
  const Bounds& x = float_input(c, 0);
  support::AxisView v{1, x.lo.size(), 1};  // the flattened input: n items of one element
  if (c.ctx.has_attr("axis")) {
    if (x.lo.rank() == 0) c.ctx.fail("axis given for a scalar input");
    v = support::axis_view(x.lo.shape(), support::normalize_axis(c.ctx, c.ctx.attr_int("axis", 0), x.lo.rank()));
  }
  auto lower_order = [&](int64_t a, int64_t b) {  // lexicographic on the lower bounds, items in row-major order
    for (int64_t o = 0; o < v.outer; ++o)
      for (int64_t i = 0; i < v.inner; ++i) {
        double p = at(x, v.at(o, a, i)).lo, q = at(x, v.at(o, b, i)).lo;
        if (p != q) return p < q;
      }
    return false;
  };
  if (v.n > 1)
    for (int64_t e = 0; e < x.lo.size(); ++e)
      if (at(x, e).has_nan())
        throw Undetermined(c.node.label() + ": its outputs are not determined at this input: input element " +
                           std::to_string(e) + " is undefined");
  std::vector<int64_t> order(static_cast<size_t>(v.n));
  std::iota(order.begin(), order.end(), int64_t{0});
  std::stable_sort(order.begin(), order.end(), lower_order);
  for (size_t s = 0; s + 1 < order.size(); ++s)
    if (!decided_pair(x, order[s], order[s + 1], v))
      throw Undetermined(c.node.label() + ": its outputs are not determined at this input: the enclosures of items " +
                         std::to_string(order[s]) + " and " + std::to_string(order[s + 1]) +
                         " leave open whether they are equal or how they are ordered");
  return movement::lift_bounds(c, x.type);
}

// ---- IsInf, IsNaN ----

// IsInf: decided where every value in the enclosure gives the same answer: an element is ±∞ for
// every choice where it is the point ±∞, and for none where its bound on that side is finite.
std::vector<Bounds> is_inf(const OpCall& c) {
  const Bounds& x = float_input(c, 0);
  bool positive = c.ctx.attr_int("detect_positive", 1) != 0, negative = c.ctx.attr_int("detect_negative", 1) != 0;
  constexpr double inf = std::numeric_limits<double>::infinity();
  Tensor out(DType::Bool, x.lo.shape());
  for (int64_t i = 0; i < out.size(); ++i) {
    Interval e = at(x, i);
    if (e.has_nan()) open_element(c, "output", i, "its input is undefined there");
    bool may = (positive && e.hi == inf) || (negative && e.lo == -inf);
    bool must = (positive && e.lo == inf) || (negative && e.hi == -inf);
    if (may != must) open_element(c, "output", i, "its input's enclosure " + interval_text(e) + " holds an infinity and more");
    out.data<bool>()[i] = must;
  }
  return {Bounds::of(out)};
}

// IsNaN: false wherever the element has a value (±∞ included); an undefined element is open: it
// may have no value (a NaN input, ∞ − ∞) or one its enclosure could not bound (a quotient by an
// interval holding 0).
std::vector<Bounds> is_nan(const OpCall& c) {
  const Bounds& x = float_input(c, 0);
  for (int64_t i = 0; i < x.lo.size(); ++i)
    if (at(x, i).has_nan()) open_element(c, "output", i, "its input is undefined there");
  Tensor out(DType::Bool, x.lo.shape());  // all false
  return {Bounds::of(out)};
}

}  // namespace
}  // namespace sonnx::enclose::selection

namespace sonnx::enclose {

// Cast of float bounds to bool (x ≠ 0): true where the enclosure excludes 0, false where it is the
// point 0, Undetermined elsewhere and where it is undefined. Not monotone, so not through the
// reference: for Cast's and CastLike's enclosure (enclose_lift.cpp).
Bounds float_to_bool(const OpCall& c, const Bounds& x) {
  Tensor out(DType::Bool, x.lo.shape());
  for (int64_t i = 0; i < out.size(); ++i) {
    Interval e = at(x, i);
    bool nonzero = e.lo > 0 || e.hi < 0, zero = e.lo == 0 && e.hi == 0;
    if (e.has_nan() || !(nonzero || zero))
      selection::open_element(c, "bool output", i, "its input's enclosure " + selection::interval_text(e) + " holds 0 and more");
    out.data<bool>()[i] = nonzero;
  }
  return Bounds::of(out);
}

SONNX_ENCLOSURE("ArgMax", (1, 11, 12, 13), Allowance::exact(), [](const OpCall& c) { return selection::arg_extreme(c, true); });
SONNX_ENCLOSURE("ArgMin", (1, 11, 12, 13), Allowance::exact(), [](const OpCall& c) { return selection::arg_extreme(c, false); });
SONNX_ENCLOSURE("Hardmax", (1, 11, 13), Allowance::exact(), selection::hardmax);
SONNX_ENCLOSURE("TopK", (1, 10, 11, 24), Allowance::exact(), selection::top_k);
SONNX_ENCLOSURE("Unique", (11), Allowance::exact(), selection::unique);
SONNX_ENCLOSURE("IsInf", (10, 20), Allowance::exact(), selection::is_inf);
SONNX_ENCLOSURE("IsNaN", (9, 13, 20), Allowance::exact(), selection::is_nan);

}  // namespace sonnx::enclose
