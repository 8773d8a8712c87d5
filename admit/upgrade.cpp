#include "upgrade.h"

#include <memory>
#include <set>
#include <stdexcept>

#include "constant.h"
#include "reference/catalogue/catalogue.h"
#include "reference/model/names.h"
#include "unique_name.h"

namespace sonnx::admit {

std::string UpgradeContext::new_name(const std::string& hint) {
  std::set<std::string> taken = given_;
  collect_all_names(graph_, taken);
  for (const auto* added : {&before_, &after_}) collect_all_names(*added, taken);
  std::string name = unique_name(taken, hint);
  given_.insert(name);
  return name;
}

std::string UpgradeContext::add_initializer(const std::string& hint, Tensor value) {
  std::string name = new_name(hint);
  graph_.initializers.emplace_back(name, std::move(value));
  return name;
}

const TypeInfo* UpgradeContext::type_of(const std::string& name) const {
  if (!types_) return nullptr;
  auto it = types_->find(name);
  return it == types_->end() || it->second.kind == TypeInfo::Kind::Unknown ? nullptr : &it->second;
}

const Tensor* UpgradeContext::initializer(const std::string& name) const { return constant(graph_, name); }

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

// Carries node n (of g, ctx's graph) from opset `from` to `to`, step by step; the nodes its
// rewrites add wait in ctx, each with the opset it is written at.
void carry_node(Node& n, int64_t from, int64_t to, UpgradeContext& ctx, std::vector<std::pair<Node, int64_t>>& before,
                std::vector<std::pair<Node, int64_t>>& after, UpgradeOutcome& out) {
  const catalogue::Schema* at = catalogue::find("", n.op_type, from);
  const catalogue::Schema* target = catalogue::find("", n.op_type, to);
  if (!at) {
    out.refused.push_back(node_name(n) + ": " + n.op_type + " does not exist at opset " + std::to_string(from));
    return;
  }
  if (!target) {
    out.refused.push_back(node_name(n) + ": " + at->id() + " has no version at opset " + std::to_string(to));
    return;
  }
  for (int64_t v = at->version; v < target->version;) {
    const UpgradeSlot* adapter = step_adapter(n.op_type, v);
    const catalogue::Schema* next = catalogue::next_version("", n.op_type, v);  // at most the target's
    std::string step = n.op_type + "-" + std::to_string(v) + " → " + n.op_type + "-" + std::to_string(next->version);
    if (!adapter) {
      out.refused.push_back(node_name(n) + ": " + step + " has no upgrade adapter");
      return;
    }
    if (adapter->to != next->version) {
      out.refused.push_back(node_name(n) + ": " + step + ": the adapter goes to version " + std::to_string(adapter->to));
      return;
    }
    // A version begins at the opset of its number: the step's added nodes are written there.
    ctx.begin_step(next->version);
    try {
      if (adapter->rewrite) adapter->rewrite(n, ctx);
    } catch (const UpgradeRefused& e) {
      out.refused.push_back(node_name(n) + ": " + step + ": " + e.what());
      ctx.take_nodes_before();
      ctx.take_nodes_after();
      return;
    }
    for (Node& b : ctx.take_nodes_before()) before.emplace_back(std::move(b), next->version);
    // Nodes added after an earlier step read that step's outputs: they stay after the later ones'.
    std::vector<std::pair<Node, int64_t>> later;
    for (Node& a : ctx.take_nodes_after()) later.emplace_back(std::move(a), next->version);
    after.insert(after.begin(), std::make_move_iterator(later.begin()), std::make_move_iterator(later.end()));
    out.steps.push_back(step + (adapter->rewrite ? " (rewrite)" : " (relabel)") + ": node " + node_name(n));
    v = next->version;
  }
}

// Carries the ai.onnx nodes of g, and of every graph nested in their attributes, from opset `from`
// to `to`; the nodes rewrites add are put beside their node and carried from their own opset.
void upgrade_graph(Graph& g, int64_t from, int64_t to, const std::map<std::string, TypeInfo>* types, UpgradeOutcome& out) {
  UpgradeContext ctx(g, types);
  std::vector<int64_t> written_at(g.nodes.size(), from);  // the opset each node is written at
  std::vector<bool> carried(g.nodes.size(), false);
  for (size_t i = 0; i < g.nodes.size();) {
    if (carried[i]) {
      ++i;
      continue;
    }
    carried[i] = true;
    Node& n = g.nodes[i];
    for (Attribute& a : n.attributes) {
      if (a.g) upgrade_graph(*a.g, written_at[i], to, nullptr, out);
      for (auto& sub : a.graphs)
        if (sub) upgrade_graph(*sub, written_at[i], to, nullptr, out);
    }
    if (!canonical_domain(n.domain).empty()) continue;
    std::vector<std::pair<Node, int64_t>> before, after;
    carry_node(n, written_at[i], to, ctx, before, after, out);
    auto insert = [&](size_t at, std::vector<std::pair<Node, int64_t>>& added) {
      for (size_t k = 0; k < added.size(); ++k) {
        auto pos = static_cast<std::ptrdiff_t>(at + k);
        g.nodes.insert(g.nodes.begin() + pos, std::move(added[k].first));
        written_at.insert(written_at.begin() + pos, added[k].second);
        carried.insert(carried.begin() + pos, false);
      }
    };
    insert(i + 1, after);
    insert(i, before);  // carried next: i now indexes the first of them
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
