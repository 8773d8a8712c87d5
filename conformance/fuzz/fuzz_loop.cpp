#include "fuzz_loop.h"

#include <chrono>

#include "optimized/exec/make_executor.h"
#include "repro.h"
#include "shrink.h"

namespace sonnx::fuzz {

namespace {

// The diff options that recheck only what failed (one executor, one planner), for shrinking.
DiffOptions narrowed(const DiffOptions& diff, const DiffResult& failure) {
  DiffOptions d = diff;
  auto slash = failure.executor.find('/');
  if (failure.executor.empty() || failure.executor == "reference") {
    d.executors = {"linear"};
    d.planners = {Planner::GreedyBySize};
  } else {
    d.executors = {failure.executor.substr(0, slash)};
    if (slash != std::string::npos) d.planners = {parse_planner(failure.executor.substr(slash + 1))};
  }
  return d;
}

}  // namespace

Repro shrink_and_write(const Recipe& recipe, const DiffResult& failure, const DiffOptions& diff,
                       const std::filesystem::path& out) {
  DiffOptions d = narrowed(diff, failure);
  auto fails = [&](const Recipe& r) {
    DiffResult res = run_differential(generate(r), d);
    return !res.ok && res.kind == failure.kind;
  };
  Recipe small = shrink_recipe(recipe, fails);
  GeneratedCase g = generate(small);
  DiffResult res = run_differential(g, d);
  if (res.ok) res = failure;  // cannot happen for a deterministic failure; keep the original report
  Repro r;
  r.path = (out / ("fuzz-" + std::to_string(recipe.seed) + "-" + res.kind)).string();
  r.nodes = g.nodes();
  r.recipe = recipe_str(small);
  r.kind = res.kind;
  r.executor = res.executor;
  r.message = res.message;
  r.description = g.describe();
  NamedValues ref = res.reference;
  if (ref.empty()) ref = make_executor(g.model, "reference")->run(g.inputs);  // the validator failed before running
  write_repro(r.path, g, ref, res, diff.inject_fault);
  return r;
}

FuzzReport run_fuzz(const FuzzOptions& options) {
  using clock = std::chrono::steady_clock;
  auto start = clock::now(), last_progress = start;
  auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - start).count(); };
  FuzzReport report;
  for (int64_t i = 0;; ++i) {
    if (options.max_graphs > 0 && i >= options.max_graphs) break;
    if (options.seconds > 0 && elapsed() >= options.seconds) break;
    uint64_t seed = options.seed + static_cast<uint64_t>(i) * static_cast<uint64_t>(options.shard.count) +
                    static_cast<uint64_t>(options.shard.index);
    Recipe recipe = random_recipe(seed, options.opset);
    DiffResult res = run_differential(generate(recipe), options.diff);
    ++report.graphs;
    if (!res.ok) {
      ++report.failures;
      report.repros.push_back(shrink_and_write(recipe, res, options.diff, options.out));
      if (report.failures >= options.max_failures) break;
    }
    if (options.progress && clock::now() - last_progress > std::chrono::milliseconds(500)) {
      last_progress = clock::now();
      options.progress(report.graphs, report.failures, elapsed());
    }
  }
  report.seconds = elapsed();
  return report;
}

}  // namespace sonnx::fuzz
