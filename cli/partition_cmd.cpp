// sonnx partition MODEL --backends a,b,... : split a model into steps, each a subgraph on one
// backend (first in the list that supports each node; cpu as the fallback), and print the steps.
// With --run it also executes the plan on given or synthetic inputs, reports any step that fell
// back to cpu, and compares the outputs with the reference interpreter's (strict tolerances).
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "device_options.h"
#include "model_inputs.h"
#include "model_options.h"
#include "sonnx/sonnx.hpp"

namespace sonnx::cli {

namespace {

struct PartitionArgs {
  std::string model;
  std::string backends = "cpu";
  bool no_fallback = false;
  bool run = false;
  std::string format = "text";
  std::vector<std::string> inputs, dims;
  PrepareArgs prepare;
  DeviceArgs devices;
  CLI::Option* backends_option = nullptr;
};

}  // namespace

void add_partition_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<PartitionArgs>();
  auto* cmd = app.add_subcommand("partition",
                                 "Split a model into steps on backends (preference order, cpu fallback) and print them");
  cmd->add_option("model", args->model, "Model file (.onnx or .onnxtxt)")->required();
  args->backends_option = cmd->add_option("--backends", args->backends,
                                          "Comma-separated preference order: reference, cpu, or plugin .so "
                                          "paths (cpu is the fallback unless --no-fallback)")
                              ->capture_default_str();
  cmd->add_flag("--no-fallback", args->no_fallback, "Fail instead of running unsupported nodes or failed steps on cpu");
  cmd->add_flag("--run", args->run,
                "Also run the plan (on --input values, synthetic for the rest) and compare with the reference");
  cmd->add_option("--input", args->inputs, "NAME=FILE (.pb or .npy) for --run; may be repeated");
  cmd->add_option("--dim", args->dims, "NAME=SIZE for symbolic dimensions of synthetic inputs");
  cmd->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}))->capture_default_str();
  args->prepare.add_to(cmd);
  args->devices.add_to(cmd);
  cmd->callback([args, &exit_code] {
    if (args->devices.given() && (args->backends_option->count() || args->no_fallback))
      throw LoadError("--devices names the exact device set: give it without --backends and --no-fallback");
    ModelHandle model = load_prepared(args->model, args->prepare.check());
    NamedValues in = read_input_specs(model, args->inputs);
    if (args->run || args->devices.assign == "profile") add_synthetic_inputs(model, parse_dims(args->dims), in);
    DevicePlan plan;
    if (args->devices.given()) {
      plan = args->devices.plan(model, in);
    } else {
      std::vector<std::string> backends = split_commas(args->backends);
      if (backends.empty()) throw LoadError("--backends needs at least one backend");
      plan = partition_by_preference(model, backends, !args->no_fallback);
    }
    nlohmann::json j = device_plan_json(plan);
    std::string text = plan.text;
    exit_code = 0;
    if (args->run) {
      DevicePlanRun run = run_device_plan(plan, in);
      if (run.backend_error) {  // a step failed and fallback is disallowed
        std::cout << text;
        std::cerr << "sonnx: backend error: " << *run.backend_error << "\n";
        exit_code = 1;
        return;
      }
      const bool same = run.matches_reference;
      nlohmann::json fb = nlohmann::json::array();
      for (const auto& f : run.fallbacks) {
        fb.push_back({{"step", f.step}, {"backend", f.backend}, {"phase", f.phase}, {"reason", f.reason}});
        text += "fallback: step " + std::to_string(f.step) + " on " + f.backend + " failed to " + f.phase + " (" + f.reason +
                "); ran on cpu\n";
      }
      j["fallbacks"] = fb;
      j["matches_reference"] = same;
      text += same ? "outputs match the reference (certification tolerances)\n" : "outputs DIFFER from the reference\n";
      if (!same) exit_code = 1;
    }
    std::cout << (args->format == "json" ? j.dump(2) + "\n" : text);
  });
}

}  // namespace sonnx::cli
