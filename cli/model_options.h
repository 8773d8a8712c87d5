// Options several commands share: how a model is prepared (`--no-check`) and which executor runs
// it (`--executor`, checked against make_executor's names: an unknown one is a usage error).
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "optimized/plan/prepare_model.h"

namespace sonnx::cli {

struct PrepareArgs {
  bool no_check = false;
  void add_to(CLI::App* cmd);
  PrepareOptions options() const;  // profile onnx unless --no-check
};

// Throws LoadError (exit 2) when `name` is not an executor.
void require_executor(const std::string& name);

}  // namespace sonnx::cli
