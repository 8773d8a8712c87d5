#include "localize.h"

#include "one_node_model.h"

#include "conformance/enclosure_judge.h"
#include "reference/interp/inliner.h"
#include "reference/interp/interpreter.h"
#include "sonnx/errors.h"
#include "reference/model/dependencies.h"
#include "reference/model/ir.h"
#include "reference/ops/op_table.h"

namespace sonnx {

namespace {

// What the nodes judged before the one at hand showed.
std::string nodes_before(size_t n) {
  if (n == 0) return "it is the first node";
  return n == 1 ? "the node before it stays within its enclosure"
                : "the " + std::to_string(n) + " nodes before it stay within their enclosures";
}

Localization not_localized(const std::string& why) { return {"not localized: " + why, "", std::nullopt}; }

Localization named(const Node& n, const std::string& what, LocalizedNode evidence) {
  return {"node " + n.label() + what, qualified_op_type(n), std::move(evidence)};
}

}  // namespace

Localization localize_error(const Model& model, TargetStage& stage, const NamedValues& inputs) {
  Model flat = inline_model(model);
  const Graph& g = flat.graph;
  for (const Node& n : g.nodes)
    if (n.has_subgraph()) return not_localized("node " + n.label() + " has a subgraph (control flow is not localized yet)");
  auto order = node_dependencies(g).topological_order();
  if (!order) return not_localized("the graph has a cycle");
  NamedValues values = inputs;  // the backend's own values, node by node
  for (const auto& [name, t] : g.initializers)
    if (!values.count(name)) values[name] = Value(t);
  Interpreter reference(flat);
  size_t judged = 0;
  for (size_t i : *order) {
    const Node& n = g.nodes[i];
    NamedValues feed;
    for (const auto& in : n.inputs) {
      if (in.empty()) continue;
      auto it = values.find(in);
      if (it == values.end() || !it->second.is_tensor())
        return not_localized("node " + n.label() + " reads '" + in + "', which is not a tensor the backend produced");
      feed[in] = it->second;
    }
    Model one;
    NamedValues expected;
    try {
      std::vector<Value> out;
      one = one_node_model(flat, n, feed, reference, &out);
      for (size_t k = 0; k < n.outputs.size() && k < out.size(); ++k)
        if (!n.outputs[k].empty()) expected[n.outputs[k]] = out[k];
    } catch (const std::exception& e) {
      return not_localized("the reference cannot run node " + n.label() + " alone: " + e.what());
    }
    TargetResult r = stage.run(one, feed);
    if (r.status != "ok")
      return not_localized("the backend cannot run node " + n.label() + " alone (" + r.status + ": " + r.message + ")");
    std::string why;
    std::optional<OutputEnclosures> e = enclose_outputs(one, feed, why);
    if (!e) return not_localized("node " + n.label() + " has no enclosure (" + why + "); " + nodes_before(judged));
    auto evidence = [&] { return LocalizedNode{n.label(), one, feed, expected, r.outputs, *e}; };
    for (const auto& vi : one.graph.outputs) {
      auto got = r.outputs.find(vi.name);
      if (got == r.outputs.end()) return named(n, ": the backend did not produce output '" + vi.name + "'", evidence());
      EnclosureCheck c = judge_output(vi.name, got->second, *e);
      if (!c.ok)
        return named(n,
                     " introduces the error: on the backend's own inputs, output '" + vi.name + "': " + c.message + "; " +
                         nodes_before(judged),
                     evidence());
      values[vi.name] = got->second;
    }
    ++judged;
  }
  return not_localized("every node's output lies within its enclosure on the backend's own inputs");
}

}  // namespace sonnx
