#include <stdexcept>

#include "executors.h"

namespace sonnx {

const std::vector<std::string>& optimized_executor_names() {
  static const std::vector<std::string> names{"linear", "dataflow", "parallel"};
  return names;
}

CompileOptions compile_options_for(const std::string& executor, int threads) {
  CompileOptions o;
  o.kernel_threads = executor == "parallel" ? 1 : threads;
  return o;
}

std::unique_ptr<Executor> make_executor(const std::string& name, std::shared_ptr<const CompiledModel> model,
                                        ExecutorOptions options) {
  if (name == "linear") return std::make_unique<LinearExecutor>(std::move(model), options);
  if (name == "dataflow") return std::make_unique<DataflowExecutor>(std::move(model), options);
  if (name == "parallel") return std::make_unique<ParallelExecutor>(std::move(model), options);
  throw std::invalid_argument("unknown executor '" + name + "' (reference, linear, dataflow, parallel)");
}

}  // namespace sonnx
