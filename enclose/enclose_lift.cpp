// Enclosures through the reference kernel itself, for operators that compute no new real number:
// data movement (Reshape, Transpose, Gather, Pad, ScatterND, ...; Resize: enclose_resize.cpp) and the
// exact monotone operators (Relu, Clip, Max, Min, MaxPool, Floor, Ceil, ReduceMax, Cast, ...). Such
// an operator is nondecreasing in each float input and exact on float64, so running it once on
// every lower bound and once on every upper bound encloses its result: f(lo) ≤ f(x) ≤ f(hi)
// elementwise for every x in [lo, hi].
#include "enclose_sums.h"
#include "reference/ops/params/scatter.h"
#include "reference/ops/support/indexing.h"
#include "reference/ops/support/sequence.h"
#include "sonnx/errors.h"

namespace sonnx::enclose {

namespace {

// The exact inputs and each float input's lower (or upper) bound, as values for the reference: a
// sequence or an optional of them holds each tensor's bound.
std::vector<Value> bound_values(const OpCall& c, bool upper) {
  std::vector<Value> values;
  values.reserve(c.in.size());
  for (const Bounds* b : c.in) values.push_back(b ? bound_value(*b, upper) : Value());
  return values;
}

// The reference kernel on those values (an omitted input stays omitted).
std::vector<Value> run_reference(const OpCall& c, const std::vector<Value>& values) {
  std::vector<const Value*> ptrs;
  for (size_t k = 0; k < values.size(); ++k) ptrs.push_back(c.in[k] ? &values[k] : nullptr);
  ValueScope scope;
  return c.reference.run_node(c.node, ptrs, scope, c.opset);
}

Tensor tensor_of(const OpCall& c, const Value& v) {
  if (!v.is_tensor())
    throw Unsupported("no enclosure for " + c.node.op_type + "-" + std::to_string(c.version) + " making a sequence");
  return v.tensor;
}

// An integer or boolean result (a shape, indices, a Cast to int) of the runs on the lower and the
// upper bounds: determined only where both agree.
Bounds determined(const OpCall& c, size_t k, const Tensor& l, const Tensor& h) {
  if (!(l == h))
    throw Undetermined(c.node.label() + ": output " + std::to_string(k) + " (" + std::string(dtype_name(l.dtype())) +
                       ") is not determined at this input: its float inputs' enclosures leave it open");
  return Bounds{l.dtype(), l, l};
}

// The runs' float results as bounds: an element either run makes NaN (from an undefined input) is
// undefined in both.
Bounds float_result(DType type, Tensor l, Tensor h) {
  Bounds b{type, std::move(l), std::move(h)};
  for (int64_t i = 0; i < b.lo.size(); ++i)
    if (at(b, i).has_nan()) set(b, i, Interval::undefined());
  return b;
}

// Output k of the runs on the lower and the upper bounds, `type` the float type of the values the
// operator moves (Undefined when it moves none): float64 tensors are its bounds, other results
// must agree. A sequence or an optional is matched element by element: both runs take the same
// positions and lengths, which exact integers decide.
Bounds lifted_result(const OpCall& c, size_t k, DType type, const Value& l, const Value& h) {
  if (l.kind != h.kind || l.sequence.size() != h.sequence.size() || (l.optional == nullptr) != (h.optional == nullptr))
    throw InternalError(c.node.label() + ": the runs on the lower and the upper bounds differ in structure");
  auto elem_type = [&](DType e) { return e == DType::Double && type != DType::Undefined ? type : e; };
  switch (l.kind) {
    case Value::Kind::Tensor:
      if (l.tensor.dtype() == DType::Double && type != DType::Undefined) return float_result(type, l.tensor, h.tensor);
      return determined(c, k, l.tensor, h.tensor);
    case Value::Kind::Sequence: {
      std::vector<Bounds> elements;
      for (size_t e = 0; e < l.sequence.size(); ++e) elements.push_back(lifted_result(c, k, type, l.sequence[e], h.sequence[e]));
      return Bounds::sequence(elem_type(support::sequence_elem_type(l)), std::move(elements));
    }
    case Value::Kind::Optional: {
      if (!l.optional) return Bounds::optional(type, {});
      Bounds content = lifted_result(c, k, type, *l.optional, *h.optional);
      DType elem = content.type;
      return Bounds::optional(elem, {std::move(content)});
    }
    case Value::Kind::Map: throw Unsupported("no enclosure for " + op_name(c) + ": output " + std::to_string(k) + " is a map");
    case Value::Kind::None: break;
  }
  throw Unsupported("no enclosure for " + op_name(c) + ": output " + std::to_string(k) + " is no value");
}

bool points(const Bounds& b) {
  if (b.exact()) return true;
  for (int64_t i = 0; i < b.lo.size(); ++i)
    if (!(at(b, i).lo == at(b, i).hi)) return false;
  return true;
}

}  // namespace

std::vector<Value> run_on_bounds(const OpCall& c, bool upper) { return run_reference(c, bound_values(c, upper)); }

std::vector<Bounds> lift_monotone(const OpCall& c) {
  DType type = DType::Undefined;  // the float type of the values it moves: its first float input's
  for (const Bounds* b : c.in)
    if (b && !b->exact() && type == DType::Undefined) type = b->type;
  // MaxPool's Indices name the largest element of each window: a point input decides them (both
  // runs are the same run); wider bounds would need each window's runners-up below its maximum.
  if (c.node.op_type == "MaxPool" && c.node.outputs.size() > 1 && !c.node.outputs[1].empty() && !points(c.input(0)))
    throw Undetermined(c.node.label() + ": its Indices are not determined at this input: X is not known exactly");
  std::vector<Value> lo = run_on_bounds(c, false), hi = run_on_bounds(c, true);
  std::vector<Bounds> out;
  for (size_t k = 0; k < lo.size(); ++k) out.push_back(lifted_result(c, k, type, lo[k], hi[k]));
  return out;
}

namespace {

// ---- Cast and CastLike ----

// Cast (or CastLike) of a float tensor: rounding to nearest into a float type (float8 and float4
// included, saturating or not), truncation toward zero (saturating) into an integer type, each
// nondecreasing, so the casts of the lower and the upper bound enclose it. Into int4, uint4, int2
// and uint2 a float is rounded to the nearest integer, whose low bits are kept: determined where
// both bounds round to the same integer. Into float8e8m0 a negative value is undefined behaviour
// (Operators.md): undefined where a bound is negative. Into bool (≠ 0 is not monotone) decided
// where the enclosure excludes 0 or is the point 0 (float_to_bool); not into strings. The Bounds carry the target type; a bound the cast rounds to ±∞ stays there (the cast's
// value, an extended real).
std::vector<Bounds> cast(const OpCall& c) {
  std::vector<Value> lo = bound_values(c, false), hi = bound_values(c, true);
  if (c.node.op_type == "CastLike" && c.in.size() > 1 && c.in[1])  // only its type counts: not float64 bounds
    lo[1] = hi[1] = Value(Tensor(c.input(1).type, {0}));
  if (c.input(0).exact()) return {Bounds::of(tensor_of(c, run_reference(c, lo)[0]))};
  Tensor l = tensor_of(c, run_reference(c, lo)[0]), h = tensor_of(c, run_reference(c, hi)[0]);
  DType to = l.dtype();
  const Bounds& x = c.input(0);
  if (to == DType::Bool) return {float_to_bool(c, x)};
  if (is_small_int(to))
    for (int64_t i = 0; i < x.lo.size(); ++i) {
      Interval v = at(x, i);
      if (!std::isfinite(v.lo) || !std::isfinite(v.hi) || std::nearbyint(v.lo) != std::nearbyint(v.hi))
        throw Undetermined(c.node.label() + ": element " + std::to_string(i) + " of its " + std::string(dtype_name(to)) +
                           " output is not determined at this input: its enclosure rounds to more than one integer");
    }
  if (is_integer(to) || is_small_int(to)) return {determined(c, 0, l, h)};
  if (!is_float(to) && !is_small_float(to))
    throw Unsupported("no enclosure for " + op_name(c) + " of " + std::string(dtype_name(x.type)) + " to " +
                      std::string(dtype_name(to)));
  Bounds b = float_bounds(to, l.shape());
  for (int64_t i = 0; i < l.size(); ++i) {
    Interval v{l.as_double(i), h.as_double(i)};
    bool negative_e8m0 = to == DType::Float8E8M0 && !(at(x, i).lo >= 0);
    set(b, i, v.has_nan() || negative_e8m0 ? Interval::undefined() : v);
  }
  return {b};
}

// ---- ScatterND ----

// Reduction add and mul compute new reals: scatter_combine (enclose_sums.h) of the updates landing
// on each element.
std::vector<Bounds> scatter_nd_arith(const OpCall& c, bool add) {
  run_on_bounds(c, false);  // the reference's checks and traps
  const Bounds &data = float_input(c, 0), &updates = float_input(c, 2);
  auto [base, slice] = support::scatter_nd_slices(c.ctx, data.lo.shape(), c.input(1).lo);  // checked by the run above
  std::vector<std::vector<int64_t>> hits(static_cast<size_t>(data.lo.size()));  // the updates landing on each element, in order
  for (size_t t = 0; t < base.size(); ++t)
    for (int64_t i = 0; i < slice; ++i) hits[static_cast<size_t>(base[t] + i)].push_back(static_cast<int64_t>(t) * slice + i);
  return {scatter_combine(c, data, updates, hits, add)};
}

// ScatterND replaces elements of data by updates, or (from version 18) keeps the max or min of the
// two: nondecreasing in both, lifted. Add and mul compute new reals (scatter_nd_arith).
std::vector<Bounds> scatter_nd(const OpCall& c) {
  Reduction reduction = ScatterParams::read(c.ctx, c.version).reduction;
  if ((reduction == Reduction::Add || reduction == Reduction::Mul) && !(c.input(0).exact() && c.input(2).exact()))
    return scatter_nd_arith(c, reduction == Reduction::Add);
  return lift_monotone(c);
}

}  // namespace

Bounds scatter_combine(const OpCall& c, const Bounds& data, const Bounds& updates, const std::vector<std::vector<int64_t>>& hits,
                       bool add) {
  TypeSum ts = type_sum(c, data.type);
  Bounds y = float_bounds(data.type, data.lo.shape());
  for (size_t e = 0; e < hits.size(); ++e) {
    auto ie = static_cast<int64_t>(e);
    Interval d = at(data, ie);
    if (hits[e].empty()) {
      set(y, ie, d);
      continue;
    }
    if (add) {
      DotBound sum;
      sum.add(MidRad::of(d), kOne);
      for (int64_t u : hits[e]) sum.add(MidRad::of(at(updates, u)), kOne);
      set(y, ie, sum.result(1, ts));
      continue;
    }
    Interval p = d;
    double factors = std::max(1.0, magnitude(d));  // bounds |the product of any subset of the factors|
    for (int64_t u : hits[e]) {
      Interval f = at(updates, u);
      p = p * f;
      factors = up(factors * std::max(1.0, magnitude(f)));
    }
    if (ts.unit > 0 && !p.has_nan()) {
      auto m = static_cast<double>(hits[e].size());
      double err = up(up(gamma(m, ts.unit) * magnitude(p)) + up(up(m * ts.tiny) * factors));
      p = p + Interval{-err, err};
    }
    set(y, ie, p);
  }
  return y;
}

std::vector<Bounds> lift_exact(const OpCall& c) {
  std::vector<Value> values = run_on_bounds(c, false);
  std::vector<Bounds> out;
  for (size_t k = 0; k < values.size(); ++k) {
    if (values[k].is_map()) throw Unsupported("no enclosure for " + op_name(c) + ": output " + std::to_string(k) + " is a map");
    out.push_back(Bounds::of(values[k]));
  }
  return out;
}

Value bound_value(const Bounds& b, bool upper) {
  switch (b.kind) {
    case Bounds::Kind::Tensor: return Value(upper ? b.hi : b.lo);
    case Bounds::Kind::Sequence: {
      std::vector<Value> elements;
      for (const Bounds& e : b.elements) elements.push_back(bound_value(e, upper));
      return Value::make_sequence(std::move(elements), b.exact() ? b.type : DType::Double);  // float bounds are float64
    }
    case Bounds::Kind::Optional:
      if (b.elements.empty()) return Value::make_optional(std::nullopt);
      return Value::make_optional(bound_value(b.elements[0], upper));
  }
  return Value();
}

// Nondecreasing in every input, or exact on them: lifted from the reference kernel.
SONNX_ENCLOSURE("Identity", (1, 13, 14, 16, 19, 21, 23, 24, 25), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("Reshape", (5, 13, 14, 19, 21, 23, 24, 25), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("Flatten", (1, 9, 11, 13, 21, 23, 24, 25), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("Transpose", (1, 13, 21, 23, 24, 25), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("Squeeze", (1, 11, 13, 21, 23, 24, 25), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("Unsqueeze", (1, 11, 13, 21, 23, 24, 25), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("Concat", (4, 11, 13), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("Slice", (1, 10, 11, 13), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("Gather", (1, 11, 13), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("Expand", (8, 13), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("Pad", (2, 11, 13, 18, 19, 21, 23, 24, 25), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("Split", (2, 11, 13, 18), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("Tile", (6, 13), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("Relu", (6, 13, 14), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("Clip", (6, 11, 12, 13), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("Max", (8, 12, 13), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("Min", (8, 12, 13), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("MaxPool", (1, 8, 10, 11, 12, 22), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("GlobalMaxPool", (1, 22), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("Floor", (6, 13), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("Ceil", (6, 13), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("Where", (9, 16), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("ReduceMax", (1, 11, 12, 13, 18, 20), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("ReduceMin", (1, 11, 12, 13, 18, 20), Allowance::exact(), lift_monotone);
// They read only the shape: both runs give the exact result.
SONNX_ENCLOSURE("Shape", (1, 13, 15, 19, 21, 23, 24, 25), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("Size", (1, 13, 19, 21, 23, 24, 25), Allowance::exact(), lift_monotone);
// The result is the rounding (or truncation) itself, which the enclosure already is.
SONNX_ENCLOSURE("Cast", (1, 6, 9, 13, 19, 21, 23, 24, 25), Allowance::exact(), cast);
SONNX_ENCLOSURE("CastLike", (15, 19, 21, 23, 24, 25), Allowance::exact(), cast);
// Own: add and mul bound their roundings themselves; the other reductions are exact.
SONNX_ENCLOSURE("ScatterND", (11, 13, 16, 18), Allowance::own(), scatter_nd);

}  // namespace sonnx::enclose
