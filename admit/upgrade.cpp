#include "upgrade.h"

#include <memory>
#include <set>

#include "reference/catalogue/catalogue.h"

namespace sonnx::admit {

std::string UpgradeContext::add_initializer(const std::string& hint, Tensor value) {
  std::set<std::string> taken;
  for (const auto& [name, t] : graph_.initializers) taken.insert(name);
  for (const auto& v : graph_.inputs) taken.insert(v.name);
  for (const auto& n : graph_.nodes)
    for (const auto& o : n.outputs) taken.insert(o);
  std::string name = hint;
  for (int k = 1; taken.count(name); ++k) name = hint + "_" + std::to_string(k);
  graph_.initializers.emplace_back(name, std::move(value));
  return name;
}

namespace {

// Gives every graph nested in g's attributes its own copy (a Model copy shares them).
void own_subgraphs(Graph& g) {
  for (Node& n : g.nodes)
    for (Attribute& a : n.attributes) {
      if (a.g) {
        a.g = std::make_shared<Graph>(*a.g);
        own_subgraphs(*a.g);
      }
      for (auto& sub : a.graphs)
        if (sub) {
          sub = std::make_shared<Graph>(*sub);
          own_subgraphs(*sub);
        }
    }
}

std::string node_name(const Node& n) { return n.name.empty() ? "(unnamed " + n.op_type + ")" : n.name; }

// Carries the ai.onnx nodes of g, and of every graph nested in their attributes, from opset `from`
// to `to`.
void upgrade_graph(Graph& g, int64_t from, int64_t to, UpgradeOutcome& out) {
  UpgradeContext ctx(g);
  for (Node& n : g.nodes) {
    for (Attribute& a : n.attributes) {
      if (a.g) upgrade_graph(*a.g, from, to, out);
      for (auto& sub : a.graphs)
        if (sub) upgrade_graph(*sub, from, to, out);
    }
    if (!n.domain.empty() && n.domain != "ai.onnx") continue;
    const catalogue::Schema* at = catalogue::find("", n.op_type, from);
    const catalogue::Schema* target = catalogue::find("", n.op_type, to);
    if (!at) {
      out.refused.push_back(node_name(n) + ": " + n.op_type + " does not exist at opset " + std::to_string(from));
      continue;
    }
    if (!target) {
      out.refused.push_back(node_name(n) + ": " + at->id() + " has no version at opset " + std::to_string(to));
      continue;
    }
    for (int64_t v = at->version; v < target->version;) {
      const OpRecord* rec = OpRecords::instance().find("", n.op_type, v);
      const catalogue::Schema* next = catalogue::next_version("", n.op_type, v);  // at most the target's
      std::string step = n.op_type + "-" + std::to_string(v) + " → " + n.op_type + "-" + std::to_string(next->version);
      if (!rec || !rec->upgrade) {
        out.refused.push_back(node_name(n) + ": " + step + " has no upgrade adapter");
        break;
      }
      if (rec->upgrade->to != next->version) {
        out.refused.push_back(node_name(n) + ": " + step + ": the adapter goes to version " + std::to_string(rec->upgrade->to));
        break;
      }
      try {
        if (rec->upgrade->rewrite) rec->upgrade->rewrite(n, ctx);
      } catch (const UpgradeRefused& e) {
        out.refused.push_back(node_name(n) + ": " + step + ": " + e.what());
        break;
      }
      out.steps.push_back(step + (rec->upgrade->rewrite ? " (rewrite)" : " (relabel)") + ": node " + node_name(n));
      v = next->version;
    }
  }
}

}  // namespace

UpgradeOutcome upgrade_model(Model& model, int64_t target) {
  UpgradeOutcome out;
  int64_t from = model.opset("");
  if (from == 0) {
    out.refused.push_back("the model imports no ai.onnx opset");
    return out;
  }
  if (from > target) {
    out.refused.push_back("the model's ai.onnx opset " + std::to_string(from) + " is past the target " + std::to_string(target));
    return out;
  }
  if (target > catalogue::max_opset("")) {
    out.refused.push_back("opset " + std::to_string(target) + " is past the catalogue's last (" +
                          std::to_string(catalogue::max_opset("")) + ")");
    return out;
  }
  Model upgraded = model;
  own_subgraphs(upgraded.graph);
  upgrade_graph(upgraded.graph, from, target, out);
  if (!out.ok()) return out;
  upgraded.opset_imports.erase("ai.onnx");
  upgraded.opset_imports[""] = target;
  model = std::move(upgraded);
  return out;
}

}  // namespace sonnx::admit
