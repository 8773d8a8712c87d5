#include "executors.h"

#include "optimized/exec/executor.h"
#include "reference/model/errors.h"

namespace sonnx {

std::vector<std::string> executor_names() {
  std::vector<std::string> names{"reference"};
  for (const auto& n : optimized_executor_names()) names.push_back(n);
  return names;
}

ExecuteFn make_execute_fn(const std::string& name, int threads, const std::string& inject_fault) {
  if (name == "reference")
    return [](const Model& m, const NamedValues& in) {
      Interpreter interp(m);
      return interp.run(in);
    };
  bool known = false;
  for (const auto& n : optimized_executor_names()) known = known || n == name;
  if (!known) throw LoadError("unknown executor '" + name + "' (reference, linear, dataflow, parallel)");
  return [name, threads, inject_fault](const Model& m, const NamedValues& in) {
    auto compiled = std::make_shared<const CompiledModel>(m, compile_options_for(name, threads));
    ExecutorOptions options;
    options.threads = threads;
    options.inject_fault = inject_fault;
    auto exec = make_executor(name, compiled, options);
    NamedValues first = exec->run(in);   // plans memory for these shapes
    NamedValues second = exec->run(in);  // runs in the planned arena
    if (first != second) throw InternalError(name + " executor: the run in the planned arena differs from the planning run");
    return second;
  };
}

}  // namespace sonnx
