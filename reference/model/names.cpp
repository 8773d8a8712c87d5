#include "names.h"

namespace sonnx {

std::set<std::string> defined_names(const Graph& g) {
  std::set<std::string> out;
  for (const auto& v : g.inputs) out.insert(v.name);
  for (const auto& [name, t] : g.initializers) out.insert(name);
  for (const auto& s : g.sparse_initializers) out.insert(s);
  for (const auto& n : g.nodes)
    for (const auto& o : n.outputs)
      if (!o.empty()) out.insert(o);
  return out;
}

std::set<std::string> implicit_inputs(const Node& n) {
  std::set<std::string> out;
  for (const auto& a : n.attributes) {
    if (a.g) out.merge(free_names(*a.g));
    for (const auto& g : a.graphs) out.merge(free_names(*g));
  }
  return out;
}

std::set<std::string> free_names(const Graph& g) {
  std::set<std::string> defined = defined_names(g);
  std::set<std::string> out;
  auto use = [&](const std::string& name) {
    if (!name.empty() && !defined.count(name)) out.insert(name);
  };
  for (const auto& n : g.nodes) {
    for (const auto& i : n.inputs) use(i);
    for (const auto& i : implicit_inputs(n)) use(i);
  }
  for (const auto& o : g.outputs) use(o.name);
  return out;
}

void collect_all_names(const std::vector<Node>& nodes, std::set<std::string>& out) {
  for (const auto& n : nodes) {
    for (const auto& i : n.inputs)
      if (!i.empty()) out.insert(i);
    for (const auto& o : n.outputs)
      if (!o.empty()) out.insert(o);
    for (const auto& a : n.attributes) {
      if (a.g) collect_all_names(*a.g, out);
      for (const auto& g : a.graphs) collect_all_names(*g, out);
    }
  }
}

void collect_all_names(const Graph& g, std::set<std::string>& out) {
  for (const auto* list : {&g.inputs, &g.outputs, &g.value_info})
    for (const auto& v : *list)
      if (!v.name.empty()) out.insert(v.name);
  for (const auto& [name, t] : g.initializers) out.insert(name);
  for (const auto& s : g.sparse_initializers) out.insert(s);
  collect_all_names(g.nodes, out);
}

void collect_subgraph_definitions(const std::vector<Node>& nodes, std::set<std::string>& out) {
  auto sub = [&](const Graph& g) {
    out.merge(defined_names(g));
    collect_subgraph_definitions(g.nodes, out);
  };
  for (const auto& n : nodes)
    for (const auto& a : n.attributes) {
      if (a.g) sub(*a.g);
      for (const auto& g : a.graphs) sub(*g);
    }
}

}  // namespace sonnx
