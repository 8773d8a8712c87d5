#include "prepare.h"

#include "reference/check/validator.h"
#include "reference/infer/infer_types.h"

namespace sonnx {

namespace {

const Profile& onnx_profile() {
  static const Profile p = load_profile("onnx");
  return p;
}

void refuse_invalid(const LoadedModel& model, const PrepareOptions& options, const std::string& label) {
  if (!options.check) return;
  const Profile& profile = options.profile ? *options.profile : onnx_profile();
  std::vector<Diagnostic> ds = validate(model, profile);
  if (has_errors(ds)) throw CheckFailed(label, profile.name, std::move(ds));
}

}  // namespace

PrepareOptions PrepareOptions::with_profile(bool check, const std::string& profile) {
  if (!check) return {false, nullptr};
  return {true, std::make_shared<const Profile>(load_profile(profile))};
}

void prepare_loaded_model(LoadedModel& model, const PrepareOptions& options, const std::string& label) {
  refuse_invalid(model, options, label);
  add_inferred_types(model.ir);
}

Model prepared_ir(const LoadedModel& model, const PrepareOptions& options, const std::string& label) {
  refuse_invalid(model, options, label);
  Model ir = model.ir;
  add_inferred_types(ir);
  return ir;
}

std::unique_ptr<LoadedModel> prepare_model(const std::filesystem::path& file, const PrepareOptions& options) {
  auto lm = load_model(file);
  prepare_loaded_model(*lm, options, file.string());
  return lm;
}

}  // namespace sonnx
