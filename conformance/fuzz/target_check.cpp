#include "target_check.h"

#include <cmath>

#include "conformance/certify/one_node_model.h"
#include "conformance/enclosure_judge.h"
#include "reference/interp/inliner.h"
#include "reference/interp/interpreter.h"
#include "sonnx/errors.h"

namespace sonnx::fuzz {

namespace {

TargetVerdict skipped(std::string why) { return {TargetVerdict::Kind::Skipped, "", std::move(why)}; }
TargetVerdict failed(std::string deviation, std::string message) {
  return {TargetVerdict::Kind::Failed, std::move(deviation), std::move(message)};
}

// What kind of deviation an output judged wrong shows.
std::string deviation_of(const Value& actual, const enclose::Bounds& b) {
  if (!b.is_tensor()) {  // a sequence or an optional: of the right kind, an element lies outside
    bool same_kind = b.kind == enclose::Bounds::Kind::Sequence ? actual.is_sequence() : actual.is_optional();
    return same_kind ? "outside-enclosure" : "wrong-type";
  }
  if (!actual.is_tensor() || actual.tensor.dtype() != b.type) return "wrong-type";
  const Tensor& t = actual.tensor;
  if (t.shape() != b.lo.shape()) return "wrong-shape";
  if (b.exact()) return "wrong-value";
  for (int64_t i = 0; i < t.size(); ++i)
    if (std::isnan(t.as_double(i)) && !std::isnan(b.lo.as_double(i))) return "nan";
  return "outside-enclosure";
}

// The target's result judged against the model's enclosures `e`.
TargetVerdict judge(const Model& model, const TargetResult& r, const OutputEnclosures& e) {
  if (r.status == "unsupported") return skipped("unsupported: " + r.message);
  if (r.status != "ok") return failed(r.status, r.message);
  for (const auto& vi : model.graph.outputs) {
    auto got = r.outputs.find(vi.name);
    if (got == r.outputs.end()) return failed("missing-output", "output '" + vi.name + "' missing");
    EnclosureCheck c = judge_output(vi.name, got->second, e);
    if (!c.ok) return failed(deviation_of(got->second, e.admissible.at(vi.name)), "output '" + vi.name + "': " + c.message);
  }
  return {};
}

}  // namespace

TargetVerdict check_on_target(TargetStage& stage, const Model& model, const NamedValues& inputs) {
  std::string why;
  std::optional<OutputEnclosures> e = enclose_outputs(model, inputs, why);
  if (!e) return skipped(why);
  return judge(model, stage.run(model, inputs), *e);
}

std::optional<FailingNode> first_failing_node(TargetStage& stage, const Model& model, const NamedValues& inputs) {
  Model flat = inline_model(model);
  // The reference runs the model; each node is judged alone on the target as it comes, inside the
  // If branch taken and each Loop iteration too. The walk stops at the first that fails.
  Interpreter walk(flat), alone(flat);
  std::optional<FailingNode> found;
  struct Found {};
  walk.set_node_hook([&](const Node& n, const std::vector<const Value*>& in) -> std::optional<std::vector<Value>> {
    NamedValues feed;
    for (size_t k = 0; k < n.inputs.size() && k < in.size(); ++k)
      if (!n.inputs[k].empty() && in[k]) feed[n.inputs[k]] = *in[k];
    Model one;
    try {
      one = one_node_model(flat, n, feed, alone);
    } catch (const Unsupported&) {
      return std::nullopt;  // a node making a sequence is not judged alone
    }
    TargetVerdict v = check_on_target(stage, one, feed);
    if (v.kind != TargetVerdict::Kind::Failed) return std::nullopt;
    found = FailingNode{n, std::move(one), std::move(feed), std::move(v)};
    throw Found{};
  });
  try {
    walk.run(inputs);
  } catch (const Found&) {
  }
  return found;
}

std::string attribute_pattern(const Node& n, const NamedValues& inputs) {
  std::string pattern;
  const Tensor* first = nullptr;
  bool unequal = false;  // same-typed inputs of different shapes: broadcasting, for elementwise operators
  for (const auto& in : n.inputs) {
    const Value* v = in.empty() ? nullptr : &inputs.at(in);
    if (v && !v->is_tensor()) continue;
    pattern += (pattern.empty() ? "" : ",") + std::string(v ? dtype_name(v->tensor.dtype()) : "-");
    if (!v) continue;
    if (!first) first = &v->tensor;
    else if (v->tensor.dtype() == first->dtype() && v->tensor.shape() != first->shape()) unequal = true;
  }
  if (unequal) pattern += "; unequal shapes";
  for (const Attribute& a : n.attributes) {
    if (a.type == Attribute::Type::Int) pattern += "; " + a.name + "=" + std::to_string(a.i);
    else if (a.type == Attribute::Type::String) pattern += "; " + a.name + "=" + a.s;
  }
  return pattern;
}

}  // namespace sonnx::fuzz
