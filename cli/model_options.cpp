#include "model_options.h"

#include <algorithm>

#include "sonnx/sonnx.hpp"

namespace sonnx::cli {

void PrepareArgs::add_to(CLI::App* cmd) {
  cmd->add_flag("--no-check", no_check,
                "Do not validate the model first (by default a model the validator rejects under profile onnx, as "
                "`sonnx check` would, is refused with its diagnostics and exit code 1, and never executed)");
}

void require_executor(const std::string& name) {
  const auto names = executors();
  if (std::find(names.begin(), names.end(), name) == names.end())
    throw LoadError("unknown executor '" + name + "' (reference, linear, dataflow, parallel)");
}

}  // namespace sonnx::cli
