// sonnx admit MODEL -o OUT.onnx : bring a model into a profile by rewrites that keep its meaning,
// check the result and compare both models' outputs on the same inputs (spec/admission.md; the C++
// API's admit). Writes the model only when admitted.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "commands.h"
#include "model_inputs.h"
#include "sonnx/admit.hpp"
#include "sonnx/tensor_files.hpp"

namespace sonnx::cli {

namespace {
struct AdmitArgs {
  std::string model, output, profile = "sonnx", report;
  std::vector<std::string> dims, input_shapes, fixes, inputs;
  int samples = 3;
  uint64_t seed = 1;
  bool quiet = false, expose_unused = false;
};

std::pair<std::string, std::string> split(const std::string& spec, const std::string& option, const std::string& form) {
  auto eq = spec.find('=');
  if (eq == std::string::npos || eq == 0) throw LoadError(option + " takes " + form + ", got '" + spec + "'");
  return {spec.substr(0, eq), spec.substr(eq + 1)};
}

std::vector<int64_t> parse_shape(const std::string& name, const std::string& text) {
  std::vector<int64_t> dims;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(start, end - start);
    size_t used = 0;
    long long v = -1;
    try {
      v = std::stoll(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size() || v < 0)
      throw LoadError("--input-shape " + name + ": '" + item + "' is not a nonnegative integer");
    dims.push_back(v);
    start = end + 1;
  }
  return dims;
}

// NAME=FILE (.npy or .pb), or NAME=NUMBERS for a scalar or 1-D input (--fix sr=16000).
Value fixed_value(const ModelHandle& model, const std::string& name, const std::string& what) {
  if (std::filesystem::exists(what)) return read_input(model, name, what);
  bool numbers = !what.empty() && what.find_first_not_of("0123456789+-.,eE") == std::string::npos;
  if (!numbers) throw LoadError("--fix " + name + ": no file '" + what + "' (and not a list of numbers)");
  return read_input_text(model, name, what);
}

void write_file(const std::filesystem::path& file, const std::string& bytes, const char* what) {
  std::ofstream out(file, std::ios::binary);
  out << bytes;
  out.close();
  if (!out) throw LoadError(std::string("cannot write the ") + what + " to " + file.string());
}
}  // namespace

void add_admit_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<AdmitArgs>();
  auto* cmd = app.add_subcommand(
      "admit",
      "Bring a model into a profile by rewrites that keep its meaning, proven by running both models on the same inputs "
      "(exit 0 admitted and written, 1 not admitted: nothing written, 2 unreadable input or bad option)");
  cmd->add_option("model", args->model, "Model file (.onnx, or .onnxtxt text syntax)")->required();
  cmd->add_option("--output,-o", args->output, "Where to write the admitted model (.onnx)")->required();
  cmd->add_option("--profile", args->profile, "sonnx, or a profile JSON file")->capture_default_str();
  cmd->add_option("--dim", args->dims, "NAME=N: fix the symbolic dimension NAME to N");
  cmd->add_option("--input-shape", args->input_shapes, "NAME=d,d,...: fix the whole shape of input NAME");
  cmd->add_option("--fix", args->fixes, "NAME=FILE (.npy or .pb) or NAME=NUMBERS: input NAME always has this value");
  cmd->add_option("--input,-i", args->inputs, "NAME=FILE: also compare both models on this input value");
  cmd->add_option("--report", args->report, "Write a report of every change and check (.json, else Markdown)");
  cmd->add_option("--samples", args->samples, "Seeded random input sets to compare both models on")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  cmd->add_option("--seed", args->seed, "Seed of the first random input set")->capture_default_str();
  cmd->add_flag("--expose-unused", args->expose_unused,
                "Make a node output no node reads, and that the profile does not let be dropped, a graph output");
  cmd->add_flag("--quiet,-q", args->quiet, "Print only the summary line");
  cmd->callback([args, &exit_code] {
    ModelHandle model = load(args->model);
    AdmitOptions o;
    o.profile = args->profile;
    o.dims = parse_dims(args->dims);
    for (const std::string& spec : args->input_shapes) {
      auto [name, shape] = split(spec, "--input-shape", "NAME=d,d,...");
      o.input_shapes[name] = parse_shape(name, shape);
    }
    for (const std::string& spec : args->fixes) {
      auto [name, what] = split(spec, "--fix", "NAME=FILE or NAME=NUMBERS");
      if (o.fixed.count(name)) throw LoadError("--fix " + name + " given twice");
      o.fixed[name] = fixed_value(model, name, what);
    }
    o.inputs = read_input_specs(model, args->inputs);
    o.expose_unused = args->expose_unused;
    o.samples = args->samples;
    o.seed = args->seed;
    Admission a = admit_model(model, o);

    if (!args->report.empty()) {
      bool json = std::filesystem::path(args->report).extension() == ".json";
      write_file(args->report, json ? a.report_json + "\n" : a.report_markdown, "report");
    }
    if (!args->quiet) {
      for (const auto& [rewrite, n] : a.rewrites) std::cout << "  " << rewrite << ": " << n << "\n";
      if (a.runs)
        std::cout << "  compared: " << a.runs_equal << " of " << a.runs << " runs "
                  << (a.bounded ? "within the original's admissible enclosure" : "bitwise equal") << "\n";
      for (const std::string& why : a.reasons) std::cout << "  not admitted: " << why << "\n";
    }
    if (a.unchanged) {
      std::error_code same;
      if (!std::filesystem::equivalent(args->model, args->output, same)) {
        std::error_code ec;
        std::filesystem::copy_file(args->model, args->output, std::filesystem::copy_options::overwrite_existing, ec);
        if (ec) throw LoadError("cannot write the model to " + args->output + ": " + ec.message());
      }
      std::cout << args->model << ": already in profile " << args->profile << "; copied unchanged to " << args->output << "\n";
      exit_code = 0;
      return;
    }
    if (!a.admitted) {
      std::cout << args->model << ": not admitted into profile " << args->profile << " (" << a.reasons.size() << " reasons; "
                << a.errors_before << " errors before); nothing written\n";
      exit_code = 1;
      return;
    }
    write_file(args->output, a.model_bytes, "admitted model");
    std::cout << args->model << ": admitted into profile " << args->profile << " as " << args->output << " (opset "
              << a.opset_from << " → " << a.opset_to << ", " << a.errors_before << " errors removed, " << a.runs_equal
              << " runs " << (a.bounded ? "within the admissible enclosure" : "bitwise equal") << ", " << a.seconds << " s)\n";
    exit_code = 0;
  });
}

}  // namespace sonnx::cli
