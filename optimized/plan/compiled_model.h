// Compile once, run many: a model with its functions inlined, compiled into a CompiledGraph, and
// the memory plans made so far, one per (input-shape signature, planner, conflict model). Shared
// by every executor instance (one per thread); only the plan cache changes after construction,
// under a mutex.
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

#include "compiled_graph.h"
#include "memory_plan.h"

namespace sonnx {

class CompiledModel {
 public:
  // Taken by value: a caller that moves its model in lets the compiled model hold the only copy of
  // the weights, so kernels that hold one (CompileOptions::hold_weights) free it as they compile.
  CompiledModel(Model model, const CompileOptions& options = {});
  // `base`'s model compiled again with other options (the parallel executor's kernels for more
  // threads), read in place: a weight base's kernels hold, kernels here get from them as plain
  // values (CompiledGraph's plain_source). Holds nothing itself.
  CompiledModel(std::shared_ptr<const CompiledModel> base, CompileOptions options);
  CompiledModel(const CompiledModel&) = delete;
  CompiledModel& operator=(const CompiledModel&) = delete;

  // The model with its functions inlined. A weight a fast kernel holds is a Tensor::held here
  // (CompileOptions::hold_weights; CompiledGraph::plain_value rebuilds it), as are the originals of
  // the weights a BatchNormalization was folded into.
  const Model& model() const { return base_ ? base_->model() : flat_; }
  const CompileOptions& options() const { return options_; }
  const CompiledGraph& root() const { return *root_; }

  using PlanKey = std::tuple<std::string, Planner, bool>;  // signature, planner, concurrent
  std::shared_ptr<const MemoryPlan> find_plan(const PlanKey& key) const;
  // Checks the plan (check_memory_plan, in every build; InternalError when it is invalid), then
  // stores it unless another thread stored one first; returns the stored one.
  std::shared_ptr<const MemoryPlan> add_plan(const PlanKey& key, std::shared_ptr<const MemoryPlan> plan) const;

 private:
  CompileOptions options_;
  std::shared_ptr<const CompiledModel> base_;
  Model flat_;  // (empty with a base)
  std::unique_ptr<CompiledGraph> root_;
  mutable std::mutex mutex_;
  mutable std::map<PlanKey, std::shared_ptr<const MemoryPlan>> plans_;
};

}  // namespace sonnx
