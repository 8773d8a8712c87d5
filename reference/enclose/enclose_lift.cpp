// Enclosures through the reference kernel itself, for operators that compute no new real number:
// data movement (Reshape, Transpose, Gather, Pad, ScatterND, ...; Resize: enclose_resize.cpp) and the
// exact monotone operators (Relu, Clip, Max, Min, MaxPool, Floor, Ceil, ReduceMax, Cast, ...). Such
// an operator is nondecreasing in each float input and exact on float64, so running it once on
// every lower bound and once on every upper bound encloses its result: f(lo) ≤ f(x) ≤ f(hi)
// elementwise for every x in [lo, hi].
#include "enclose_ops.h"
#include "reference/model/errors.h"

namespace sonnx::enclose {

namespace {

// The exact inputs and each float input's lower (or upper) bound, as values for the reference.
std::vector<Value> bound_values(const OpCall& c, bool upper) {
  std::vector<Value> values;
  values.reserve(c.in.size());
  for (const Bounds* b : c.in) values.push_back(b ? Value(upper ? b->hi : b->lo) : Value());
  return values;
}

// The reference kernel on those values (an omitted input stays omitted).
std::vector<Value> run_reference(const OpCall& c, const std::vector<Value>& values) {
  std::vector<const Value*> ptrs;
  for (size_t k = 0; k < values.size(); ++k) ptrs.push_back(c.in[k] ? &values[k] : nullptr);
  ValueScope scope;
  return c.reference.run_node(c.node, ptrs, scope, c.opset);
}

std::vector<Value> run_on_bounds(const OpCall& c, bool upper) { return run_reference(c, bound_values(c, upper)); }

Tensor tensor_of(const OpCall& c, const Value& v) {
  if (!v.is_tensor()) throw Unsupported("no enclosure for " + c.node.op_type + "-" + std::to_string(c.version) + " making a sequence");
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

std::vector<Bounds> lift_monotone(const OpCall& c) {
  DType type = DType::Undefined;  // the float type of the values it moves: its first float input's
  for (const Bounds* b : c.in)
    if (b && !b->exact() && type == DType::Undefined) type = b->type;
  if (c.node.op_type == "MaxPool" && c.node.outputs.size() > 1 && !c.node.outputs[1].empty())
    throw Unsupported("no enclosure for MaxPool-" + std::to_string(c.version) + " with Indices (they depend on the order of the values)");
  std::vector<Value> lo = run_on_bounds(c, false), hi = run_on_bounds(c, true);
  std::vector<Bounds> out;
  for (size_t k = 0; k < lo.size(); ++k) {
    Tensor l = tensor_of(c, lo[k]), h = tensor_of(c, hi[k]);
    if (l.dtype() == DType::Double && type != DType::Undefined) out.push_back(float_result(type, std::move(l), std::move(h)));
    else out.push_back(determined(c, k, l, h));
  }
  return out;
}

// ---- Cast and CastLike ----

std::string op_name(const OpCall& c) { return c.node.op_type + "-" + std::to_string(c.version); }

// Cast (or CastLike) of a float tensor: rounding to nearest into float16, bfloat16, float or
// double, truncation toward zero (saturating) into an integer type, each nondecreasing, so the
// casts of the lower and the upper bound enclose it. Not into bool (≠ 0 is not monotone), the
// small types (int4 keeps the low bits of the rounded value; float8 has no format here) or
// strings. The Bounds carry the target type; a bound the cast rounds to ±∞ stays there (the cast's
// value, an extended real).
std::vector<Bounds> cast(const OpCall& c) {
  std::vector<Value> lo = bound_values(c, false), hi = bound_values(c, true);
  if (c.node.op_type == "CastLike" && c.in.size() > 1 && c.in[1])  // only its type counts: not float64 bounds
    lo[1] = hi[1] = Value(Tensor(c.input(1).type, {0}));
  if (c.input(0).exact()) return {Bounds::of(tensor_of(c, run_reference(c, lo)[0]))};
  Tensor l = tensor_of(c, run_reference(c, lo)[0]), h = tensor_of(c, run_reference(c, hi)[0]);
  DType to = l.dtype();
  if (is_integer(to)) return {determined(c, 0, l, h)};
  if (!is_float(to))
    throw Unsupported("no enclosure for " + op_name(c) + " of " + std::string(dtype_name(c.input(0).type)) + " to " +
                      std::string(dtype_name(to)));
  Bounds b = float_bounds(to, l.shape());
  for (int64_t i = 0; i < l.size(); ++i) {
    Interval v{l.as_double(i), h.as_double(i)};
    set(b, i, v.has_nan() ? Interval::undefined() : v);
  }
  return {b};
}

// ---- ScatterND ----

// ScatterND replaces elements of data by updates, or (from version 18) keeps the max or min of the
// two: nondecreasing in both. Add and mul compute new reals, rounded: no enclosure here.
std::vector<Bounds> scatter_nd(const OpCall& c) {
  std::string reduction = c.version >= 16 ? c.ctx.attr_string("reduction", "none") : "none";
  if (reduction == "add" || reduction == "mul") throw Unsupported("no enclosure for " + op_name(c) + " with reduction " + reduction);
  return lift_monotone(c);
}

}  // namespace

std::vector<Bounds> lift_exact(const OpCall& c) {
  std::vector<Value> values = run_on_bounds(c, false);
  std::vector<Bounds> out;
  for (const Value& v : values) out.push_back(Bounds::of(tensor_of(c, v)));
  return out;
}

void register_lift() {
  const std::map<std::string, std::vector<int64_t>> monotone = {
      {"Identity", {1, 13, 14, 16, 19, 21, 23, 24, 25}}, {"Reshape", {5, 13, 14, 19, 21, 23, 24, 25}},
      {"Flatten", {1, 9, 11, 13, 21, 23, 24, 25}},       {"Transpose", {1, 13, 21, 23, 24, 25}},
      {"Squeeze", {1, 11, 13, 21, 23, 24, 25}},          {"Unsqueeze", {1, 11, 13, 21, 23, 24, 25}},
      {"Concat", {4, 11, 13}},                           {"Slice", {1, 10, 11, 13}},
      {"Gather", {1, 11, 13}},                           {"Expand", {8, 13}},
      {"Pad", {2, 11, 13, 18, 19, 21, 23, 24, 25}},      {"Split", {2, 11, 13, 18}},
      {"Tile", {6, 13}},                                 {"Relu", {6, 13, 14}},
      {"Clip", {6, 11, 12, 13}},                         {"Max", {8, 12, 13}},
      {"Min", {8, 12, 13}},                              {"MaxPool", {1, 8, 10, 11, 12, 22}},
      {"Floor", {6, 13}},                                {"Ceil", {6, 13}},
      {"Where", {9, 16}},                                {"ReduceMax", {1, 11, 12, 13, 18, 20}},
      {"ReduceMin", {1, 11, 12, 13, 18, 20}},
      // They read only the shape: both runs give the exact result.
      {"Shape", {1, 13, 15, 19, 21, 23, 24, 25}},        {"Size", {1, 13, 19, 21, 23, 24, 25}}};
  for (const auto& [op, versions] : monotone) register_enclosure(op, versions, lift_monotone, Allowance::exact());
  // The result is the rounding (or truncation) itself, which the enclosure already is.
  register_enclosure("Cast", {1, 6, 9, 13, 19, 21, 23, 24, 25}, cast, Allowance::exact());
  register_enclosure("CastLike", {15, 19, 21, 23, 24, 25}, cast, Allowance::exact());
  register_enclosure("ScatterND", {11, 13, 16, 18}, scatter_nd, Allowance::exact());
}

}  // namespace sonnx::enclose
