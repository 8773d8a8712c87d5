// Executors by name, for `run`, `conform` and `bench`: "reference" is the interpreter.
#pragma once
#include <string>
#include <vector>

#include "runner.h"

namespace sonnx {

std::vector<std::string> executor_names();
// Throws LoadError (a usage problem) for an unknown name.
ExecuteFn make_executor(const std::string& name);

}  // namespace sonnx
