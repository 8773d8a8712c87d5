// Relies on functions.mlw Inline.inlining_preserves_semantics: inlining every call preserves the semantics of a graph (and terminates without recursion).
#include "compiled_model.h"

#include <omp.h>

#include "reference/interp/inliner.h"
#include "sonnx/errors.h"

namespace sonnx {

namespace {
// Prepares kernels under the thread count they will run with, then restores the caller's.
template <class Make>
std::unique_ptr<CompiledGraph> with_kernel_threads(const CompileOptions& options, Make make) {
  int saved = omp_get_max_threads();
  omp_set_num_threads(options.kernel_threads);
  try {
    auto g = make();
    omp_set_num_threads(saved);
    return g;
  } catch (...) {
    omp_set_num_threads(saved);
    throw;
  }
}
// The model with its functions inlined, `model` emptied, so that the result alone holds the weights.
Model inline_owned(Model& model) {
  Model own = std::move(model);
  return inline_model(own);
}
}  // namespace

// Kernels may hold the root graph's weights (CompileOptions::hold_weights): `flat_` is ours.
CompiledModel::CompiledModel(Model model, const CompileOptions& options)
    : options_(options), flat_(inline_owned(model)), root_(with_kernel_threads(options_, [this] {
        return std::make_unique<CompiledGraph>(flat_, flat_.graph, options_, &flat_.graph);
      })) {}

CompiledModel::CompiledModel(std::shared_ptr<const CompiledModel> base, CompileOptions options)
    : options_(options), base_(std::move(base)) {
  options_.hold_weights = false;
  const Model& m = base_->model();
  root_ = with_kernel_threads(options_,
                              [&] { return std::make_unique<CompiledGraph>(m, m.graph, options_, nullptr, &base_->root()); });
}

std::shared_ptr<const MemoryPlan> CompiledModel::find_plan(const PlanKey& key) const {
  std::lock_guard lock(mutex_);
  auto it = plans_.find(key);
  return it == plans_.end() ? nullptr : it->second;
}

std::shared_ptr<const MemoryPlan> CompiledModel::add_plan(const PlanKey& key, std::shared_ptr<const MemoryPlan> plan) const {
  // The proven invariant (spec/memory_plan.mlw, Planners.plan_in_order), executed on every plan an
  // executor may use, in every build: a plan that fails it is a bug in the planner.
  if (plan->concurrent != std::get<2>(key))
    throw InternalError(std::string("invalid memory plan: a ") + (plan->concurrent ? "concurrent" : "sequential") +
                        " plan stored for the other conflict model");
  if (std::string why = check_memory_plan(*root_, *plan); !why.empty()) throw InternalError("invalid memory plan: " + why);
  std::lock_guard lock(mutex_);
  return plans_.emplace(key, std::move(plan)).first->second;
}

}  // namespace sonnx
