// sonnx bench MODEL: time a model under one executor. The first run (which also makes the memory
// plan) is a warm-up and is not timed; then --runs timed runs. Prints the median and minimum.
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "device_options.h"
#include "model_inputs.h"
#include "model_options.h"
#include "sonnx/sonnx.hpp"

namespace sonnx::cli {

namespace {

struct BenchArgs {
  std::string model;
  std::string executor = "linear";
  std::string planner = "greedy";
  int threads = 1;
  int runs = 20;
  std::string format = "text";
  bool profile = false;
  InputOptions in;
  PrepareArgs prepare;
  DeviceArgs devices;
};

}  // namespace

void add_bench_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<BenchArgs>();
  auto* cmd = app.add_subcommand("bench", "Time a model under an executor (median and minimum of --runs runs)");
  cmd->add_option("model", args->model, "Model file (.onnx or .onnxtxt)")->required();
  cmd->add_option("--executor", args->executor, "reference, linear, dataflow or parallel")
      ->check(CLI::IsMember(executors()))
      ->capture_default_str();
  cmd->add_option("--threads", args->threads, "Threads: per kernel (linear, dataflow) or workers (parallel)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--runs", args->runs, "Timed runs after one untimed warm-up run")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_option("--planner", args->planner, "greedy or first-fit")
      ->check(CLI::IsMember({"greedy", "first-fit"}))
      ->capture_default_str();
  cmd->add_flag("--profile", args->profile,
                "Also time every step of the timed runs and report the time per kind of step (operators, kernel), "
                "the most expensive first (optimized executors)");
  args->in.add_to(cmd);
  args->prepare.add_to(cmd);
  args->devices.add_to(cmd);
  cmd->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}))->capture_default_str();
  cmd->callback([args, &exit_code] {
    ModelHandle model = load_prepared(args->model, args->prepare.check());
    NamedValues feed = args->in.make(model);
    BenchmarkOptions options{.executor = args->executor,
                             .threads = args->threads,
                             .planner = args->planner,
                             .runs = args->runs,
                             .profile = args->profile};
    if (args->devices.given()) {  // steps on those devices instead of one executor
      options.devices = args->devices.names();
      options.plugins = args->devices.plugins;
      options.assign = args->devices.assign;
      options.profile_cache = !args->devices.no_profile_cache;
    }
    // Moved in: the benchmark lets the model go before it times the runs.
    BenchmarkResult r = benchmark(std::move(model), feed, options);
    if (args->devices.given()) {
      nlohmann::json j{{"model", args->model},
                       {"devices", args->devices.devices},
                       {"assign", args->devices.assign},
                       {"steps", r.steps},
                       {"runs", args->runs},
                       {"median_ms", r.median_ms},
                       {"min_ms", r.min_ms},
                       {"max_rss_bytes", r.max_rss_bytes},
                       {"fallbacks", r.fallbacks}};
      if (r.predicted_ms) j["predicted_ms"] = *r.predicted_ms;
      if (args->format == "json") std::cout << j.dump() << "\n";
      else
        std::cout << args->model << ": devices " << args->devices.devices << " (assign " << args->devices.assign << ", "
                  << r.steps << " steps), " << args->runs << " runs: median " << std::fixed << std::setprecision(3)
                  << r.median_ms << " ms, min " << r.min_ms << " ms, max RSS " << r.max_rss_bytes / (1 << 20) << " MiB\n";
      exit_code = 0;
      return;
    }
    nlohmann::json j{{"model", args->model},
                     {"executor", args->executor},
                     {"threads", args->threads},
                     {"runs", args->runs},
                     {"median_ms", r.median_ms},
                     {"min_ms", r.min_ms},
                     {"peak_arena_bytes", r.arena_bytes},
                     {"max_rss_bytes", r.max_rss_bytes}};
    double total = 0;
    for (const auto& e : r.profile) total += e.seconds;
    for (const auto& e : r.profile)
      j["profile"].push_back({{"ops", e.ops},
                              {"kernel", e.kernel},
                              {"ms_per_run", e.seconds * 1e3 / args->runs},
                              {"steps_per_run", e.steps / args->runs}});
    if (args->format == "json") std::cout << j.dump() << "\n";
    else {
      if (!r.profile.empty()) std::cout << "     ms/run  share  steps  kernel                  operators\n";
      for (const auto& e : r.profile)
        std::cout << std::fixed << std::setprecision(3) << std::setw(11) << e.seconds * 1e3 / args->runs << std::setw(6)
                  << std::setprecision(1) << 100 * e.seconds / total << "%" << std::setw(7) << e.steps / args->runs << "  "
                  << std::left << std::setw(24) << e.kernel << std::right << e.ops << "\n";
      std::cout << args->model << ": executor " << args->executor << ", " << args->threads << " thread(s), " << args->runs
                << " runs: median " << std::fixed << std::setprecision(3) << r.median_ms << " ms, min " << r.min_ms
                << " ms, arena " << r.arena_bytes << " bytes, max RSS " << r.max_rss_bytes / (1 << 20) << " MiB\n";
    }
    exit_code = 0;
  });
}

}  // namespace sonnx::cli
