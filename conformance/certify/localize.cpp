#include "localize.h"

#include "conformance/enclosure_judge.h"
#include "reference/interp/inliner.h"
#include "reference/interp/interpreter.h"
#include "sonnx/errors.h"
#include "reference/model/dependencies.h"
#include "reference/model/ir.h"
#include "reference/ops/op_table.h"

namespace sonnx {

namespace {

TypeInfo type_of(const Value& v) {
  TypeInfo t;
  t.kind = TypeInfo::Kind::Tensor;
  t.elem = v.tensor.dtype();
  std::vector<Dim> dims;
  for (int64_t d : v.tensor.shape()) dims.push_back(Dim{d, ""});
  t.shape = dims;
  return t;
}

// The model of one node: its inputs are graph inputs of the types of `values`, its outputs those of
// the reference's run of it (so the backend is told what to produce), which `reference_out` receives.
Model one_node_model(const Model& flat, const Node& n, const NamedValues& values, Interpreter& reference,
                     NamedValues& reference_out) {
  std::vector<Value> args;
  for (const auto& in : n.inputs) args.push_back(in.empty() ? Value() : values.at(in));
  std::vector<const Value*> ptrs;
  for (size_t k = 0; k < args.size(); ++k) ptrs.push_back(n.inputs[k].empty() ? nullptr : &args[k]);
  ValueScope scope;
  std::vector<Value> out = reference.run_node(n, ptrs, scope, node_opset(flat, n));
  Model m;
  m.ir_version = flat.ir_version;
  m.opset_imports = flat.opset_imports;
  // A node from an inlined function body runs under the body's opset: imported, so that the model
  // written to a repro directory means the same.
  if (n.opset_version != 0) m.opset_imports[canonical_domain(n.domain)] = n.opset_version;
  m.graph.name = "localize_" + n.name;
  m.graph.path = "main";
  Node copy = n;
  copy.index = 0;
  m.graph.nodes.push_back(copy);
  for (const auto& in : n.inputs) {
    if (in.empty()) continue;
    bool seen = false;
    for (const auto& vi : m.graph.inputs) seen = seen || vi.name == in;
    if (!seen) m.graph.inputs.push_back({in, type_of(values.at(in))});
  }
  for (size_t k = 0; k < n.outputs.size() && k < out.size(); ++k) {
    if (n.outputs[k].empty()) continue;
    if (!out[k].is_tensor()) throw Unsupported("output '" + n.outputs[k] + "' is not a tensor");
    m.graph.outputs.push_back({n.outputs[k], type_of(out[k])});
    reference_out[n.outputs[k]] = out[k];
  }
  return m;
}

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

Localization localize_error(const Model& model, CertTarget& target, const TestCase& test, const std::filesystem::path& data_set,
                            const NamedValues& inputs) {
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
      one = one_node_model(flat, n, feed, reference, expected);
    } catch (const std::exception& e) {
      return not_localized("the reference cannot run node " + n.label() + " alone: " + e.what());
    }
    TargetResult r = target.run(one, test, data_set, feed);
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
