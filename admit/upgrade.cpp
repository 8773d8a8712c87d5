#include "unique_name.h"
#include "upgrade.h"

#include <memory>
#include <set>
#include <stdexcept>

#include "reference/catalogue/catalogue.h"

namespace sonnx::admit {

std::string UpgradeContext::add_initializer(const std::string& hint, Tensor value) {
  std::set<std::string> taken;
  for (const auto& [name, t] : graph_.initializers) taken.insert(name);
  for (const auto& v : graph_.inputs) taken.insert(v.name);
  for (const auto& n : graph_.nodes)
    for (const auto& o : n.outputs) taken.insert(o);
  std::string name = unique_name(taken, hint);
  graph_.initializers.emplace_back(name, std::move(value));
  return name;
}

const TypeInfo* UpgradeContext::type_of(const std::string& name) const {
  if (!types_) return nullptr;
  auto it = types_->find(name);
  return it == types_->end() || it->second.kind == TypeInfo::Kind::Unknown ? nullptr : &it->second;
}

const Tensor* UpgradeContext::initializer(const std::string& name) const {
  for (const auto& [n, t] : graph_.initializers)
    if (n == name) return &t;
  return nullptr;
}

namespace {

// The adapters PlantedAdapter puts in place of the records' (a test hook), by (operator, version).
std::map<std::pair<std::string, int64_t>, UpgradeSlot>& planted_adapters() {
  static std::map<std::pair<std::string, int64_t>, UpgradeSlot> planted;
  return planted;
}

// The adapter of the step from version v of ai.onnx `op`: a planted one, else the record's, or null.
const UpgradeSlot* step_adapter(const std::string& op, int64_t v) {
  const auto& planted = planted_adapters();
  if (!planted.empty()) {
    auto it = planted.find({op, v});
    if (it != planted.end()) return &it->second;
  }
  const OpRecord* rec = OpRecords::instance().find("", op, v);
  return rec ? rec->upgrade : nullptr;
}

std::string node_name(const Node& n) { return n.name.empty() ? "(unnamed " + n.op_type + ")" : n.name; }

// Carries the ai.onnx nodes of g, and of every graph nested in their attributes, from opset `from`
// to `to`.
void upgrade_graph(Graph& g, int64_t from, int64_t to, const std::map<std::string, TypeInfo>* types, UpgradeOutcome& out) {
  UpgradeContext ctx(g, types);
  for (Node& n : g.nodes) {
    for (Attribute& a : n.attributes) {
      if (a.g) upgrade_graph(*a.g, from, to, nullptr, out);
      for (auto& sub : a.graphs)
        if (sub) upgrade_graph(*sub, from, to, nullptr, out);
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
      const UpgradeSlot* adapter = step_adapter(n.op_type, v);
      const catalogue::Schema* next = catalogue::next_version("", n.op_type, v);  // at most the target's
      std::string step = n.op_type + "-" + std::to_string(v) + " → " + n.op_type + "-" + std::to_string(next->version);
      if (!adapter) {
        out.refused.push_back(node_name(n) + ": " + step + " has no upgrade adapter");
        break;
      }
      if (adapter->to != next->version) {
        out.refused.push_back(node_name(n) + ": " + step + ": the adapter goes to version " + std::to_string(adapter->to));
        break;
      }
      try {
        if (adapter->rewrite) adapter->rewrite(n, ctx);
      } catch (const UpgradeRefused& e) {
        out.refused.push_back(node_name(n) + ": " + step + ": " + e.what());
        break;
      }
      out.steps.push_back(step + (adapter->rewrite ? " (rewrite)" : " (relabel)") + ": node " + node_name(n));
      v = next->version;
    }
  }
}

}  // namespace

UpgradeOutcome upgrade_model(Model& model, int64_t target, const std::map<std::string, TypeInfo>* types) {
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
  upgrade_graph(upgraded.graph, from, target, types, out);
  if (!out.ok()) return out;
  upgraded.opset_imports.erase("ai.onnx");
  upgraded.opset_imports[""] = target;
  model = std::move(upgraded);
  return out;
}

PlantedAdapter::PlantedAdapter(const std::string& domain, const std::string& op, int64_t from, UpgradeFn rewrite)
    : op_(op), from_(from) {
  if (!domain.empty() && domain != "ai.onnx") throw std::invalid_argument("PlantedAdapter: only ai.onnx operators are upgraded");
  const catalogue::Schema* next = catalogue::next_version("", op, from);
  if (!catalogue::exact("", op, from) || !next)
    throw std::invalid_argument("PlantedAdapter: " + op + "-" + std::to_string(from) +
                                " is no operator version with a next one");
  auto& planted = planted_adapters();
  auto it = planted.find({op_, from_});
  if (it != planted.end()) previous_ = it->second;
  planted[{op_, from_}] = UpgradeSlot{next->version, rewrite};
}

PlantedAdapter::~PlantedAdapter() {
  auto& planted = planted_adapters();
  if (previous_) planted[{op_, from_}] = *previous_;
  else planted.erase({op_, from_});
}

}  // namespace sonnx::admit
