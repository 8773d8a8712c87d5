// Version upgrades for `sonnx admit` (spec/upgrade-steps.md): a node of an operator version is
// carried to a later version of the same operator one step at a time, each step by the adapter in
// the older version's record (OpRecord::upgrade). A relabel adapter leaves the node as it is (the
// step only widens type lists: the node means the same at the newer version); a rewrite adapter
// changes the node (an attribute becomes an input, ...). A step without an adapter is refused by
// name, never relabelled. This layer depends on reference/ only.
#pragma once
#include <cstdint>
#include <string>
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

// What a rewrite may change beside its node: the graph's initializers.
class UpgradeContext {
 public:
  explicit UpgradeContext(Graph& graph) : graph_(graph) {}
  Graph& graph() { return graph_; }
  // Adds `value` as an initializer under a name no value of the graph has (from `hint`).
  std::string add_initializer(const std::string& hint, Tensor value);

 private:
  Graph& graph_;
};

struct UpgradeOutcome {
  std::vector<std::string> steps;    // "Conv-11 → Conv-22 (relabel): node conv0", in order
  std::vector<std::string> refused;  // why a node cannot be carried to the target opset
  bool ok() const { return refused.empty(); }
};

// Carries every ai.onnx node of the model (subgraphs included) from the model's ai.onnx opset to
// `target` and sets that opset to `target`. On any refusal the model is left as it was and the
// outcome lists every node that could not be carried and why.
UpgradeOutcome upgrade_model(Model& model, int64_t target);

}  // namespace admit
}  // namespace sonnx
