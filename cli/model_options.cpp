#include "model_options.h"

#include <algorithm>

#include "optimized/exec/make_executor.h"
#include "sonnx/errors.h"

namespace sonnx::cli {

void PrepareArgs::add_to(CLI::App* cmd) {
  cmd->add_flag("--no-check", no_check,
                "Do not validate the model first (by default a model the validator rejects under profile onnx, as "
                "`sonnx check` would, is refused with its diagnostics and exit code 1, and never executed)");
}

PrepareOptions PrepareArgs::options() const {
  PrepareOptions o;
  o.check = !no_check;
  return o;
}

void require_executor(const std::string& name) {
  const auto& names = executor_names();
  if (std::find(names.begin(), names.end(), name) == names.end())
    throw LoadError("unknown executor '" + name + "' (reference, linear, dataflow, parallel)");
}

}  // namespace sonnx::cli
