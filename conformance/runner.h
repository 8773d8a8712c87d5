// The conformance runner: prepares each test's model (load, check, infer types), runs its data
// sets with one executor, compares with the expected outputs, and never lets one test stop the
// run (the tests run in a child process by default, a new one after a crash or a hang).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "compare.h"
#include "enclosure_judge.h"
#include "optimized/exec/executor.h"
#include "reference/check/prepare.h"
#include "suite.h"
#include "test_lists.h"
#include "test_selection.h"

namespace sonnx {

struct TestResult {
  std::string name;
  std::string status;                 // passed, failed, errored, skipped, crashed, timeout
  std::vector<std::string> op_types;  // the operator versions the model selects: "ReduceMax-18"
  std::string accuracy;               // exact, rounding or random (the loosest of the model's operators)
  double max_abs = 0, max_rel = 0, max_ulp = 0;
  double time_ms = 0;
  std::string message;
  bool loaded = false;  // the model loaded (for the per-operator "loaded" count)
  // Optimized executors: which kernels ran the main graph's steps in the last run (kernel name ->
  // steps; OptimizedExecutor::kernels_run). Empty for the reference.
  std::map<std::string, int> kernels;
  // How the outputs were judged: "tolerance", or "enclosure" (--judge enclosure, where every data
  // set's outputs could be enclosed; judge_note says why not otherwise).
  std::string judge = "tolerance";
  std::string judge_note;
  std::vector<EnclosureCheck> enclosure;  // per output, the worst over the data sets (judge "enclosure")
  // The suite's expected outputs against the same enclosures: the farthest element outside, in ulps.
  double expected_ulps_outside = 0;
};

struct RunOptions {
  std::string executor = "reference";  // make_executor's name
  ExecutorOptions executor_options;    // threads, planner, verify_arena_run, inject_fault, ...
  PrepareOptions prepare;              // check first (a model failing it is a failed test)
  std::vector<SkipEntry> skips;
  std::vector<ToleranceEntry> tolerances;
  std::string filter;  // regex on test names; empty = all
  Shard shard;
  bool isolate = true;                  // run the tests in a child process (IsolatedWorker)
  double timeout_seconds = 120;         // per test, when isolated
  bool progress = false;                // progress line on stderr
  bool prefer_function_bodies = false;  // expand function bodies instead of calling kernels (set_prefer_function_bodies)
  // Enclosure: float outputs must lie in their admissible enclosures (enclosure_judge.h); a test whose
  // model has no enclosure (an operator without one, an undetermined value) falls back to the tolerance.
  Judge judge = Judge::Tolerance;
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

// Throws LoadError for a bad filter; everything that goes wrong in a test is that test's result.
RunReport run_conformance(const std::vector<TestCase>& tests, const RunOptions& options);
// One test in the current process (used by the isolated child, and for debugging).
TestResult run_one(const TestCase& test, const RunOptions& options);

}  // namespace sonnx
