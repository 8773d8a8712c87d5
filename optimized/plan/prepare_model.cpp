#include "prepare_model.h"

#include "infer_types.h"
#include "reference/check/validator.h"

namespace sonnx {

namespace {

const Profile& onnx_profile() {
  static const Profile p = load_profile("onnx");
  return p;
}

size_t count_errors(const std::vector<Diagnostic>& ds) {
  size_t n = 0;
  for (const auto& d : ds) n += d.severity == Severity::Error;
  return n;
}

}  // namespace

CheckFailed::CheckFailed(const std::string& model, const std::string& profile, std::vector<Diagnostic> diagnostics)
    : std::runtime_error(model + " fails the check (profile " + profile + "): " + std::to_string(count_errors(diagnostics)) +
                         " error(s)"),
      diagnostics_(std::move(diagnostics)) {}

std::string CheckFailed::details() const {
  std::string out;
  for (const auto& d : diagnostics_)
    if (d.severity == Severity::Error) out += (out.empty() ? "" : "\n") + format_diagnostic(d);
  return out;
}

std::string format_diagnostic(const Diagnostic& d) {
  return std::string(severity_name(d.severity)) + ": [" + d.rule + "] " + d.message +
         (d.node.empty() ? "" : " (node " + d.node + (d.op_type.empty() ? "" : ", " + d.op_type) + ")") + " in " + d.graph;
}

void prepare_loaded_model(LoadedModel& model, const PrepareOptions& options, const std::string& label) {
  if (options.check) {
    const Profile& profile = options.profile ? *options.profile : onnx_profile();
    std::vector<Diagnostic> ds = validate(model, profile);
    if (has_errors(ds)) throw CheckFailed(label, profile.name, std::move(ds));
  }
  add_inferred_types(model.ir);
}

std::unique_ptr<LoadedModel> prepare_model(const std::filesystem::path& file, const PrepareOptions& options) {
  auto lm = load_model(file);
  prepare_loaded_model(*lm, options, file.string());
  return lm;
}

}  // namespace sonnx
