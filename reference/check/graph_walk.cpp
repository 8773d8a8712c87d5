#include "graph_walk.h"

#include "reference/model/names.h"

namespace sonnx {

namespace {
std::string function_path(const Function& f) { return "function " + (f.domain.empty() ? "" : f.domain + ".") + f.name; }

void walk(const Graph& g, const std::set<std::string>& outer, const GraphVisitor& visit) {
  visit(g, outer);
  std::set<std::string> inner = outer;
  inner.merge(defined_names(g));
  for (const auto& n : g.nodes)
    for (const auto& a : n.attributes) {
      if (a.g) walk(*a.g, inner, visit);
      for (const auto& sg : a.graphs) walk(*sg, inner, visit);
    }
}
}  // namespace

void for_each_graph(const Graph& main, const GraphVisitor& visit) { walk(main, {}, visit); }

namespace {
void visit_nodes(const std::vector<Node>& nodes, const std::string& path, const std::map<std::string, int64_t>& opsets,
                 const Function* fn, const NodeVisitor& visit) {
  for (const auto& n : nodes) {
    visit(n, path, opsets, fn);
    for (const auto& a : n.attributes) {
      if (a.g) visit_nodes(a.g->nodes, a.g->path, opsets, fn, visit);
      for (const auto& sg : a.graphs) visit_nodes(sg->nodes, sg->path, opsets, fn, visit);
    }
  }
}
}  // namespace

void for_each_node(const Model& m, const NodeVisitor& visit) {
  visit_nodes(m.graph.nodes, m.graph.path, m.opset_imports, nullptr, visit);
  for (const auto& f : m.functions) visit_nodes(f.nodes, function_path(f), f.opset_imports, &f, visit);
}

namespace {
void visit_lists(const Graph& g, const Function* fn, const std::map<std::string, int64_t>& opsets,
                 const std::function<void(const NodeList&)>& visit) {
  std::vector<std::string> outputs;
  for (const auto& o : g.outputs) outputs.push_back(o.name);
  visit(NodeList{g.nodes, std::move(outputs), &g, fn, g.path, opsets});
  for (const auto& n : g.nodes)
    for (const auto& a : n.attributes) {
      if (a.g) visit_lists(*a.g, fn, opsets, visit);
      for (const auto& sg : a.graphs) visit_lists(*sg, fn, opsets, visit);
    }
}
}  // namespace

void for_each_node_list(const Model& m, const std::function<void(const NodeList&)>& visit) {
  visit_lists(m.graph, nullptr, m.opset_imports, visit);
  for (const auto& f : m.functions) {
    std::string path = function_path(f);
    visit(NodeList{f.nodes, f.outputs, nullptr, &f, path, f.opset_imports});
    for (const auto& n : f.nodes)
      for (const auto& a : n.attributes) {
        if (a.g) visit_lists(*a.g, &f, f.opset_imports, visit);
        for (const auto& sg : a.graphs) visit_lists(*sg, &f, f.opset_imports, visit);
      }
  }
}

std::string node_id(const Node& n) { return n.name.empty() ? "#" + std::to_string(n.index) : n.name; }

}  // namespace sonnx
