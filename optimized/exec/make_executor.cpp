#include "make_executor.h"

#include <algorithm>
#include <stdexcept>

#include "dataflow_executor.h"
#include "linear_executor.h"
#include "parallel_executor.h"
#include "reference_executor.h"

namespace sonnx {

namespace {

bool is_optimized(const std::string& name) {
  for (const auto& n : optimized_executor_names())
    if (n == name) return true;
  return false;
}

[[noreturn]] void unknown(const std::string& name) {
  throw std::invalid_argument("unknown executor '" + name + "' (reference, linear, dataflow, parallel)");
}

// How to compile a model for this executor: Parallel's kernels get one thread each, and with more
// than one thread its wide copy (for the steps that run alone) reads the plain weights, so they stay.
CompileOptions compile_options_for(const std::string& name, const ExecutorOptions& options) {
  CompileOptions o;
  o.kernel_threads = name == "parallel" ? 1 : std::max(1, options.threads);
  o.hold_weights = name != "parallel" || options.threads <= 1;
  return o;
}

}  // namespace

const std::vector<std::string>& executor_names() {
  static const std::vector<std::string> names{"reference", "linear", "dataflow", "parallel"};
  return names;
}

const std::vector<std::string>& optimized_executor_names() {
  static const std::vector<std::string> names{"linear", "dataflow", "parallel"};
  return names;
}

std::unique_ptr<Executor> make_executor(Model model, const std::string& name, const ExecutorOptions& options) {
  if (name == "reference") return std::make_unique<ReferenceExecutor>(std::move(model), options);
  return make_optimized_executor(std::move(model), name, options);
}

std::unique_ptr<OptimizedExecutor> make_optimized_executor(Model model, const std::string& name,
                                                           const ExecutorOptions& options) {
  if (!is_optimized(name)) unknown(name);
  return make_optimized_executor(std::make_shared<const CompiledModel>(std::move(model), compile_options_for(name, options)),
                                 name, options);
}

std::unique_ptr<OptimizedExecutor> make_optimized_executor(std::shared_ptr<const CompiledModel> compiled,
                                                           const std::string& name, const ExecutorOptions& options) {
  if (!is_optimized(name)) unknown(name);
  int want = compile_options_for(name, options).kernel_threads;
  if (compiled->options().kernel_threads != want)
    throw std::invalid_argument(name + " executor with " + std::to_string(options.threads) + " thread(s) needs kernels for " +
                                std::to_string(want) + " thread(s); the model was compiled for " +
                                std::to_string(compiled->options().kernel_threads));
  if (name == "linear") return std::make_unique<LinearExecutor>(std::move(compiled), options);
  if (name == "dataflow") return std::make_unique<DataflowExecutor>(std::move(compiled), options);
  return std::make_unique<ParallelExecutor>(std::move(compiled), options);
}

}  // namespace sonnx
