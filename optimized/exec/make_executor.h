// The one way to make a runnable executor: a model, an executor name and options. The optimized
// executors compile the model for the kernel thread count their name and options imply (Parallel
// runs each kernel on one thread, with a wide copy for the steps that run alone; Linear and
// Dataflow on `threads`), so callers never pair compile options with a name themselves.
// The model should be prepared (reference/check/prepare.h): checked, types inferred.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "executor.h"

namespace sonnx {

// "reference", "linear", "dataflow", "parallel".
const std::vector<std::string>& executor_names();
// "linear", "dataflow", "parallel".
const std::vector<std::string>& optimized_executor_names();

// Throws std::invalid_argument for an unknown name; compiling may throw Unsupported. A caller that
// moves its model in lets the executor free the weights its kernels hold in their own layout.
std::unique_ptr<Executor> make_executor(Model model, const std::string& name, const ExecutorOptions& options = {});

// The same for an optimized executor, for callers that read its plan, arena or kernels
// (invalid_argument for "reference").
std::unique_ptr<OptimizedExecutor> make_optimized_executor(Model model, const std::string& name,
                                                           const ExecutorOptions& options = {});
// Another optimized executor on an already compiled model (one instance per thread, or the same
// model under another planner). Throws std::invalid_argument when the model was compiled for
// another kernel thread count than this name and options need.
std::unique_ptr<OptimizedExecutor> make_optimized_executor(std::shared_ptr<const CompiledModel> compiled,
                                                           const std::string& name, const ExecutorOptions& options = {});

}  // namespace sonnx
