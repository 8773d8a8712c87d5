// Executors by name, for `run`, `conform` and `bench`: "reference" is the interpreter; "linear",
// "dataflow" and "parallel" are the optimized executors (optimized/exec).
#pragma once
#include <string>
#include <vector>

#include "runner.h"

namespace sonnx {

std::vector<std::string> executor_names();
// Throws LoadError (a usage problem) for an unknown name. An optimized executor compiles the
// model, runs it once to make the memory plan for these input shapes, then runs it again in the
// planned arena and returns that result; the two runs must agree (else InternalError).
// `inject_fault` (test only): ExecutorOptions::inject_fault for an optimized executor.
ExecuteFn make_execute_fn(const std::string& name, int threads = 2, const std::string& inject_fault = "");

}  // namespace sonnx
