// SONNX graph restrictions (spec/restrictions.md): every node contributes to an output (R1), no
// value or graph input is left unused (C1, C6 tightened), no optional input/output is omitted.
// Relies on structure.mlw Graph.no_dead_node_r1: SONNX-DEAD-NODE implies the working group's restriction R1.
#include <unordered_map>
#include <unordered_set>

#include "graph_walk.h"
#include "reference/model/names.h"
#include "rules.h"

namespace sonnx {

namespace {
// Which nodes of a list lie on a path to one of its outputs (reverse reachability).
std::vector<bool> live_nodes(const std::vector<Node>& nodes, const std::vector<std::string>& outputs) {
  std::unordered_map<std::string, size_t> producer;
  for (size_t i = 0; i < nodes.size(); ++i)
    for (const auto& o : nodes[i].outputs)
      if (!o.empty()) producer.emplace(o, i);
  std::vector<bool> live(nodes.size(), false);
  std::vector<std::string> work(outputs.begin(), outputs.end());
  std::unordered_set<std::string> seen;
  while (!work.empty()) {
    std::string name = std::move(work.back());
    work.pop_back();
    if (!seen.insert(name).second) continue;
    auto it = producer.find(name);
    if (it == producer.end() || live[it->second]) continue;
    live[it->second] = true;
    const Node& n = nodes[it->second];
    for (const auto& in : n.inputs)
      if (!in.empty()) work.push_back(in);
    for (const auto& in : implicit_inputs(n)) work.push_back(in);
  }
  return live;
}

std::unordered_set<std::string> consumed_names(const std::vector<Node>& nodes) {
  std::unordered_set<std::string> used;
  for (const auto& n : nodes) {
    for (const auto& in : n.inputs) used.insert(in);
    for (const auto& in : implicit_inputs(n)) used.insert(in);
  }
  return used;
}
}  // namespace

// Each rule below judges every node list of the model (graph_walk.h): the main graph, its
// subgraphs and the bodies of model-local functions, whose nodes inlining puts in the graph.
void check_dead_nodes(CheckContext& c) {
  for_each_node_list(c.model.ir, [&](const NodeList& l) {
    auto live = live_nodes(l.nodes, l.outputs);
    for (size_t i = 0; i < l.nodes.size(); ++i)
      if (!live[i])
        c.report("SONNX-DEAD-NODE", l.path, &l.nodes[i], "",
                 "SONNX-DEAD-NODE: every node lies on a path to a graph output; " + node_id(l.nodes[i]) + " (" +
                     l.nodes[i].op_type + ") contributes to no output");
  });
}

void check_unused_values(CheckContext& c) {
  for_each_node_list(c.model.ir, [&](const NodeList& l) {
    auto live = live_nodes(l.nodes, l.outputs);
    auto used = consumed_names(l.nodes);
    used.insert(l.outputs.begin(), l.outputs.end());
    for (size_t i = 0; i < l.nodes.size(); ++i) {
      if (!live[i]) continue;  // a dead node is SONNX-DEAD-NODE's finding
      for (const auto& o : l.nodes[i].outputs)
        if (!o.empty() && !used.count(o))
          c.report("SONNX-UNUSED-VALUE", l.path, &l.nodes[i], o,
                   "SONNX-UNUSED-VALUE: every node output is consumed or is a graph output; '" + o + "' of " +
                       node_id(l.nodes[i]) + " is neither");
    }
  });
}

void check_unused_inputs(CheckContext& c) {
  const Graph& g = c.model.ir.graph;
  auto used = consumed_names(g.nodes);
  for (const auto& in : g.inputs)
    if (!used.count(in.name))
      c.report("SONNX-UNUSED-INPUT", g.path, nullptr, in.name,
               "SONNX-UNUSED-INPUT: every graph input is consumed by a node (C1); '" + in.name + "' is not");
  // A parameter its body does not read leaves the call's actual input unread once inlined.
  for_each_node_list(c.model.ir, [&](const NodeList& l) {
    if (l.graph || !l.function) return;  // the body itself, not its subgraphs
    auto body_used = consumed_names(l.nodes);
    body_used.insert(l.outputs.begin(), l.outputs.end());
    for (const auto& p : l.function->inputs)
      if (!p.empty() && !body_used.count(p))
        c.report("SONNX-UNUSED-INPUT", l.path, nullptr, p,
                 "SONNX-UNUSED-INPUT: every function parameter is consumed by a node of the body; '" + p + "' is not");
  });
}

void check_omitted_io(CheckContext& c) {
  for_each_node_list(c.model.ir, [&](const NodeList& l) {
    for (const auto& n : l.nodes) {
      for (size_t i = 0; i < n.inputs.size(); ++i)
        if (n.inputs[i].empty())
          c.report("SONNX-OMITTED-IO", l.path, &n, "",
                   "SONNX-OMITTED-IO: no optional input is omitted; input " + std::to_string(i) + " of " + node_id(n) +
                       " is empty");
      for (size_t i = 0; i < n.outputs.size(); ++i)
        if (n.outputs[i].empty())
          c.report("SONNX-OMITTED-IO", l.path, &n, "",
                   "SONNX-OMITTED-IO: no optional output is omitted; output " + std::to_string(i) + " of " + node_id(n) +
                       " is empty");
    }
  });
}

}  // namespace sonnx
