// sonnx bench MODEL: time a model under one executor. The first run (which also makes the memory
// plan) is a warm-up and is not timed; then --runs timed runs. Prints the median and minimum.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "device_options.h"
#include "model_inputs.h"
#include "model_options.h"
#include "optimized/backends/partitioned_executor.h"
#include "optimized/exec/make_executor.h"

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

int64_t max_rss_bytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<int64_t>(u.ru_maxrss) * 1024;
}

}  // namespace

void add_bench_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<BenchArgs>();
  auto* cmd = app.add_subcommand("bench", "Time a model under an executor (median and minimum of --runs runs)");
  cmd->add_option("model", args->model, "Model file (.onnx or .onnxtxt)")->required();
  cmd->add_option("--executor", args->executor, "reference, linear, dataflow or parallel")
      ->check(CLI::IsMember(executor_names()))->capture_default_str();
  cmd->add_option("--threads", args->threads, "Threads: per kernel (linear, dataflow) or workers (parallel)")
      ->check(CLI::Range(1, 256))->capture_default_str();
  cmd->add_option("--runs", args->runs, "Timed runs after one untimed warm-up run")->check(CLI::Range(1, 100000))->capture_default_str();
  cmd->add_option("--planner", args->planner, "greedy or first-fit")->check(CLI::IsMember({"greedy", "first-fit"}))->capture_default_str();
  cmd->add_flag("--profile", args->profile,
                 "Also time every step of the timed runs and report the time per kind of step (operators, kernel), "
                 "the most expensive first (optimized executors)");
  args->in.add_to(cmd);
  args->prepare.add_to(cmd);
  args->devices.add_to(cmd);
  cmd->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}))->capture_default_str();
  cmd->callback([args, &exit_code] {
    auto lm = prepare_model(args->model, args->prepare.options());
    NamedValues feed = args->in.make(lm->ir);
    ExecutorOptions options;
    options.threads = args->threads;
    options.planner = parse_planner(args->planner);
    options.profile = args->profile;
    if (args->devices.given()) {
      // Steps on the chosen devices (partitioned executor) instead of one executor.
      PartitionedExecutor parted(args->devices.plan(lm->ir, feed));
      lm.reset();
      parted.run(feed);  // warm-up; prepares every step
      std::vector<double> ms;
      for (int r = 0; r < args->runs; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        parted.run(feed);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      }
      std::sort(ms.begin(), ms.end());
      double median = ms.size() % 2 ? ms[ms.size() / 2] : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
      nlohmann::json j{{"model", args->model}, {"devices", args->devices.devices}, {"assign", args->devices.assign},
                       {"steps", parted.plan().steps.size()}, {"runs", args->runs}, {"median_ms", median},
                       {"min_ms", ms.front()}, {"max_rss_bytes", max_rss_bytes()}, {"fallbacks", parted.fallbacks().size()}};
      if (parted.plan().assignment) j["predicted_ms"] = parted.plan().assignment->makespan_ms;
      if (args->format == "json") std::cout << j.dump() << "\n";
      else
        std::cout << args->model << ": devices " << args->devices.devices << " (assign " << args->devices.assign << ", "
                  << parted.plan().steps.size() << " steps), " << args->runs << " runs: median " << std::fixed << std::setprecision(3)
                  << median << " ms, min " << ms.front() << " ms, max RSS " << max_rss_bytes() / (1 << 20) << " MiB\n";
      exit_code = 0;
      return;
    }
    // The executor takes the model, so weights its kernels hold are not kept twice; measure the
    // executor's memory, not the loader's.
    std::unique_ptr<Executor> exec = make_executor(std::move(lm->ir), args->executor, options);
    lm.reset();
    auto once = [&] { return exec->run(feed); };
    once();  // warm-up; plans memory
    auto* optimized = dynamic_cast<OptimizedExecutor*>(exec.get());
    if (optimized) optimized->reset_profile();
    std::vector<double> ms;
    for (int r = 0; r < args->runs; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      once();
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    size_t n = sorted.size();
    double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    int64_t arena = optimized ? optimized->arena_bytes() : 0;
    nlohmann::json j{{"model", args->model},   {"executor", args->executor}, {"threads", args->threads},
                     {"runs", args->runs},     {"median_ms", median},        {"min_ms", sorted.front()},
                     {"peak_arena_bytes", arena}, {"max_rss_bytes", max_rss_bytes()}};
    std::vector<ProfileEntry> profile = optimized && args->profile ? optimized->profile() : std::vector<ProfileEntry>{};
    double total = 0;
    for (const auto& e : profile) total += e.seconds;
    for (const auto& e : profile)
      j["profile"].push_back({{"ops", e.ops}, {"kernel", e.kernel}, {"ms_per_run", e.seconds * 1e3 / args->runs},
                              {"steps_per_run", e.steps / args->runs}});
    if (args->format == "json") std::cout << j.dump() << "\n";
    else {
      if (!profile.empty()) std::cout << "     ms/run  share  steps  kernel                  operators\n";
      for (const auto& e : profile)
        std::cout << std::fixed << std::setprecision(3) << std::setw(11) << e.seconds * 1e3 / args->runs << std::setw(6)
                  << std::setprecision(1) << 100 * e.seconds / total << "%" << std::setw(7) << e.steps / args->runs << "  "
                  << std::left << std::setw(24) << e.kernel << std::right << e.ops << "\n";
      std::cout << args->model << ": executor " << args->executor << ", " << args->threads << " thread(s), " << args->runs
                << " runs: median " << std::fixed << std::setprecision(3) << median << " ms, min " << sorted.front()
                << " ms, arena " << arena << " bytes, max RSS " << max_rss_bytes() / (1 << 20) << " MiB\n";
    }
    exit_code = 0;
  });
}

}  // namespace sonnx::cli
