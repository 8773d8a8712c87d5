// Options several commands share: how a model is prepared (`--no-check`) and which executor runs
// it (`--executor`, checked against the API's executors: an unknown one is a usage error).
#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace sonnx::cli {

struct PrepareArgs {
  bool no_check = false;
  void add_to(CLI::App* cmd);
  bool check() const { return !no_check; }  // against profile onnx, as load_prepared and Session do
};

// Throws LoadError (exit 2) when `name` is not an executor.
void require_executor(const std::string& name);

}  // namespace sonnx::cli
