// Preparing a model to run or enclose, the one way every entry point does it (the CLI's commands,
// the C++ API's Session and enclosures, conformance, certification, the fuzzer): load it, check it
// with the validator (profile onnx unless told otherwise) and refuse it when the validator reports
// an error, then add the types sonnx's inference finds for values the model does not declare, so
// fast kernels can be prepared for known types and shapes. The interpreter assumes a valid model;
// a model that fails the check is never executed.
#pragma once
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "reference/check/profile.h"
#include "reference/model/loader.h"
#include "sonnx/diagnostic.h"

namespace sonnx {

struct PrepareOptions {
  bool check = true;                       // false: `--no-check`
  std::shared_ptr<const Profile> profile;  // null: the onnx profile
  // Options checking against the named profile (spec/profiles/NAME.json; LoadError when unknown),
  // or not checking at all.
  static PrepareOptions with_profile(bool check, const std::string& profile);
};

// Loads and prepares a model file. Throws LoadError (unreadable) or CheckFailed.
std::unique_ptr<LoadedModel> prepare_model(const std::filesystem::path& file, const PrepareOptions& options = {});
// Prepares a model already loaded (e.g. generated), in place; `label` names it in a CheckFailed.
void prepare_loaded_model(LoadedModel& model, const PrepareOptions& options = {}, const std::string& label = "model");
// Prepares a copy of a loaded model's IR (its weights shared, not copied), leaving the model as it
// is: for a model several sessions share.
Model prepared_ir(const LoadedModel& model, const PrepareOptions& options, const std::string& label);

}  // namespace sonnx
