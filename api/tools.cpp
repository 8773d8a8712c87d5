// The C++ API's tools (include/sonnx/tools.hpp): prepared models, compiled plans, benchmarks, the
// differential fuzzer and the default certification suite, over the layers' own.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "conformance/certify/command_runner.h"
#include "conformance/fuzz/fuzz_loop.h"
#include "conformance/fuzz/recipe.h"
#include "optimized/backends/partitioned_executor.h"
#include "optimized/exec/make_executor.h"
#include "reference/check/prepare.h"
#include "reference/model/data_dir.h"
#include "sonnx/sonnx.hpp"

namespace sonnx {

namespace {

Planner planner_named(const std::string& name) {
  try {
    return parse_planner(name);
  } catch (const std::invalid_argument&) {
    throw LoadError("unknown planner '" + name + "' (greedy or first-fit)");
  }
}

void require_executor(const std::string& name, const std::vector<std::string>& names, const char* which) {
  if (std::find(names.begin(), names.end(), name) == names.end())
    throw LoadError("unknown executor '" + name + "' (" + which + ")");
}

int64_t max_rss_bytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<int64_t>(u.ru_maxrss) * 1024;
}

// The one timing loop of benchmark, for an executor and a device set alike: `runs` calls of `run`
// after the caller's warm-up, their median and minimum.
template <class Run>
void time_runs(BenchmarkResult& r, int runs, Run&& run) {
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    run();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  size_t n = ms.size();
  r.runs = runs;
  r.median_ms = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
  r.min_ms = ms.front();
}

}  // namespace

ModelHandle load_prepared(const std::filesystem::path& file, bool check) {
  return ModelHandle(std::shared_ptr<const LoadedModel>(prepare_model(file, {check, nullptr})));
}

CompiledPlan compile_plan(const ModelHandle& model, const NamedValues& inputs, const PlanOptions& options) {
  require_executor(options.executor, optimized_executor_names(), "linear, dataflow, parallel");
  ExecutorOptions eo;
  eo.planner = planner_named(options.planner);
  auto exec = make_optimized_executor(model.impl().ir, options.executor, eo);
  exec->run(inputs);  // the plan is made from the sizes of this run
  const MemoryPlan& p = *exec->plan();
  const CompiledGraph& g = exec->compiled()->root();
  CompiledPlan out{exec->name(), planner_name(p.planner), p.concurrent, p.arena_bytes, p.lower_bound_bytes, {}, {}};
  auto slot = [&](int x) { return x < 0 ? std::string() : g.slot_name(x); };
  for (size_t i = 0; i < g.steps().size(); ++i) {
    const Step& s = g.steps()[i];
    PlannedStep ps;
    ps.index = i;
    ps.node = s.node->name;
    ps.op_type = s.node->op_type;
    ps.version = s.version;
    ps.kernel = s.fast ? s.fast->name() : s.kernel ? "reference" : "reference:function";
    if (s.folded) ps.fused.push_back(s.folded->op_type + " (folded)");
    for (const Node* f : s.fused) ps.fused.push_back(f->op_type);
    for (int x : s.inputs) ps.inputs.push_back(slot(x));
    for (int x : s.outputs) ps.outputs.push_back(slot(x));
    ps.blocked_output = s.blocked_output;
    out.steps.push_back(std::move(ps));
  }
  for (size_t v = 0; v < p.offset.size(); ++v)
    if (p.offset[v] >= 0)
      out.values.push_back({g.slot_name(static_cast<int>(v)), p.bytes[v], p.offset[v], p.first[v], p.last[v]});
  return out;
}

