#include "gradient.h"

#include <cstdint>
#include <map>

#include "sonnx/errors.h"

namespace sonnx {

GradientParams GradientParams::read(const AttrReader& r, int64_t /*version*/) {
  GradientParams p;
  p.xs = r.attr_strings("xs");
  // An empty list carries no element type; writers (onnx.helper) may store an empty zs as INTS.
  const Attribute* zs = r.attr("zs");
  bool zs_empty_list = zs && zs->ints.empty() && zs->strings.empty() &&
                       (zs->type == Attribute::Type::Ints || zs->type == Attribute::Type::Strings);
  if (!zs_empty_list) p.zs = r.attr_strings("zs");
  if (!r.has_attr("y")) r.fail("attribute 'y' is required");
  p.y = r.attr_string("y", "");
  return p;
}

std::set<std::string> GradientParams::independent() const {
  std::set<std::string> s(xs.begin(), xs.end());
  s.insert(zs.begin(), zs.end());
  return s;
}

namespace {
const std::map<std::string, std::vector<LocalDerivative>>& local_derivative_table() {
  using enum LocalDerivative;
  static const std::map<std::string, std::vector<LocalDerivative>> table = {
      {"Identity", {G}},
      {"Neg", {MinusG}},
      {"Add", {G, G}},
      {"Sub", {G, MinusG}},
      {"Mul", {GTimesB, GTimesA}},
      {"Div", {GOverB, MinusGTimesAOverBB}},  // d(a/b)/da = 1/b, d(a/b)/db = -a/b²
  };
  return table;
}
}  // namespace

const std::vector<LocalDerivative>& local_derivatives(const std::string& op_type) {
  return local_derivative_table().at(op_type);
}

std::vector<size_t> gradient_path(const AttrReader& r, const std::vector<Node>& graph, const GradientParams& p) {
  const std::set<std::string> independent = p.independent();
  std::map<std::string, size_t> producer;
  for (size_t i = 0; i < graph.size(); ++i)
    for (const auto& o : graph[i].outputs)
      if (!o.empty()) producer[o] = i;
  std::set<size_t> selected;
  std::vector<std::string> todo{p.y};
  std::set<std::string> seen;
  while (!todo.empty()) {
    std::string name = todo.back();
    todo.pop_back();
    if (name.empty() || independent.count(name) || !seen.insert(name).second) continue;
    auto it = producer.find(name);
    if (it == producer.end()) continue;  // a constant
    if (&graph[it->second] == &r.node()) r.fail("y depends on the Gradient node itself");
    if (selected.insert(it->second).second)
      for (const auto& in : graph[it->second].inputs) todo.push_back(in);
  }
  if (!independent.count(p.y) && !producer.count(p.y))
    r.fail("y '" + p.y + "' is neither computed in the graph nor one of xs/zs");
  // The node list need not be sorted: repeatedly take the first node whose inputs from the path
  // are all placed.
  std::vector<size_t> order;
  std::set<std::string> placed_names;
  std::set<size_t> left = selected;
  while (!left.empty()) {
    size_t pick = SIZE_MAX;
    for (size_t i : left) {
      bool ready = true;
      for (const auto& in : graph[i].inputs) {
        auto at = producer.find(in);
        if (!in.empty() && !independent.count(in) && at != producer.end() && selected.count(at->second) &&
            !placed_names.count(in))
          ready = false;
      }
      if (ready) {
        pick = i;
        break;
      }
    }
    if (pick == SIZE_MAX) r.fail("the nodes between xs and y form a cycle");
    order.push_back(pick);
    left.erase(pick);
    for (const auto& o : graph[pick].outputs) placed_names.insert(o);
  }
  for (size_t i : order) {
    const Node& n = graph[i];
    if (!n.domain.empty() || !local_derivative_table().count(n.op_type))
      throw Unsupported(r.node().label() + ": differentiating " + n.op_type + " (" + n.label() + ") is not supported");
    if (n.attr("broadcast")) throw Unsupported(r.node().label() + ": legacy broadcasting in " + n.label() + " is not supported");
  }
  return order;
}

}  // namespace sonnx
