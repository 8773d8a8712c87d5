// Function rules (spec/functions.md): no recursion among model-local functions, bodies that are
// well formed on their own, so that inlining gives a well-formed, function-free graph, and no
// local function that takes a standard operator's name (which ONNX makes a mere fallback of it).
// Relies on functions.mlw Inline.inline: inlining terminates on a call graph without cycles (variant: callee rank, then list).
// Relies on structure.mlw Graph.rank_no_recursion: a rank decreasing along calls excludes recursion.
// Relies on composition.mlw Recursion.kahn_decides_recursion: Kahn's algorithm on the call graph schedules every function iff FUNC-RECURSION holds, and then every call goes forward in its order.
#include <map>
#include <set>

#include "graph_walk.h"
#include "reference/model/dependencies.h"
#include "reference/model/schedule.h"
#include "reference/ops/op_table.h"
#include "rules.h"

namespace sonnx {

namespace {
std::string fn_id(const Function& f) { return (f.domain.empty() ? "" : f.domain + ".") + f.name; }

// The functions called in a list of nodes (and their subgraphs): calls of local functions only,
// as resolve_op decides them (a function shadowing a standard operator is never called).
void calls_in(const Model& m, const std::vector<Node>& nodes, std::set<size_t>& out) {
  for (const auto& n : nodes) {
    if (const Function* f = called_function(m, n)) out.insert(static_cast<size_t>(f - m.functions.data()));
    for (const auto& a : n.attributes) {
      if (a.g) calls_in(m, a.g->nodes, out);
      for (const auto& sg : a.graphs) calls_in(m, sg->nodes, out);
    }
  }
}
}  // namespace

void check_function_recursion(CheckContext& c) {
  const Model& m = c.model.ir;
  size_t n = m.functions.size();
  // The call graph, an edge f -> h when f calls h, decided by the same Kahn's algorithm as
  // STRUCT-ACYCLIC (Kahn.kahn: it schedules every function iff there is no call cycle).
  std::vector<std::vector<size_t>> succ(n);
  for (size_t i = 0; i < n; ++i) {
    std::set<size_t> callees;
    calls_in(m, m.functions[i].nodes, callees);
    succ[i].assign(callees.begin(), callees.end());
  }
  auto cycle = kahn_cycle(n, succ);
  if (cycle.empty()) return;
  c.has_recursion = true;
  std::string path;
  for (size_t i : cycle) path += fn_id(m.functions[i]) + " -> ";
  path += fn_id(m.functions[cycle.front()]);
  c.report("FUNC-RECURSION", "function " + fn_id(m.functions[cycle.front()]), nullptr, "",
           "FUNC-RECURSION: functions may not call themselves, directly or indirectly; call cycle " + path);
}

void check_function_bodies(CheckContext& c) {
  for (const auto& f : c.model.ir.functions) {
    std::string path = "function " + fn_id(f);
    auto bad = [&](const Node* n, const std::string& value, const std::string& what) {
      c.report("FUNC-BODY", path, n, value, "FUNC-BODY: a function body is a well-formed graph over its inputs; " + what);
    };
    // Parameters and results: each list without repetition, and no result is a parameter
    // (functions.mlw, wf_fun: nodup params, nodup results, disjoint params results).
    std::set<std::string> params, results;
    for (const auto& p : f.inputs)
      if (!params.insert(p).second) bad(nullptr, p, "parameter '" + p + "' is listed twice");
    for (const auto& r : f.outputs)
      if (!results.insert(r).second) bad(nullptr, r, "result '" + r + "' is listed twice");
    // Each value assigned once; a parameter is never assigned by a body node.
    std::set<std::string> produced;  // outputs of body nodes
    for (const auto& n : f.nodes)
      for (const auto& o : n.outputs) {
        if (o.empty()) continue;
        if (params.count(o)) bad(&n, o, "parameter '" + o + "' is assigned by " + node_id(n));
        else if (!produced.insert(o).second) bad(&n, o, "'" + o + "' is assigned twice");
      }
    for (const auto& n : f.nodes)
      for (const auto& in : n.inputs)
        if (!in.empty() && !params.count(in) && !produced.count(in))
          bad(&n, in, "'" + in + "' used by " + node_id(n) + " is not defined in the body");
    // Every result is produced by a node of the body: a result that is a parameter (or nothing)
    // would leave the call's output undefined after inlining.
    for (const auto& r : results) {
      if (params.count(r))
        bad(nullptr, r, "result '" + r + "' is one of the function's parameters (return it through Identity)");
      else if (r.empty() || !produced.count(r)) bad(nullptr, r, "result '" + r + "' is not produced by a node of the body");
    }
    // Acyclic, decided by the same Kahn's algorithm as graphs.
    Graph body;
    body.nodes = f.nodes;
    if (!node_dependencies(body).topological_order()) bad(nullptr, "", "the body has a cycle");
  }
}

void check_function_shadowing(CheckContext& c) {
  const Model& m = c.model.ir;
  for (const auto& f : m.functions) {
    const catalogue::Schema* s = shadowed_operator(m, f);
    if (!s) continue;
    std::string domain = f.domain.empty() ? "ai.onnx" : f.domain;
    c.report("FUNC-SHADOWS-STANDARD", "function " + fn_id(f), nullptr, f.name,
             "FUNC-SHADOWS-STANDARD: a model-local function does not take a standard operator's domain and name; function '" +
                 f.name + "' of domain " + domain + " shadows the standard operator " + s->id() + " (" + domain + " opset " +
                 std::to_string(m.opset(f.domain)) +
                 "); ONNX makes it a fallback implementation of that operator, so its calls run " + s->id() +
                 " and this body never runs");
  }
}

}  // namespace sonnx
