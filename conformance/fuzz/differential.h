// The differential properties on one generated case: the validator accepts it; every optimized
// executor, with every memory planner, matches the reference interpreter (bitwise on outputs
// computed only by exact operators, within tolerance otherwise) on the planning run and on the
// run in the planned arena; every memory plan is valid (check_memory_plan); the parallel executor
// repeats its result bit for bit.
#pragma once
#include <string>
#include <vector>

#include "graph_gen.h"
#include "optimized/plan/memory_planner.h"

namespace sonnx::fuzz {

struct DiffOptions {
  std::vector<std::string> executors;  // default: every optimized executor
  std::vector<Planner> planners{Planner::GreedyBySize, Planner::FirstFit};
  // Kernel threads of linear and dataflow (parallel gets at least 2 workers). 1 by default: with
  // OpenMP's spinning workers on a loaded 2-core machine, 2 threads cost ~3x the time per graph.
  int threads = 1;
  bool validate = true;
  // Test only: plant ExecutorOptions::inject_fault (this op type) in `fault_executor`.
  std::string inject_fault;
  std::string fault_executor;
};

struct DiffResult {
  bool ok = true;
  std::string kind;      // validator, reference-error, executor-error, mismatch, memory-plan, nondeterministic
  std::string executor;  // the executor (and planner) that failed, when one did
  std::string message;
  NamedValues reference;  // the reference outputs (written to repros)
};

DiffResult run_differential(const GeneratedCase& g, const DiffOptions& options);

}  // namespace sonnx::fuzz
