// sonnx plan MODEL: compile a model and print its execution plan — the steps in order with the
// kernel each uses, every arena value's lifetime and offset, and the arena size against the lower
// bound (spec/memory_plan.md). With --devices, the placement of nodes on devices instead.
#include <fstream>
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

struct PlanArgs {
  std::string model;
  std::string planner = "greedy";
  std::string executor = "linear";
  std::string format = "text";
  InputOptions in;
  PrepareArgs prepare;
  DeviceArgs devices;
};

nlohmann::json plan_json(const std::string& model_path, const CompiledPlan& p) {
  nlohmann::json steps = nlohmann::json::array(), values = nlohmann::json::array();
  for (const auto& s : p.steps)
    steps.push_back({{"index", s.index},
                     {"node", s.node},
                     {"op_type", s.op_type},
                     {"version", s.version},
                     {"kernel", s.kernel},
                     {"fused", s.fused},
                     {"inputs", s.inputs},
                     {"outputs", s.outputs},
                     {"output_layout", s.blocked_output ? "blocked" : "plain"}});
  for (const auto& v : p.values)
    values.push_back(
        {{"name", v.name}, {"bytes", v.bytes}, {"offset", v.offset}, {"first_step", v.first_step}, {"last_step", v.last_step}});
  return {{"model", model_path},
          {"executor", p.executor},
          {"planner", p.planner},
          {"concurrent", p.concurrent},
          {"peak_arena_bytes", p.peak_arena_bytes},
          {"lower_bound_bytes", p.lower_bound_bytes},
          {"ratio",
           p.lower_bound_bytes ? static_cast<double>(p.peak_arena_bytes) / static_cast<double>(p.lower_bound_bytes) : 1.0},
          {"steps", steps},
          {"values", values}};
}

}  // namespace

void add_plan_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<PlanArgs>();
  auto* cmd = app.add_subcommand("plan", "Compile a model and print its plan: steps, kernels, lifetimes, arena offsets");
  cmd->add_option("model", args->model, "Model file (.onnx or .onnxtxt)")->required();
  cmd->add_option("--planner", args->planner, "Offset assignment: greedy (by size) or first-fit")
      ->check(CLI::IsMember({"greedy", "first-fit"}))
      ->capture_default_str();
  cmd->add_option("--executor", args->executor,
                  "Plan for this executor: linear (lifetimes in the fixed order) or dataflow/parallel (safe for any order)")
      ->check(CLI::IsMember(optimized_executors()))
      ->capture_default_str();
  args->in.add_to(cmd);
  args->prepare.add_to(cmd);
  args->devices.add_to(cmd);
  cmd->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}))->capture_default_str();
  cmd->callback([args, &exit_code] {
    ModelHandle model = load_prepared(args->model, args->prepare.check());
    NamedValues feed = args->in.make(model);
    if (args->devices.given()) {  // where each node runs, and with --assign profile why there
      DevicePlan plan = args->devices.plan(model, feed);
      std::cout << (args->format == "json" ? device_plan_json(plan).dump(2) + "\n" : plan.text);
      exit_code = 0;
      return;
    }
    CompiledPlan p = compile_plan(model, feed, {.executor = args->executor, .planner = args->planner});
    nlohmann::json j = plan_json(args->model, p);
    if (args->format == "json") {
      std::cout << j.dump(2) << "\n";
    } else {
      for (const auto& s : j["steps"])
        std::cout << std::setw(5) << s["index"].get<int>() << "  " << s["op_type"].get<std::string>() << "-"
                  << s["version"].get<int64_t>() << (s["fused"].empty() ? "" : " +" + s["fused"].dump()) << "  ["
                  << s["kernel"].get<std::string>() << (s["output_layout"] == "blocked" ? ", blocked out" : "") << "]  "
                  << s["node"].get<std::string>() << "\n";
      std::cout << p.steps.size() << " steps, " << j["values"].size() << " values in the arena; planner " << p.planner
                << (p.concurrent ? " (safe for any schedule)" : " (fixed order)") << "\n"
                << "peak arena " << p.peak_arena_bytes << " bytes, lower bound " << p.lower_bound_bytes << " bytes, ratio "
                << std::fixed << std::setprecision(3) << j["ratio"].get<double>() << "\n";
    }
    exit_code = 0;
  });
}

}  // namespace sonnx::cli
