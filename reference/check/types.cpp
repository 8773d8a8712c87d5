// TYPE-INFERENCE: sonnx's own type and shape inference (reference/infer/) finds every value's type
// without contradiction, and every node's inputs and outputs satisfy the type constraints of its
// schema in the operator catalogue: each type in the constraint's list, and the values that share
// a (non-heterogeneous) type parameter of one type. Nodes of model-local function bodies are checked
// at each call, with the types of that call (what inlining produces).
#include <algorithm>
#include <map>
#include <set>

#include "reference/catalogue/catalogue.h"
#include "reference/infer/infer.h"
#include "reference/ops/op_table.h"
#include "rules.h"
#include "graph_walk.h"
#include "typed_nodes.h"

namespace sonnx {

namespace {

void check_node_constraints(CheckContext& c, const Node& n, const std::string& graph, const TypeLookup& type_of) {
  const Model& m = c.model.ir;
  const auto* s = catalogue::find(n.domain, n.op_type, node_opset(m, n));
  if (!s || !s->documents_structure()) return;
  std::map<std::string, std::string> bound;
  auto visit = [&](const std::vector<std::string>& names, const std::vector<catalogue::Formal>& formals, const char* side) {
    for (size_t i = 0; i < names.size() && !formals.empty(); ++i) {
      if (names[i].empty()) continue;
      const auto& f = i < formals.size() ? formals[i] : formals.back();
      if (i >= formals.size() && f.option != catalogue::Formal::Option::Variadic) break;  // OP-ARITY's finding
      const TypeInfo* t = type_of(names[i]);
      std::string got = t ? constraint_spelling(*t) : "";
      if (!known_spelling(got)) continue;
      const auto* tc = s->constraint(f.type);
      const std::vector<std::string> allowed = tc ? tc->types : std::vector<std::string>{f.type};
      auto where = std::string(side) + " '" + names[i] + "' (" + f.name + ")";
      if (std::find(allowed.begin(), allowed.end(), got) == allowed.end()) {
        c.report("TYPE-INFERENCE", graph, &n, names[i],
                 "TYPE-INFERENCE: types satisfy the schemas' constraints; " + where + " of " + s->id() + " is " + got +
                     ", not one of " + f.type + "'s types");
        continue;
      }
      if (!tc || f.heterogeneous) continue;
      auto [it, fresh] = bound.emplace(f.type, got);
      if (!fresh && it->second != got)
        c.report("TYPE-INFERENCE", graph, &n, names[i],
                 "TYPE-INFERENCE: types satisfy the schemas' constraints; " + where + " of " + s->id() + " is " + got +
                     ", but " + f.type + " is already " + it->second);
    }
  };
  visit(n.inputs, s->inputs, "input");
  visit(n.outputs, s->outputs, "output");
}

}  // namespace

void check_type_inference(CheckContext& c) {
  // Inference presupposes a well-formed graph; on a malformed one its findings are echoes of the
  // structural error. Likewise a node another rule already rejected is not reported again.
  if (!inference_applies(c)) return;
  std::set<std::string> already;  // graph path + node
  for (const auto& d : c.out)
    if (d.severity == Severity::Error && !d.node.empty()) already.insert(d.graph + "\n" + d.node);
  const InferenceResult& r = inference_of(c);
  for (const auto& e : r.errors) {
    // A finding inside an expanded call of a local function names the body's node, as rules do.
    std::string graph = e.graph, node = e.node;
    for (const auto& call : r.calls)
      if (call.path == e.graph && node.starts_with(call.prefix)) {
        graph = call.function;
        node = node.substr(call.prefix.size());
      }
    if (!already.insert(graph + "\n" + node).second) continue;
    Diagnostic d;
    d.rule = "TYPE-INFERENCE";
    d.severity = Severity::Error;
    d.graph = graph;
    d.node = node;
    d.op_type = e.op_type;
    d.message = "TYPE-INFERENCE: types and shapes are consistent; " + e.message;
    c.out.push_back(std::move(d));
  }
  for_each_typed_node(c.model.ir, r, [&](const Node& n, const std::string& graph, const TypeLookup& type_of) {
    if (already.count(graph + "\n" + node_id(n))) return;
    size_t before = c.out.size();
    check_node_constraints(c, n, graph, type_of);
    if (c.out.size() > before) already.insert(graph + "\n" + node_id(n));  // one call's finding is enough
  });
}

}  // namespace sonnx
