// What the sonnx commands do beyond running a model, for programs that do the same: prepare a
// model once, compile it and read its memory plan (`sonnx plan`), time it (`sonnx bench`), fuzz the
// executors against the reference (`sonnx fuzz`), and find the ONNX node suite `sonnx certify` runs
// by default.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sonnx.hpp"

// Everything this header declares is the library's public API: exported from libsonnx.so, whose
// other symbols are hidden (api/CMakeLists.txt).
#pragma GCC visibility push(default)
namespace sonnx {

// Loads a model file and prepares it as every command that runs a model does: checked against
// profile onnx unless `check` is false (CheckFailed with the diagnostics), then the types sonnx's
// inference finds added, so fast kernels can be prepared for known types and shapes. The tools
// here and in devices.hpp take a model prepared so; a Session prepares its model itself. Throws
// LoadError or CheckFailed.
ModelHandle load_prepared(const std::filesystem::path& file, bool check = true);

struct PlanOptions {
  std::string executor = "linear";  // an optimized executor: linear (fixed order), dataflow or parallel (any order)
  std::string planner = "greedy";   // offset assignment: greedy (by size) or first-fit
};

struct PlannedStep {
  size_t index = 0;
  std::string node, op_type;
  int64_t version = 0;                       // the operator version selected
  std::string kernel;                        // the fast kernel's name, "reference", or "reference:function" (a function body)
  std::vector<std::string> fused;            // ops fused into it, first "Op (folded)" for one folded into its weights
  std::vector<std::string> inputs, outputs;  // value names, "" where omitted
  bool blocked_output = false;               // its output stays in the kernel's blocked layout
};

// A value in the arena (spec/memory_plan.md): its bytes, offset and lifetime in steps.
struct PlannedValue {
  std::string name;
  int64_t bytes = 0, offset = 0, first_step = 0, last_step = 0;
};

struct CompiledPlan {
  std::string executor, planner;
  bool concurrent = false;  // safe for any schedule (dataflow, parallel), else for the fixed order
  int64_t peak_arena_bytes = 0;
  int64_t lower_bound_bytes = 0;   // the most bytes live at one step
  std::vector<PlannedStep> steps;  // the main graph's, in order
  std::vector<PlannedValue> values;
};

// Compiles the model for an optimized executor and runs it once on `inputs`: the memory plan is
// made from the sizes of that run. Throws LoadError (not an optimized executor, unknown planner),
// Unsupported or Trap.
CompiledPlan compile_plan(const ModelHandle& model, const NamedValues& inputs, const PlanOptions& options = {});

struct BenchmarkOptions {
  std::string executor = "linear";  // as SessionOptions::executor
  int threads = 1;
  std::string planner = "greedy";
  int runs = 20;         // timed runs, after one untimed warm-up run (which also makes the memory plan)
  bool profile = false;  // optimized executors: also time every step of the timed runs
  // Devices named: exactly that device set instead of the executor (as DeviceSetOptions, devices.hpp).
  std::vector<std::string> devices{};
  std::vector<std::string> plugins{};
  std::string assign = "first";
  bool profile_cache = true;
};

// Where the time of the timed runs went, per kind of step.
struct StepTime {
  std::string ops;     // its operators: "Conv+Relu" for a fused step
  std::string kernel;  // the kernel that ran it
  double seconds = 0;  // over all timed runs
  int64_t steps = 0;   // step executions over all timed runs
};

struct BenchmarkResult {
  int runs = 0;
  double median_ms = 0, min_ms = 0;
  int64_t arena_bytes = 0;        // an optimized executor's planned arena; 0 otherwise
  int64_t max_rss_bytes = 0;      // the process's peak resident memory after the runs
  std::vector<StepTime> profile;  // with BenchmarkOptions::profile: the most expensive first
  // With a device set:
  size_t steps = 0;                    // steps of the plan
  size_t fallbacks = 0;                // steps that failed on their device and ran on cpu
  std::optional<double> predicted_ms;  // with assign "profile": the predicted critical path
};

// Times the model on `inputs` (every graph input without an initializer). The model is moved in
// and let go before the runs, so weights an executor keeps in its own layout are not held twice
// and max_rss_bytes measures the executor. Throws LoadError, Unsupported or Trap.
BenchmarkResult benchmark(ModelHandle model, const NamedValues& inputs, const BenchmarkOptions& options = {});

struct FuzzingOptions {
  double seconds = 20;                        // stop after this long (0: no time limit)
  int64_t max_graphs = 0;                     // stop after this many graphs (0: no limit)
  uint64_t seed = 1;                          // graph i uses seed + i (per shard: + i*N + K)
  std::string shard{};                        // "K/N", as ConformOptions::shard
  int opset = 0;                              // the graphs' ai.onnx opset: 17 or 27; 0: each graph draws one
  std::vector<std::string> executors{};       // optimized executors compared with the reference; empty: all
  int threads = 1;                            // kernel threads of linear and dataflow (parallel uses at least 2 workers)
  std::filesystem::path out = "fuzz-repros";  // where shrunk failures are written as ONNX test directories
  int max_failures = 3;                       // stop after this many (each is shrunk, which takes a while)
  // TEST ONLY: plant a bug in the first executor compared (the first element of every output of
  // this op type + 1), to show the fuzzer finds and shrinks it.
  std::string inject_fault{};
  std::function<void(int64_t graphs, int failures, double seconds)> progress{};  // about twice a second
};

struct FuzzFailure {
  std::string path;  // the repro's test directory
  int nodes = 0;     // of the shrunk graph
  std::string recipe, kind, executor, message;
  std::string description;  // the shrunk graph, for people
};

struct FuzzingReport {
  int64_t graphs = 0;
  int failures = 0;
  double seconds = 0;
  std::vector<FuzzFailure> repros;
};

// Differential testing on random valid graphs: every graph must pass the validator, and every
// executor compared (with each memory planner) must match the reference interpreter; a failure
// is shrunk and written as a repro. Throws LoadError for bad options (a bad shard).
FuzzingReport differential_fuzz(const FuzzingOptions& options = {});

// Fuzzing another implementation: random graphs run on a backend (built-in or plugin), a device
// set, or a runtime behind the process protocol, each judged by its admissible enclosure; failures
// localized or shrunk and grouped into distinct defects, each with its smallest repro directory.
struct RuntimeFuzzingOptions {
  std::string backend{};               // a built-in backend or a plugin path (with cpu fallback)
  std::string backend_command{};       // or a runtime behind the process protocol
  bool persistent = false;             // the command speaks the persistent protocol (one process for the campaign)
  std::vector<std::string> devices{};  // or exactly this device set (as CertificationOptions)
  std::vector<std::string> plugins{};
  double timeout_seconds = 60;                // per run of the command
  double seconds = 60;                        // stop after this long (0: no time limit)
  int64_t max_graphs = 0;                     // stop after this many graphs (0: no limit)
  uint64_t seed = 1;                          // graph i uses seed + i (per shard: + i*N + K)
  std::string shard{};                        // "K/N" or "auto", as ConformOptions::shard
  int opset = 0;                              // 17 or 27; 0: each graph draws one
  std::string profile{};                      // "sonnx": the SONNX profile's operators only; "": every operator
  std::filesystem::path out = "fuzz-repros";  // the defect groups' repro directories
  int max_groups = 0;                         // stop once this many distinct defects are found (0: no limit)
  std::function<void(int64_t graphs, size_t groups, double seconds)> progress{};  // about twice a second
};

struct FuzzCampaign {
  std::string target, target_version;
  int64_t graphs = 0, passed = 0, failed = 0, skipped = 0;
  size_t defect_groups = 0;
  double seconds = 0;
  std::string text;                                     // the counts, one line per defect group, the skip reasons
  std::string json;                                     // the campaign as `sonnx report merge` reads it
  void write(const std::filesystem::path& file) const;  // .json, or text for any other extension
  std::shared_ptr<const void> detail;                   // (internal)
};

// Throws LoadError for bad options (no target or two, a bad shard, an unknown backend).
FuzzCampaign fuzz_runtime(const RuntimeFuzzingOptions& options);
// Merges campaign JSON files (shards of one campaign, or campaigns of one target): counts add up,
// defect groups are merged by key, each keeping its smallest repro. Throws LoadError.
FuzzCampaign merge_fuzz_campaigns(const std::vector<std::filesystem::path>& files);
// Whether a JSON report is a fuzz campaign (else a certificate).
bool is_fuzz_campaign(const std::filesystem::path& file);

// The ONNX node suite `sonnx certify` runs without --suite, generated with Debian's python3-onnx
// into $XDG_CACHE_HOME/sonnx/onnx-suite (~/.cache without it) on first use; `generating` is told
// the folder before the generator runs. Throws LoadError when it cannot be generated.
std::filesystem::path onnx_node_suite(const std::function<void(const std::filesystem::path&)>& generating = {});

}  // namespace sonnx
#pragma GCC visibility pop
