// sonnx run MODEL --input NAME=FILE ... : check a model (unless --no-check), then execute it on
// inputs from .pb or .npy files, through the C++ API's Session.
#include <iostream>

#include "commands.h"
#include "device_options.h"
#include "model_inputs.h"
#include "model_options.h"
#include "sonnx/sonnx.hpp"

namespace sonnx::cli {

namespace {
struct RunArgs {
  std::string model;
  std::vector<std::string> inputs;
  std::string output_dir;
  std::string executor = "reference";
  std::string output_format = "pb";
  int threads = 2;
  bool verify_arena_run = false;
  PrepareArgs prepare;
  DeviceArgs devices;
};
}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand("run", "Execute a model on inputs and write its outputs");
  cmd->add_option("model", args->model, "Model file (.onnx, or .onnxtxt text syntax)")->required();
  cmd->add_option("--input,-i", args->inputs,
                  "NAME=FILE with FILE a TensorProto/SequenceProto/OptionalProto .pb or a numpy .npy");
  cmd->add_option("--output-dir,-o", args->output_dir,
                  "Write each output as NAME.pb (or .npy) here; default: print a summary only");
  cmd->add_option("--output-format", args->output_format, "pb or npy")
      ->check(CLI::IsMember({"pb", "npy"}))
      ->capture_default_str();
  cmd->add_option("--executor", args->executor,
                  "Executor: reference (the interpreter), linear, dataflow or parallel (optimized)")
      ->capture_default_str();
  cmd->add_option("--threads", args->threads, "Threads: per kernel (linear, dataflow) or workers (parallel)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_flag("--verify-arena-run", args->verify_arena_run,
                "Optimized executors: run a second time in the planned memory arena and require the same bits");
  args->prepare.add_to(cmd);
  args->devices.add_to(cmd, false);
  cmd->callback([args, &exit_code] {
    require_executor(args->executor);
    std::vector<std::string> outputs;
    NamedValues feed;
    SessionOptions options{.executor = args->executor,
                           .threads = args->threads,
                           .check = !args->prepare.no_check,
                           .verify_arena_run = args->verify_arena_run};
    if (args->devices.given()) {  // the device set instead of the executor
      options.devices = args->devices.names();
      options.plugins = args->devices.plugins;
      options.assign = args->devices.assign;
    }
    // The model handle goes once the session is compiled: the executor's kernels may then hold
    // the only copy of each weight.
    auto session = [&] {
      ModelHandle model = load(args->model);
      Session compiled(model, options);
      feed = read_input_specs(model, args->inputs);
      for (const auto& [name, type] : model.inputs())  // those without an initializer
        if (!feed.count(name)) throw LoadError("missing input '" + name + "' (" + type + ")");
      for (const auto& [name, type] : model.outputs()) outputs.push_back(name);
      return compiled;
    }();
    NamedValues out = session.run(feed);
    if (!args->output_dir.empty()) std::filesystem::create_directories(args->output_dir);
    for (const auto& name : outputs) {
      const Value& v = out.at(name);
      std::cout << name << ": ";
      if (v.is_tensor()) std::cout << dtype_name(v.tensor.dtype()) << shape_str(v.tensor.shape()) << "\n";
      else if (v.is_sequence()) std::cout << "sequence of " << v.sequence.size() << "\n";
      else if (v.is_map())
        std::cout << "map(" << dtype_name(v.map_keys().dtype()) << ", " << dtype_name(v.map_values().dtype()) << ") of "
                  << v.map_keys().size() << "\n";
      else std::cout << (v.optional ? "optional (present)" : "optional (empty)") << "\n";
      if (args->output_dir.empty()) continue;
      std::filesystem::path base = std::filesystem::path(args->output_dir) / safe_file_name(name);
      write_value_file(base.string() + (args->output_format == "npy" && v.is_tensor() ? ".npy" : ".pb"), v, name);
    }
    exit_code = 0;
  });
}

}  // namespace sonnx::cli
