// The conformance runner: runs each test case with an executor, compares with the expected
// outputs, and never lets one test stop the run (each runs in a forked child by default).
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "compare.h"
#include "rules_file.h"
#include "reference/ops/registry.h"
#include "suite.h"

namespace sonnx {

// Executes a model on named inputs, returning named outputs (reference or an optimized executor).
using ExecuteFn = std::function<NamedValues(const Model&, const NamedValues&)>;

struct TestResult {
  std::string name;
  std::string status;  // passed, failed, errored, skipped, crashed, timeout
  std::vector<std::string> op_types;
  std::string accuracy;  // exact, rounding or random (the loosest of the model's operators)
  double max_abs = 0, max_rel = 0, max_ulp = 0;
  double time_ms = 0;
  std::string message;
  bool loaded = false;  // the model loaded (for the per-operator "loaded" count)
};

struct RunOptions {
  std::vector<SkipRule> skips;
  std::vector<ToleranceRule> tolerances;
  std::string filter;            // regex on test names; empty = all
  bool isolate = true;           // fork per test
  double timeout_seconds = 120;  // per test, when isolated
  bool progress = false;         // progress line on stderr
  int shard_index = 0, shard_count = 1;
};

struct Summary {
  int total = 0, passed = 0, failed = 0, errored = 0, skipped = 0;
};

struct OperatorCoverage {
  int total = 0, loaded = 0, passed = 0;
};

struct RunReport {
  std::string executor;
  Summary summary;
  std::vector<TestResult> tests;
  std::map<std::string, OperatorCoverage> operators;
};

RunReport run_conformance(const std::vector<TestCase>& tests, const ExecuteFn& exec, const std::string& executor_name,
                          const RunOptions& options);
// One test in the current process (used by the isolated child, and for debugging).
// The loosest accuracy class among the operators of g and its subgraphs: random > rounding > exact
// (spec/accuracy.md); an operator without a kernel of its own counts as rounding.
Accuracy model_accuracy(const Model& m, const Graph& g, Accuracy acc = Accuracy::Exact);

TestResult run_one(const TestCase& test, const ExecuteFn& exec, const RunOptions& options);

}  // namespace sonnx
