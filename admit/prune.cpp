// remove_identities and remove_dead (rewrites.h). An Identity, or a Dropout in inference mode
// (which copies its input), adds no computation: reading its input instead is reading the same
// value. A node no graph output depends on, and an initializer or graph input no node reads,
// contribute nothing to the outputs.
#include <algorithm>
#include <set>

#include "constant.h"
#include "reference/catalogue/catalogue.h"
#include "reference/model/names.h"
#include "rewrites.h"

namespace sonnx::admit {
namespace {

// Every read of `from` (node inputs at any depth, graph outputs, declarations) reads `to`.
void rename_reads(Graph& g, const std::string& from, const std::string& to) {
  for (Node& n : g.nodes) {
    std::replace(n.inputs.begin(), n.inputs.end(), from, to);
    for (Attribute& a : n.attributes) {
      if (a.g) rename_reads(*a.g, from, to);
      for (auto& sub : a.graphs)
        if (sub) rename_reads(*sub, from, to);
    }
  }
  for (ValueInfo& v : g.outputs)
    if (v.name == from) v.name = to;
}

bool is_graph_output(const Graph& g, const std::string& name) {
  return std::any_of(g.outputs.begin(), g.outputs.end(), [&](const ValueInfo& v) { return v.name == name; });
}

bool is_read(const Graph& g, const std::string& name) {
  if (is_graph_output(g, name)) return true;
  for (const Node& n : g.nodes) {
    if (std::count(n.inputs.begin(), n.inputs.end(), name)) return true;
    if (n.has_subgraph() && implicit_inputs(n).count(name)) return true;
  }
  return false;
}

// Why a Dropout node is not a copy of its input, or "" when it is.
std::string dropout_trains(const Graph& g, const Node& n, int64_t version) {
  if (version < 7) {
    const Attribute* is_test = n.attr("is_test");
    if (!is_test || is_test->i == 0) return "it trains (is_test = 0)";
  }
  if (version >= 12 && n.inputs.size() > 2 && !n.inputs[2].empty()) {
    const Tensor* mode = constant(g, n.inputs[2]);
    if (!mode) return "its training_mode is not a constant";
    if (mode->size() != 1 || mode->dtype() != DType::Bool || mode->data<bool>()[0]) return "its training_mode is true";
  }
  if (n.outputs.size() > 1 && !n.outputs[1].empty() && is_read(g, n.outputs[1])) return "its mask is read";
  return "";
}

}  // namespace

void remove_identities(Model& m, ChangeLog& log) {
  Graph& g = m.graph;
  std::set<std::string> defined_outside_nodes;  // graph inputs and initializers
  for (const ValueInfo& v : g.inputs) defined_outside_nodes.insert(v.name);
  for (const auto& [name, t] : g.initializers) defined_outside_nodes.insert(name);
  std::vector<bool> removed(g.nodes.size(), false);
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    Node& n = g.nodes[i];
    bool copy = canonical_domain(n.domain).empty() && (n.op_type == "Identity" || n.op_type == "Dropout") && !n.inputs.empty() &&
                !n.inputs[0].empty() && !n.outputs.empty() && !n.outputs[0].empty();
    if (copy && n.op_type == "Dropout") {
      const catalogue::Schema* s = catalogue::find("", "Dropout", m.opset(""));
      std::string why = s ? dropout_trains(g, n, s->version) : "Dropout has no version at the model's opset";
      if (!why.empty()) {
        log.refused.push_back(n.label() + ": not removed: " + why);
        copy = false;
      }
    }
    if (!copy) continue;
    const std::string x = n.inputs[0], y = n.outputs[0];
    if (is_graph_output(g, y)) {
      // The output keeps its name: x's producer writes y (unless x is an input, an initializer or
      // an output itself, when the copy stays).
      auto producer = std::find_if(g.nodes.begin(), g.nodes.end(),
                                   [&](const Node& p) { return std::count(p.outputs.begin(), p.outputs.end(), x); });
      if (defined_outside_nodes.count(x) || is_graph_output(g, x) || producer == g.nodes.end()) continue;
      std::replace(producer->outputs.begin(), producer->outputs.end(), x, y);
      rename_reads(g, x, y);
    } else {
      rename_reads(g, y, x);
    }
    removed[i] = true;
    log.add("remove-copy", n.label(), "SONNX-OPERATOR-SET", n.op_type + ": its readers read " + (is_graph_output(g, y) ? y : x));
  }
  std::vector<Node> kept;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (!removed[i]) kept.push_back(std::move(g.nodes[i]));
  g.nodes = std::move(kept);
  // Declarations of names no longer defined.
  std::set<std::string> names = defined_names(g);
  std::erase_if(g.value_info, [&](const ValueInfo& v) { return !names.count(v.name); });
}

void remove_dead(Model& m, ChangeLog& log) {
  Graph& g = m.graph;
  std::set<std::string> needed;
  for (const ValueInfo& v : g.outputs) needed.insert(v.name);
  std::vector<bool> live(g.nodes.size(), false);
  for (bool grew = true; grew;) {  // node lists are topological: one backward pass, unless they are not
    grew = false;
    for (size_t k = g.nodes.size(); k-- > 0;) {
      const Node& n = g.nodes[k];
      if (live[k] || std::none_of(n.outputs.begin(), n.outputs.end(), [&](const std::string& o) { return needed.count(o); }))
        continue;
      live[k] = grew = true;
      needed.insert(n.inputs.begin(), n.inputs.end());
      if (n.has_subgraph()) needed.merge(implicit_inputs(n));
    }
  }
  std::vector<Node> kept;
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    if (live[k]) kept.push_back(std::move(g.nodes[k]));
    else log.add("remove-dead", g.nodes[k].label(), "SONNX-DEAD-NODE", "no graph output depends on it");
  }
  g.nodes = std::move(kept);
  std::erase_if(g.inputs, [&](const ValueInfo& v) {
    if (needed.count(v.name)) return false;
    log.add("remove-input", v.name, "SONNX-UNUSED-INPUT", "no node reads this input: the admitted model does not take it");
    return true;
  });
  std::set<std::string> inputs;
  for (const ValueInfo& v : g.inputs) inputs.insert(v.name);
  std::erase_if(g.initializers, [&](const auto& init) {
    if (needed.count(init.first) || inputs.count(init.first)) return false;
    log.add("remove-unused", init.first, "SONNX-UNUSED-VALUE", "no node reads this initializer");
    return true;
  });
  std::set<std::string> names = defined_names(g);
  std::erase_if(g.value_info, [&](const ValueInfo& v) { return !names.count(v.name); });
}

}  // namespace sonnx::admit
