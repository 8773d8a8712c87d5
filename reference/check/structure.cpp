// Structural well-formedness (spec/structure.md): names, SSA, definedness, outputs, acyclicity,
// topological order. Each function checks one rule over the main graph and every subgraph.
// Relies on execution.mlw Kahn.kahn: Kahn's algorithm returns a topological order of every node, or reports a cycle exactly when there is one.
// Relies on structure.mlw Graph.topo_implies_acyclic: STRUCT-SSA and STRUCT-TOPO-ORDER imply STRUCT-ACYCLIC.
// Relies on structure.mlw Graph.topo_implies_defined: STRUCT-TOPO-ORDER implies STRUCT-DEFINED.
// Relies on composition.mlw Validated.validator_gives_dataflow_hypotheses: a graph satisfying STRUCT-SSA, STRUCT-DEFINED and STRUCT-TOPO-ORDER satisfies the hypotheses of the dataflow theorems (wf_init, inputs_defined), and its file order is a complete execution.
// Relies on composition.mlw Validated.validated_schedule: on a graph satisfying STRUCT-SSA and STRUCT-DEFINED, Kahn's algorithm on the successor lists succeeds iff STRUCT-ACYCLIC holds, and its order is then a complete execution.
// Relies on structure.mlw Graph.ssa_strict: the strict STRUCT-SSA of subgraphs (no input is an initializer) is the main graph's STRUCT-SSA together with SONNX-NO-INPUT-DEFAULT.
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "graph_walk.h"
#include "reference/model/names.h"
#include "reference/model/dependencies.h"
#include "rules.h"

namespace sonnx {

void check_names(CheckContext& c) {
  for_each_graph(c.model.ir.graph, [&](const Graph& g, const std::set<std::string>&) {
    for (const auto& v : g.inputs)
      if (v.name.empty())
        c.report("STRUCT-NAME", g.path, nullptr, "", "STRUCT-NAME: every graph input is named; an input has an empty name");
    for (const auto& v : g.outputs)
      if (v.name.empty())
        c.report("STRUCT-NAME", g.path, nullptr, "", "STRUCT-NAME: every graph output is named; an output has an empty name");
    for (const auto& [name, t] : g.initializers)
      if (name.empty())
        c.report("STRUCT-NAME", g.path, nullptr, "",
                 "STRUCT-NAME: every initializer is named; an initializer has an empty name");
    for (const auto& n : g.nodes)
      if (n.outputs.empty())
        c.report("STRUCT-NAME", g.path, &n, "", "STRUCT-NAME: a node has at least one output (C4); " + node_id(n) + " has none");
  });
}

void check_ssa(CheckContext& c) {
  for_each_graph(c.model.ir.graph, [&](const Graph& g, const std::set<std::string>& outer) {
    std::unordered_set<std::string> assigned;
    auto assign = [&](const std::string& name, const Node* n, const std::string& what) {
      if (name.empty()) return;
      if (outer.count(name)) {
        c.report("STRUCT-SSA", g.path, n, name,
                 "STRUCT-SSA: a subgraph may not re-assign a name of an enclosing scope; '" + name + "' is assigned again by " +
                     what);
      } else if (!assigned.insert(name).second) {
        c.report("STRUCT-SSA", g.path, n, name,
                 "STRUCT-SSA: every value is assigned exactly once; '" + name + "' is assigned again by " + what);
      }
    };
    // A main-graph input that also has an initializer is one value: the initializer is the input's
    // default (IR, "Names Within a Graph"). From IR version 4 on, a subgraph may not do this: its
    // inputs are bound by the operator running it.
    bool defaults_allowed = &g == &c.model.ir.graph || c.model.ir.ir_version <= 3;
    std::unordered_set<std::string> input_names;
    for (const auto& v : g.inputs) {
      assign(v.name, nullptr, "a graph input");
      input_names.insert(v.name);
    }
    auto assign_constant = [&](const std::string& name, const char* what) {
      if (!input_names.count(name)) assign(name, nullptr, what);
      else if (!defaults_allowed)
        c.report("STRUCT-SSA", g.path, nullptr, name,
                 "STRUCT-SSA: a subgraph input has no initializer (IR version >= 4); '" + name + "' is assigned again by " +
                     what);
    };
    for (const auto& [name, t] : g.initializers) assign_constant(name, "an initializer");
    for (const auto& s : g.sparse_initializers) assign_constant(s, "a sparse initializer");
    for (const auto& n : g.nodes)
      for (const auto& o : n.outputs) assign(o, &n, "node " + node_id(n) + " (" + n.op_type + ")");
  });
}

void check_defined(CheckContext& c) {
  for_each_graph(c.model.ir.graph, [&](const Graph& g, const std::set<std::string>& outer) {
    std::set<std::string> defined = defined_names(g);
    for (const auto& n : g.nodes)
      for (const auto& in : n.inputs)
        if (!in.empty() && !defined.count(in) && !outer.count(in))
          c.report("STRUCT-DEFINED", g.path, &n, in,
                   "STRUCT-DEFINED: every node input is defined (graph input, initializer, node output or outer scope); '" + in +
                       "' used by " + node_id(n) + " is not");
  });
}

void check_outputs_produced(CheckContext& c) {
  for_each_graph(c.model.ir.graph, [&](const Graph& g, const std::set<std::string>& outer) {
    std::set<std::string> defined = defined_names(g);
    for (const auto& o : g.outputs)
      if (!o.name.empty() && !defined.count(o.name) && !outer.count(o.name))
        c.report("STRUCT-OUTPUT", g.path, nullptr, o.name,
                 "STRUCT-OUTPUT: every graph output is produced; '" + o.name + "' is not");
  });
}

void check_acyclic(CheckContext& c) {
  for_each_graph(c.model.ir.graph, [&](const Graph& g, const std::set<std::string>&) {
    auto cycle = node_dependencies(g).cycle();
    if (cycle.empty()) return;
    std::string path;
    for (size_t i : cycle) path += node_id(g.nodes[i]) + " -> ";
    path += node_id(g.nodes[cycle.front()]);
    c.report("STRUCT-ACYCLIC", g.path, &g.nodes[cycle.front()], "", "STRUCT-ACYCLIC: the graph has no cycle; found " + path);
  });
}

void check_topological_order(CheckContext& c) {
  for_each_graph(c.model.ir.graph, [&](const Graph& g, const std::set<std::string>&) {
    const DependencyGraph deps = node_dependencies(g);
    if (!deps.topological_order()) return;  // a cycle is STRUCT-ACYCLIC's finding, not this one's
    for (size_t u = 0; u < g.nodes.size(); ++u)
      for (int v : deps.successors()[u])
        if (static_cast<size_t>(v) < u) {
          const Node& n = g.nodes[static_cast<size_t>(v)];
          c.report("STRUCT-TOPO-ORDER", g.path, &n, "",
                   "STRUCT-TOPO-ORDER: nodes are listed in a topological order; " + node_id(n) + " comes before " +
                       node_id(g.nodes[u]) + ", whose output it uses");
          return;  // one finding per graph: the rest of the misordering follows from it
        }
  });
}

}  // namespace sonnx
