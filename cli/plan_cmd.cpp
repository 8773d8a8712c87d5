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
#include "optimized/exec/make_executor.h"

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

nlohmann::json plan_json(const std::string& model_path, const OptimizedExecutor& exec, const CompiledGraph& g,
                         const MemoryPlan& p) {
  nlohmann::json steps = nlohmann::json::array(), values = nlohmann::json::array();
  for (size_t i = 0; i < g.steps().size(); ++i) {
    const Step& s = g.steps()[i];
    nlohmann::json fused = nlohmann::json::array(), in = nlohmann::json::array(), out = nlohmann::json::array();
    if (s.folded) fused.push_back(s.folded->op_type + " (folded)");
    for (const Node* f : s.fused) fused.push_back(f->op_type);
    for (int x : s.inputs) in.push_back(x < 0 ? "" : g.slot_name(x));
    for (int x : s.outputs) out.push_back(x < 0 ? "" : g.slot_name(x));
    steps.push_back({{"index", i}, {"node", s.node->name}, {"op_type", s.node->op_type}, {"version", s.version},
                     {"kernel", s.fast ? s.fast->name() : s.kernel ? "reference" : "reference:function"},
                     {"fused", fused}, {"inputs", in}, {"outputs", out},
                     {"output_layout", s.blocked_output ? "blocked" : "plain"}});
  }
  for (size_t v = 0; v < p.offset.size(); ++v)
    if (p.offset[v] >= 0)
      values.push_back({{"name", g.slot_name(static_cast<int>(v))}, {"bytes", p.bytes[v]}, {"offset", p.offset[v]},
                        {"first_step", p.first[v]}, {"last_step", p.last[v]}});
  return {{"model", model_path},
          {"executor", exec.name()},
          {"planner", planner_name(p.planner)},
          {"concurrent", p.concurrent},
          {"peak_arena_bytes", p.arena_bytes},
          {"lower_bound_bytes", p.lower_bound_bytes},
          {"ratio", p.lower_bound_bytes ? static_cast<double>(p.arena_bytes) / static_cast<double>(p.lower_bound_bytes) : 1.0},
          {"steps", steps},
          {"values", values}};
}

}  // namespace

void add_plan_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<PlanArgs>();
  auto* cmd = app.add_subcommand("plan", "Compile a model and print its plan: steps, kernels, lifetimes, arena offsets");
  cmd->add_option("model", args->model, "Model file (.onnx or .onnxtxt)")->required();
  cmd->add_option("--planner", args->planner, "Offset assignment: greedy (by size) or first-fit")
      ->check(CLI::IsMember({"greedy", "first-fit"}))->capture_default_str();
  cmd->add_option("--executor", args->executor,
                  "Plan for this executor: linear (lifetimes in the fixed order) or dataflow/parallel (safe for any order)")
      ->check(CLI::IsMember(optimized_executor_names()))->capture_default_str();
  args->in.add_to(cmd);
  args->prepare.add_to(cmd);
  args->devices.add_to(cmd);
  cmd->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}))->capture_default_str();
  cmd->callback([args, &exit_code] {
    auto lm = prepare_model(args->model, args->prepare.options());
    NamedValues feed = args->in.make(lm->ir);
    if (args->devices.given()) {  // where each node runs, and with --assign profile why there
      ExecutionPlan plan = args->devices.plan(lm->ir, feed);
      std::cout << (args->format == "json" ? device_plan_json(plan).dump(2) + "\n" : plan_text(plan));
      exit_code = 0;
      return;
    }
    ExecutorOptions options;
    options.planner = parse_planner(args->planner);
    auto exec = make_optimized_executor(lm->ir, args->executor, options);
    exec->run(feed);  // the plan is made from the sizes of this run
    const MemoryPlan& p = *exec->plan();
    const CompiledGraph& root = exec->compiled()->root();
    nlohmann::json j = plan_json(args->model, *exec, root, p);
    if (args->format == "json") {
      std::cout << j.dump(2) << "\n";
    } else {
      for (const auto& s : j["steps"])
        std::cout << std::setw(5) << s["index"].get<int>() << "  " << s["op_type"].get<std::string>() << "-"
                  << s["version"].get<int64_t>() << (s["fused"].empty() ? "" : " +" + s["fused"].dump()) << "  ["
                  << s["kernel"].get<std::string>() << (s["output_layout"] == "blocked" ? ", blocked out" : "") << "]  "
                  << s["node"].get<std::string>() << "\n";
      std::cout << root.steps().size() << " steps, " << j["values"].size() << " values in the arena; planner "
                << planner_name(p.planner) << (p.concurrent ? " (safe for any schedule)" : " (fixed order)") << "\n"
                << "peak arena " << p.arena_bytes << " bytes, lower bound " << p.lower_bound_bytes << " bytes, ratio "
                << std::fixed << std::setprecision(3) << j["ratio"].get<double>() << "\n";
    }
    exit_code = 0;
  });
}

}  // namespace sonnx::cli
