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
// Which nodes of g lie on a path to one of its outputs (reverse reachability).
std::vector<bool> live_nodes(const Graph& g) {
  std::unordered_map<std::string, size_t> producer;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    for (const auto& o : g.nodes[i].outputs)
      if (!o.empty()) producer.emplace(o, i);
  std::vector<bool> live(g.nodes.size(), false);
  std::vector<std::string> work;
  for (const auto& o : g.outputs) work.push_back(o.name);
  std::unordered_set<std::string> seen;
  while (!work.empty()) {
    std::string name = std::move(work.back());
    work.pop_back();
    if (!seen.insert(name).second) continue;
    auto it = producer.find(name);
    if (it == producer.end() || live[it->second]) continue;
    live[it->second] = true;
    const Node& n = g.nodes[it->second];
    for (const auto& in : n.inputs)
      if (!in.empty()) work.push_back(in);
    for (const auto& in : implicit_inputs(n)) work.push_back(in);
  }
  return live;
}

std::unordered_set<std::string> consumed_names(const Graph& g) {
  std::unordered_set<std::string> used;
  for (const auto& n : g.nodes) {
    for (const auto& in : n.inputs) used.insert(in);
    for (const auto& in : implicit_inputs(n)) used.insert(in);
  }
  return used;
}
}  // namespace

void check_dead_nodes(CheckContext& c) {
  for_each_graph(c.model.ir.graph, [&](const Graph& g, const std::set<std::string>&) {
    auto live = live_nodes(g);
    for (size_t i = 0; i < g.nodes.size(); ++i)
      if (!live[i])
        c.report("SONNX-DEAD-NODE", g.path, &g.nodes[i], "",
                 "SONNX-DEAD-NODE: every node lies on a path to a graph output; " + node_id(g.nodes[i]) + " (" + g.nodes[i].op_type +
                     ") contributes to no output");
  });
}

void check_unused_values(CheckContext& c) {
  for_each_graph(c.model.ir.graph, [&](const Graph& g, const std::set<std::string>&) {
    auto live = live_nodes(g);
    auto used = consumed_names(g);
    for (const auto& o : g.outputs) used.insert(o.name);
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      if (!live[i]) continue;  // a dead node is SONNX-DEAD-NODE's finding
      for (const auto& o : g.nodes[i].outputs)
        if (!o.empty() && !used.count(o))
          c.report("SONNX-UNUSED-VALUE", g.path, &g.nodes[i], o,
                   "SONNX-UNUSED-VALUE: every node output is consumed or is a graph output; '" + o + "' of " + node_id(g.nodes[i]) + " is neither");
    }
  });
}

void check_unused_inputs(CheckContext& c) {
  const Graph& g = c.model.ir.graph;
  auto used = consumed_names(g);
  for (const auto& in : g.inputs)
    if (!used.count(in.name))
      c.report("SONNX-UNUSED-INPUT", g.path, nullptr, in.name, "SONNX-UNUSED-INPUT: every graph input is consumed by a node (C1); '" + in.name + "' is not");
}

void check_omitted_io(CheckContext& c) {
  for_each_graph(c.model.ir.graph, [&](const Graph& g, const std::set<std::string>&) {
    for (const auto& n : g.nodes) {
      for (size_t i = 0; i < n.inputs.size(); ++i)
        if (n.inputs[i].empty())
          c.report("SONNX-OMITTED-IO", g.path, &n, "", "SONNX-OMITTED-IO: no optional input is omitted; input " + std::to_string(i) + " of " + node_id(n) + " is empty");
      for (size_t i = 0; i < n.outputs.size(); ++i)
        if (n.outputs[i].empty())
          c.report("SONNX-OMITTED-IO", g.path, &n, "", "SONNX-OMITTED-IO: no optional output is omitted; output " + std::to_string(i) + " of " + node_id(n) + " is empty");
    }
  });
}

}  // namespace sonnx
