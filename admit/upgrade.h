// Version upgrades for `sonnx admit` (spec/upgrade-steps.md): a node of an operator version is
// carried to a later version of the same operator one step at a time, each step by the adapter in
// the older version's record (OpRecord::upgrade). A relabel adapter leaves the node as it is (the
// step only widens type lists: the node means the same at the newer version); a rewrite adapter
// changes the node (an attribute becomes an input, ...). A step without an adapter is refused by
// name, never relabelled. This layer depends on reference/ only.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "reference/model/ir.h"
#include "reference/ops/op_record.h"

namespace sonnx {

namespace admit {
class UpgradeContext;
}

// A rewrite: changes `node` (of the step's older version) into the newer version's form, with the
// same meaning; throws UpgradeRefused when this node cannot be carried (e.g. an input it would need
// as a constant is not one).
using UpgradeFn = void (*)(Node& node, admit::UpgradeContext& ctx);

// The upgrade slot of an operator version's record: the step to the operator's next version.
struct UpgradeSlot {
  int64_t to = 0;               // the operator's next version
  UpgradeFn rewrite = nullptr;  // null: a relabel
};

struct UpgradeRegistrar {
  UpgradeSlot slot;
  UpgradeRegistrar(const char* domain, const char* op, int64_t from, int64_t to, UpgradeFn rewrite) : slot{to, rewrite} {
    OpRecords::instance().fill(domain, op, {from}, &OpRecord::upgrade, &slot, "upgrade adapter");
  }
};

// SONNX_UPGRADE("", "Clip", 6, 11, clip_attributes_to_inputs); a null rewrite is a relabel.
#define SONNX_UPGRADE(domain, op, from, to, rewrite) \
  static const ::sonnx::UpgradeRegistrar SONNX_CONCAT(sonnx_upgrade_, __COUNTER__)(domain, op, from, to, rewrite)

namespace admit {

struct UpgradeRefused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What a rewrite may change beside its node (the graph's initializers), and what it may know of
// the values the node reads (their types, when the caller inferred them).
//
// A rewrite that needs more than its one node adds nodes before or after it (casts around it, a
// reshape, a second node). They are written in the form of the opset where the step's newer
// version begins (step_opset()), and are themselves carried from there to the target opset.
class UpgradeContext {
 public:
  UpgradeContext(Graph& graph, const std::map<std::string, TypeInfo>* types) : graph_(graph), types_(types) {}
  Graph& graph() { return graph_; }
  // Adds `value` as an initializer under a name no value of the graph has (from `hint`).
  std::string add_initializer(const std::string& hint, Tensor value);
  // A value name no value of the graph has and no earlier call gave (from `hint`).
  std::string new_name(const std::string& hint);
  // Nodes computed before the rewritten node (reading what it reads) or after it (reading its
  // outputs), in the order added.
  void add_node_before(Node n) { before_.push_back(std::move(n)); }
  void add_node_after(Node n) { after_.push_back(std::move(n)); }
  int64_t step_opset() const { return step_opset_; }
  // The type of value `name` as inferred before the upgrade: null when unknown (no types were
  // given, the value is in a nested graph, or inference could not type it).
  const TypeInfo* type_of(const std::string& name) const;
  // The value of `name` when it is a constant of the graph (admit/constant.h: an initializer that is
  // not a graph input), else null; a rewrite that needs an input to be a constant reads it here.
  // Valid until the next add_initializer.
  const Tensor* initializer(const std::string& name) const;

  // upgrade_model's side: the opset of the step about to run, and the nodes its rewrite added.
  void begin_step(int64_t opset) { step_opset_ = opset; }
  std::vector<Node> take_nodes_before() { return std::exchange(before_, {}); }
  std::vector<Node> take_nodes_after() { return std::exchange(after_, {}); }

 private:
  Graph& graph_;
  const std::map<std::string, TypeInfo>* types_;
  std::vector<Node> before_, after_;  // added by the rewrite running now
  std::set<std::string> given_;       // names new_name gave
  int64_t step_opset_ = 0;
};

// How refusals name a node: its name, or "(unnamed Op)".
inline std::string node_name(const Node& n) { return n.name.empty() ? "(unnamed " + n.op_type + ")" : n.name; }

struct UpgradeOutcome {
  std::vector<std::string> steps;    // "Conv-11 → Conv-22 (relabel): node conv0", in order
  std::vector<std::string> refused;  // why a node cannot be carried to the target opset
  bool ok() const { return refused.empty(); }
};

// Carries every ai.onnx node of the model (subgraphs included) from the model's ai.onnx opset to
// `target` and sets that opset to `target`. On any refusal the model is left as it was and the
// outcome lists every node that could not be carried and why. `types`, when given, are the main
// graph's value types at the model's opset (infer_model), for rewrites that depend on them.
UpgradeOutcome upgrade_model(Model& model, int64_t target, const std::map<std::string, TypeInfo>* types = nullptr);

// A test hook (tests only; not thread-safe): for its lifetime, the step from version `from` of the
// ai.onnx operator `op` runs `rewrite` (a relabel when null) in place of the adapter in the
// version's record, so a test can plant a wrong adapter and see the checks catch it. The step keeps
// going to the operator's next version. The adapter in force before (the record's, or an enclosing
// PlantedAdapter's) is back when it is destroyed; nest them, do not interleave them.
//   admit::PlantedAdapter planted("", "Add", 7, add_becomes_sub);
// Throws std::invalid_argument for another domain, or a version with no next version.
class PlantedAdapter {
 public:
  PlantedAdapter(const std::string& domain, const std::string& op, int64_t from, UpgradeFn rewrite);
  ~PlantedAdapter();
  PlantedAdapter(const PlantedAdapter&) = delete;
  PlantedAdapter& operator=(const PlantedAdapter&) = delete;

 private:
  std::string op_;
  int64_t from_;
  std::optional<UpgradeSlot> previous_;  // an enclosing planted adapter of the same step
};

}  // namespace admit
}  // namespace sonnx
