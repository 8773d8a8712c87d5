// sonnx conform DIR... : run ONNX backend-test directories and report pass/fail per test and operator.
// Each model is prepared as `run` prepares it (checked unless --no-check, types inferred); an
// optimized executor also reruns each new input shape in its planned arena and must agree.
#include <unistd.h>

#include <iostream>

#include "commands.h"
#include "model_options.h"
#include "sonnx/sonnx.hpp"

namespace sonnx::cli {

namespace {
struct ConformArgs {
  std::vector<std::string> dirs;
  std::string executor = "reference";
  std::string inject_fault;
  std::vector<std::string> reports;
  std::string filter;
  std::string skips;
  std::string tolerances;
  std::string format = "text";
  std::string shard;
  std::string judge = "tolerance";
  double timeout = 120;
  bool no_isolate = false;
  bool prefer_function_bodies = false;
  PrepareArgs prepare;
};

}  // namespace

void add_conform_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ConformArgs>();
  auto* cmd = app.add_subcommand("conform",
                                 "Run ONNX backend-test directories (model.onnx + test_data_set_N) and compare outputs");
  cmd->add_option("dirs", args->dirs, "Test directories, or folders of them (e.g. the generated node suite)")->required();
  cmd->add_option("--executor", args->executor,
                  "Executor: reference (the interpreter), linear, dataflow or parallel (optimized; run twice: once to "
                  "plan memory, once in the planned arena, and the two must agree)")
      ->capture_default_str();
  cmd->add_option(
         "--inject-fault", args->inject_fault,
         "TEST ONLY: plant a bug in the optimized executor (the first element of every OP output + 1), to show a repro fails")
      ->type_name("OP");
  cmd->add_option("--report", args->reports, "Write a report (.json, .md or .xml); may be repeated");
  cmd->add_option("--filter", args->filter, "Only tests whose name matches this regular expression");
  cmd->add_option("--skips", args->skips, "Skip list (default: conformance/skips.txt)");
  cmd->add_option("--tolerances", args->tolerances, "Tolerance overrides (default: conformance/tolerances.txt)");
  cmd->add_option("--format", args->format, "Output on stdout: text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  cmd->add_option("--judge", args->judge,
                  "tolerance: |actual - expected| <= atol + rtol*|expected| (conformance/tolerances.txt); enclosure: every "
                  "float output element must lie in its admissible enclosure (spec/accuracy.md), reported per output in "
                  "ulps outside and enclosure width; a test whose model has no enclosure falls back to the tolerance")
      ->check(CLI::IsMember({"tolerance", "enclosure"}))
      ->capture_default_str();
  cmd->add_option("--shard", args->shard, "Run shard K of N (K/N, 0-based); GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS also work");
  cmd->add_option("--timeout", args->timeout, "Seconds per test before it is recorded as a timeout")->capture_default_str();
  cmd->add_flag("--no-isolate", args->no_isolate, "Run tests in this process (faster to debug; a crash stops the run)");
  cmd->add_flag("--prefer-function-bodies", args->prefer_function_bodies,
                "Where an operator version has both a kernel and a function body (spec/functions/), expand the body "
                "instead of calling the kernel: checks sonnx's bodies against the suite under the same tolerances "
                "(results then compare as rounding, or random for sampling operators)");
  args->prepare.add_to(cmd);
  cmd->callback([args, &exit_code] {
    ConformOptions opt{.executor = args->executor,
                       .filter = args->filter,
                       .judge = args->judge,
                       .isolate = !args->no_isolate,
                       .timeout_seconds = args->timeout,
                       .check = !args->prepare.no_check,
                       .skips = args->skips,
                       .tolerances = args->tolerances,
                       .progress = static_cast<bool>(isatty(STDERR_FILENO)),
                       .shard = args->shard,
                       .prefer_function_bodies = args->prefer_function_bodies,
                       .inject_fault = args->inject_fault};
    std::vector<std::filesystem::path> roots(args->dirs.begin(), args->dirs.end());
    ConformReport report = conform(roots, opt);
    for (const auto& f : args->reports) report.write(f);
    if (args->format == "json") {
      std::cout << report.json << "\n";
    } else {
      for (const auto& t : report.tests)
        if (t.status != "passed" && t.status != "skipped") std::cout << t.status << "  " << t.name << ": " << t.message << "\n";
      std::cout << "executor " << args->executor << ": " << report.total << " tests, " << report.passed << " passed, "
                << report.failed << " failed, " << report.errored << " errored, " << report.skipped << " skipped\n";
      if (args->judge == "enclosure") {
        int enclosed = 0;
        for (const auto& t : report.tests) enclosed += t.judge == "enclosure";
        std::cout << "judged by enclosure: " << enclosed
                  << " tests; by the tolerance (no enclosure): " << report.total - report.skipped - enclosed << "\n";
      }
    }
    exit_code = (report.failed + report.errored) > 0 ? 1 : 0;
  });
}

}  // namespace sonnx::cli
