// Enclosures through the reference kernel itself, for operators that compute no new real number:
// data movement (Reshape, Transpose, Gather, Pad, ...) and the exact monotone operators (Relu,
// Clip, Max, Min, MaxPool, Floor, Ceil, ReduceMax, ...). Such an operator is nondecreasing in each
// float input and exact on float64, so running it once on every lower bound and once on every upper
// bound encloses its result: f(lo) ≤ f(x) ≤ f(hi) elementwise for every x in [lo, hi].
#include "enclose_ops.h"
#include "reference/model/errors.h"

namespace sonnx::enclose {

namespace {

// The reference kernel on the exact inputs and each float input's lower (or upper) bound.
std::vector<Value> run_on_bounds(const OpCall& c, bool upper) {
  std::vector<Value> values;
  values.reserve(c.in.size());
  for (const Bounds* b : c.in) values.push_back(b ? Value(upper ? b->hi : b->lo) : Value());
  std::vector<const Value*> ptrs;
  for (size_t k = 0; k < values.size(); ++k) ptrs.push_back(c.in[k] ? &values[k] : nullptr);
  ValueScope scope;
  return c.reference.run_node(c.node, ptrs, scope, c.opset);
}

Tensor tensor_of(const OpCall& c, const Value& v) {
  if (!v.is_tensor()) throw Unsupported("no enclosure for " + c.node.op_type + "-" + std::to_string(c.version) + " making a sequence");
  return v.tensor;
}

std::vector<Bounds> lift_monotone(const OpCall& c) {
  DType type = DType::Undefined;  // the float type of the values it moves
  for (const Bounds* b : c.in)
    if (b && !b->exact()) type = b->type;
  if (c.node.op_type == "MaxPool" && c.node.outputs.size() > 1 && !c.node.outputs[1].empty())
    throw Unsupported("no enclosure for MaxPool-" + std::to_string(c.version) + " with Indices (they depend on the order of the values)");
  std::vector<Value> lo = run_on_bounds(c, false), hi = run_on_bounds(c, true);
  std::vector<Bounds> out;
  for (size_t k = 0; k < lo.size(); ++k) {
    Tensor l = tensor_of(c, lo[k]), h = tensor_of(c, hi[k]);
    if (l.dtype() == DType::Double && type != DType::Undefined) out.push_back(Bounds{type, std::move(l), std::move(h)});
    else out.push_back(Bounds{l.dtype(), l, l});  // an integer result (a shape, indices): the same from both
  }
  return out;
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
  for (const auto& [op, versions] : monotone) register_enclosure(op, versions, lift_monotone);
}

}  // namespace sonnx::enclose
