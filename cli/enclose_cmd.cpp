// sonnx enclose MODEL --input NAME=FILE ... : for every output element, an interval guaranteed to
// contain the model's result in exact real arithmetic on these inputs (`real`), or every result an
// implementation meeting each operator's allowance may produce (`admissible`; enclose/,
// through the C++ API's enclosures).
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "model_inputs.h"
#include "model_options.h"
#include "sonnx/sonnx.hpp"

namespace sonnx::cli {

namespace {
struct EncloseArgs {
  std::string model;
  std::vector<std::string> inputs;
  std::string semantics = "real";
  std::string output_dir;
  std::string format = "text";
  PrepareArgs prepare;
};

struct Summary {
  std::string name;
  DType type;
  Shape shape;
  double widest = 0, widest_ulps = 0;
  int64_t unbounded = 0;
  int64_t undefined = 0;  // elements without a real value (a NaN input, ∞ − ∞): NaN bounds
};

Summary summarize(const std::string& name, const OutputEnclosure& b, bool exact) {
  Summary s{name, b.type, b.lower.shape()};
  if (exact) return s;
  for (int64_t i = 0; i < b.lower.size(); ++i) {
    double lo = b.lower.data<double>()[i], hi = b.upper.data<double>()[i];
    if (std::isnan(lo) || std::isnan(hi)) {
      ++s.undefined;
      continue;
    }
    if (lo == hi) continue;  // a point, ±∞ included
    if (!std::isfinite(lo) || !std::isfinite(hi)) {
      ++s.unbounded;
      continue;
    }
    s.widest = std::max(s.widest, hi - lo);
    s.widest_ulps = std::max(s.widest_ulps, width_in_ulps(b.type, lo, hi));
  }
  return s;
}

// Whether every element is pinned to within a few values of its type (kDeterminedUlps): otherwise
// the model itself leaves the output open at this input, and `enclose` says so.
constexpr double kDeterminedUlps = 16;
bool determined(const Summary& s) { return s.unbounded == 0 && s.widest_ulps <= kDeterminedUlps; }

}  // namespace

void add_enclose_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<EncloseArgs>();
  auto* cmd = app.add_subcommand("enclose",
                                 "Bound every output element: an interval that contains the model's result in exact real "
                                 "arithmetic on the given inputs (an operator without an enclosure is refused by name)");
  cmd->add_option("model", args->model, "Model file (.onnx, or .onnxtxt text syntax)")->required();
  cmd->add_option("--input,-i", args->inputs, "NAME=FILE with FILE a TensorProto .pb or a numpy .npy");
  cmd->add_option("--semantics", args->semantics,
                  "real: exact real arithmetic on the inputs and weights; admissible: every result an implementation may "
                  "produce when each operator meets its accuracy allowance on its element type (spec/accuracy.md)")
      ->check(CLI::IsMember({"real", "admissible"}))
      ->capture_default_str();
  cmd->add_option(
      "--output-dir,-o", args->output_dir,
      "Write NAME.lower.npy and NAME.upper.npy (float64, rounded outward; NaN where an element has no real value) per output");
  cmd->add_option("--format", args->format,
                  "text or json: per output, the widest interval in absolute terms and in ULPs of its type")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  args->prepare.add_to(cmd);
  cmd->callback([args, &exit_code] {
    ModelHandle model = load(args->model);
    NamedValues feed = read_input_specs(model, args->inputs);
    const bool real = args->semantics == "real";
    std::map<std::string, OutputEnclosure> bounds;
    try {
      bounds = enclosures(model, feed, args->semantics, !args->prepare.no_check);
    } catch (const Undetermined& e) {  // the bounds leave an integer or a shape open: a finding, exit 1
      std::cerr << "sonnx: undetermined: " << e.what() << "\n";
      exit_code = 1;
      return;
    }
    if (!args->output_dir.empty()) std::filesystem::create_directories(args->output_dir);
    nlohmann::json report = nlohmann::json::array();
    for (const auto& [name, type] : model.outputs()) {
      const OutputEnclosure& b = bounds.at(name);
      const bool exact = !is_float(b.type) && !is_small_float(b.type);  // float8, float4: bounds too
      Summary s = summarize(name, b, exact);
      if (!args->output_dir.empty() && !exact) {
        std::filesystem::path base = std::filesystem::path(args->output_dir) / safe_file_name(name);
        write_value_file(base.string() + ".lower.npy", b.lower);
        write_value_file(base.string() + ".upper.npy", b.upper);
      }
      if (args->format == "json") {
        nlohmann::json j = {{"name", s.name}, {"type", dtype_name(s.type)}, {"shape", s.shape}, {"exact", exact}};
        if (!exact) {
          j["widest"] = s.widest;
          j["widest_ulps"] = s.widest_ulps;
          j["unbounded"] = s.unbounded;
          j["undefined"] = s.undefined;
          if (real) j["determined"] = determined(s);
        }
        report.push_back(j);
        continue;
      }
      std::cout << s.name << ": " << dtype_name(s.type) << shape_str(s.shape);
      if (exact) {
        std::cout << ", exact\n";
        continue;
      }
      std::cout << ", widest interval " << std::setprecision(3) << s.widest << " (" << s.widest_ulps << " ULP of "
                << dtype_name(s.type) << ")";
      if (s.unbounded) std::cout << ", " << s.unbounded << " element(s) unbounded";
      if (s.undefined) std::cout << ", " << s.undefined << " element(s) without a real value (NaN bounds)";
      std::cout << "\n";
      if (real && !determined(s))
        std::cout << "  the enclosure does not determine " << s.name << " to the precision of " << dtype_name(s.type)
                  << " at this input: the model is ill-conditioned here, or the enclosure widened through the graph "
                     "(spec/accuracy.md, \"Condition\"); an implementation cannot be blamed for differing within it\n";
    }
    if (args->format == "json") std::cout << report.dump(2) << "\n";
    exit_code = 0;
  });
}

}  // namespace sonnx::cli