BenchmarkResult benchmark(ModelHandle model, const NamedValues& inputs, const BenchmarkOptions& options) {
  if (options.runs < 1) throw LoadError("runs must be at least 1, not " + std::to_string(options.runs));
  BenchmarkResult r;
  if (!options.devices.empty()) {
    // Steps on the chosen devices (partitioned executor) instead of one executor.
    std::optional<PartitionedExecutor> parted;
    {
      DevicePlan plan = plan_for_devices(model, {options.devices, options.plugins, options.assign, options.profile_cache},
                                         inputs);
      parted.emplace(*static_cast<const ExecutionPlan*>(plan.detail.get()));
      ModelHandle let_go = std::move(model);  // the steps hold what they run; the loader's copy goes
    }
    parted->run(inputs);  // warm-up; prepares every step
    time_runs(r, options.runs, [&] { parted->run(inputs); });
    r.steps = parted->plan().steps.size();
    r.fallbacks = parted->fallbacks().size();
    if (parted->plan().assignment) r.predicted_ms = parted->plan().assignment->makespan_ms;
  } else {
    require_executor(options.executor, executor_names(), "reference, linear, dataflow, parallel");
    ExecutorOptions eo;
    eo.threads = options.threads;
    eo.planner = planner_named(options.planner);
    eo.profile = options.profile;
    // The executor takes the model, so weights its kernels hold are not kept twice: the handle
    // goes first, and with it the loader's copy.
    Model ir = model.impl().ir;
    { ModelHandle let_go = std::move(model); }
    std::unique_ptr<Executor> exec = make_executor(std::move(ir), options.executor, eo);
    exec->run(inputs);  // warm-up; plans memory
    auto* optimized = dynamic_cast<OptimizedExecutor*>(exec.get());
    if (optimized) optimized->reset_profile();
    time_runs(r, options.runs, [&] { exec->run(inputs); });
    r.arena_bytes = optimized ? optimized->arena_bytes() : 0;
    if (optimized && options.profile)
      for (const auto& e : optimized->profile()) r.profile.push_back({e.ops, e.kernel, e.seconds, e.steps});
  }
  r.max_rss_bytes = max_rss_bytes();
  return r;
}

FuzzingReport differential_fuzz(const FuzzingOptions& options) {
  if (options.seconds < 0 || options.max_graphs < 0 || options.max_failures < 1 || options.threads < 1)
    throw LoadError("fuzzing takes non-negative seconds and max_graphs, positive max_failures and threads");
  fuzz::require_campaign_opset(options.opset);
  fuzz::FuzzOptions o;
  o.seconds = options.seconds;
  o.max_graphs = options.max_graphs;
  o.seed = options.seed;
  o.out = options.out;
  o.max_failures = options.max_failures;
  o.shard = parse_shard(options.shard);
  o.opset = options.opset;
  o.diff.executors = options.executors.empty() ? optimized_executor_names() : options.executors;
  for (const auto& e : o.diff.executors) require_executor(e, optimized_executor_names(), "linear, dataflow, parallel");
  o.diff.threads = options.threads;
  o.diff.inject_fault = options.inject_fault;
  o.diff.fault_executor = o.diff.executors.front();
  o.progress = options.progress;
  fuzz::FuzzReport r = fuzz::run_fuzz(o);
  FuzzingReport out{r.graphs, r.failures, r.seconds, {}};
  for (const auto& p : r.repros) out.repros.push_back({p.path, p.nodes, p.recipe, p.kind, p.executor, p.message, p.description});
  return out;
}

std::filesystem::path onnx_node_suite(const std::function<void(const std::filesystem::path&)>& generating) {
  const char* cache = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  std::filesystem::path base = cache && *cache ? cache : std::filesystem::path(home ? home : "/tmp") / ".cache";
  std::filesystem::path dir = base / "sonnx" / "onnx-suite";
  if (!std::filesystem::exists(dir / "node")) {
    std::filesystem::create_directories(dir);
    std::string cmd = "/usr/bin/python3 " +
                      shell_quote((data_dir() / "conformance" / "data" / "generate-onnx-suite.py").string()) + " " +
                      shell_quote(dir.string()) + " >/dev/null";
    if (generating) generating(dir);
    if (std::system(cmd.c_str()) != 0 || !std::filesystem::exists(dir / "node"))
      throw LoadError("could not generate the ONNX node suite (python3-onnx)");
  }
  return dir / "node";
}

}  // namespace sonnx
