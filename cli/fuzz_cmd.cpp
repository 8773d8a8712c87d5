// sonnx fuzz: property-based differential testing on random valid graphs. Every generated graph
// must pass the validator, and every optimized executor (with each memory planner) must match the
// reference interpreter; a failure is shrunk and written as an ONNX test directory. With a target
// (--backend, --backend-cmd, --devices) the graphs run on that implementation instead, judged by
// their admissible enclosures, and failures are grouped into distinct defects.
#include <unistd.h>

#include <iostream>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "device_options.h"
#include "sonnx/sonnx.hpp"

namespace sonnx::cli {

namespace {

struct FuzzArgs {
  double seconds = 20;
  int64_t graphs = 0;
  uint64_t seed = 1;
  std::string executor = "all";
  std::string out = "fuzz-repros";
  std::string format = "text";
  std::string inject_fault;
  std::string shard;
  int max_failures = 3;
  int threads = 1;
  std::string opset = "mixed";
  std::string profile;
  // A target to fuzz instead of sonnx's executors.
  std::string backend, backend_cmd, devices, report;
  std::vector<std::string> plugins;
  bool persistent = false;
  double timeout = 60;
  int max_groups = 0;
};

// `sonnx fuzz` with a target: a campaign judged by enclosures; exit 1 when it found a defect.
int fuzz_target(const FuzzArgs& a, const CLI::App* cmd) {
  RuntimeFuzzingOptions o;
  o.backend = a.backend;
  o.backend_command = a.backend_cmd;
  o.persistent = a.persistent;
  if (!a.devices.empty()) o.devices = split_commas(a.devices);
  o.plugins = a.plugins;
  o.timeout_seconds = a.timeout;
  o.seconds = a.seconds;
  o.max_graphs = a.graphs;
  o.seed = a.seed;
  o.shard = a.shard;
  o.opset = a.opset == "mixed" ? 0 : std::stoi(a.opset);
  o.profile = a.profile;
  o.out = a.out;
  o.max_groups = a.max_groups;
  if (cmd->count("--executor") || cmd->count("--inject-fault") || cmd->count("--threads"))
    throw LoadError("--executor, --threads and --inject-fault are for fuzzing sonnx's executors, not a target");
  if (isatty(STDERR_FILENO))
    o.progress = [](int64_t graphs, size_t groups, double seconds) {
      std::cerr << "\rfuzz: " << graphs << " graphs, " << groups << " defects, " << static_cast<int>(seconds) << " s"
                << std::flush;
    };
  FuzzCampaign c = fuzz_runtime(o);
  if (o.progress) std::cerr << "\n";
  std::cout << (a.format == "json" ? c.json : c.text) << (a.format == "json" ? "\n" : "");
  if (!a.report.empty()) c.write(a.report);
  return c.defect_groups > 0 ? 1 : 0;
}

}  // namespace

void add_fuzz_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<FuzzArgs>();
  auto* cmd = app.add_subcommand(
      "fuzz", "Differential testing on random valid graphs: every executor and memory planner against the reference, or "
              "another implementation (--backend, --backend-cmd, --devices) against the admissible enclosures");
  cmd->add_option("--seconds", args->seconds, "Run for this long (0: no time limit)")->capture_default_str();
  cmd->add_option("--graphs", args->graphs, "Stop after this many graphs (0: no limit)")->capture_default_str();
  cmd->add_option("--seed", args->seed, "First seed; graph i uses seed + i (per shard: + i*N + K)")->capture_default_str();
  cmd->add_option("--executor", args->executor, "Executor to compare with the reference: linear, dataflow, parallel or all")
      ->check(CLI::IsMember({"all", "linear", "dataflow", "parallel"}))
      ->capture_default_str();
  cmd->add_option("--out", args->out, "Directory for the shrunk repros (ONNX test directories)")->capture_default_str();
  cmd->add_option("--format", args->format, "Output on stdout: text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  cmd->add_option("--max-failures", args->max_failures, "Stop after this many failures")->capture_default_str();
  cmd->add_option("--threads", args->threads, "Kernel threads of linear and dataflow (parallel uses at least 2 workers)")
      ->capture_default_str();
  cmd->add_option("--opset", args->opset,
                  "ai.onnx opset of the generated graphs: 17, 27 (the newest, with the operator versions and "
                  "operators added since 17) or mixed (each graph draws one)")
      ->check(CLI::IsMember({"mixed", "17", "27"}))
      ->capture_default_str();
  cmd->add_option("--shard", args->shard,
                  "Shard K of N (K/N, 0-based), or auto: from the scheduler's variables (Slurm array, Kubernetes "
                  "indexed Job, CI parallel jobs; see docs/fuzzing.md); GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS also work");
  auto* target = cmd->add_option_group("target", "Fuzz another implementation instead of sonnx's executors");
  target->add_option("--backend", args->backend, "A built-in backend or a backend plugin (.so), with cpu fallback");
  target->add_option("--backend-cmd", args->backend_cmd, "A runtime behind the process protocol (docs/backends.md)");
  target->add_option("--devices", args->devices, "Exactly this device set (comma-separated names or plugin paths)");
  target->add_option("--plugin", args->plugins, "A backend plugin (.so) to add to the devices; may be repeated");
  target->add_flag("--persistent", args->persistent, "With --backend-cmd: one runtime process serves every graph");
  target->add_option("--timeout", args->timeout, "With --backend-cmd: seconds per graph")->capture_default_str();
  target->add_option("--report", args->report, "Write the campaign there (.json for `sonnx report merge`, else text)");
  target
      ->add_option("--profile", args->profile,
                   "sonnx: graphs of the SONNX profile's operators only, at opset 17 (for a runtime of profile "
                   "models, such as the C of `sonnx emit-c`, which admits them)")
      ->check(CLI::IsMember({"sonnx"}));
  target->add_option("--max-groups", args->max_groups, "Stop once this many distinct defects are found (0: no limit)")
      ->capture_default_str();
  cmd->add_option("--inject-fault", args->inject_fault,
                  "TEST ONLY: plant a known bug in the first executor compared (the first element of every OP "
                  "node's first output gets +1), to show the fuzzer finds and shrinks it");
  cmd->callback([args, cmd, &exit_code] {
    if (!args->backend.empty() || !args->backend_cmd.empty() || !args->devices.empty()) {
      exit_code = fuzz_target(*args, cmd);
      return;
    }
    if (!args->report.empty() || args->persistent || !args->plugins.empty())
      throw LoadError("--report, --persistent and --plugin are for fuzzing a target (--backend, --backend-cmd or --devices)");
    if (args->seconds < 0 || args->graphs < 0 || args->max_failures < 1 || args->threads < 1)
      throw LoadError("--seconds and --graphs take non-negative numbers, --max-failures and --threads positive ones");
    FuzzingOptions o;
    o.seconds = args->seconds;
    o.max_graphs = args->graphs;
    o.seed = args->seed;
    o.shard = args->shard;
    o.opset = args->opset == "mixed" ? 0 : std::stoi(args->opset);
    if (args->executor != "all") o.executors = {args->executor};  // else every optimized executor
    o.threads = args->threads;
    o.out = args->out;
    o.max_failures = args->max_failures;
    o.inject_fault = args->inject_fault;
    if (isatty(STDERR_FILENO))
      o.progress = [](int64_t graphs, int failures, double seconds) {
        std::cerr << "\rfuzz: " << graphs << " graphs, " << failures << " failures, " << static_cast<int>(seconds) << " s"
                  << std::flush;
      };
    FuzzingReport r = differential_fuzz(o);
    if (o.progress) std::cerr << "\n";
    double rate = r.seconds > 0 ? static_cast<double>(r.graphs) / r.seconds : 0;
    if (args->format == "json") {
      nlohmann::json repros = nlohmann::json::array();
      for (const auto& p : r.repros)
        repros.push_back({{"path", p.path},
                          {"nodes", p.nodes},
                          {"kind", p.kind},
                          {"executor", p.executor},
                          {"recipe", p.recipe},
                          {"message", p.message}});
      nlohmann::json j{{"graphs", r.graphs},
                       {"failures", r.failures},
                       {"seconds", r.seconds},
                       {"graphs_per_second", rate},
                       {"repro", repros}};
      std::cout << j.dump(2) << "\n";
    } else {
      for (const auto& p : r.repros)
        std::cout << "FAILED (" << p.kind << ", " << p.executor << "): " << p.message << "\n"
                  << p.description << "\nrepro: " << p.path << " (" << p.nodes << " nodes)\n";
      std::cout << r.graphs << " graphs in " << r.seconds << " s (" << rate << " graphs/s), " << r.failures << " failures\n";
    }
    // The seed and graph of every failure also go to stderr, so they survive a JSON consumer.
    for (const auto& p : r.repros)
      std::cerr << "sonnx fuzz: failure " << p.kind << " (" << p.executor << ")\n" << p.description << "\n";
    exit_code = r.failures > 0 ? 1 : 0;
  });
}

}  // namespace sonnx::cli
