#include "compiled_model.h"

#include "reference/interp/inliner.h"

namespace sonnx {

CompiledModel::CompiledModel(const Model& model, const CompileOptions& options)
    : flat_(inline_model(model)), root_(std::make_unique<CompiledGraph>(flat_, flat_.graph, options)) {}

std::shared_ptr<const MemoryPlan> CompiledModel::find_plan(const PlanKey& key) const {
  std::lock_guard lock(mutex_);
  auto it = plans_.find(key);
  return it == plans_.end() ? nullptr : it->second;
}

std::shared_ptr<const MemoryPlan> CompiledModel::add_plan(const PlanKey& key,
                                                          std::shared_ptr<const MemoryPlan> plan) const {
  std::lock_guard lock(mutex_);
  return plans_.emplace(key, std::move(plan)).first->second;
}

}  // namespace sonnx
