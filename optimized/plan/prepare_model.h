// Preparing a model to run, the same way for every command (run, conform, plan, bench, certify,
// fuzz): load it, check it with the validator (profile onnx unless told otherwise) and refuse it
// when the validator reports an error, then add the types onnx's inference finds for values the
// model does not declare, so fast kernels can be prepared for known types and shapes. The
// interpreter assumes a valid model; a model that fails the check is never executed.
#pragma once
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "sonnx/diagnostic.h"
#include "reference/check/profile.h"
#include "reference/model/loader.h"

namespace sonnx {

struct PrepareOptions {
  bool check = true;                       // false: `--no-check`
  std::shared_ptr<const Profile> profile;  // null: the onnx profile
};

// Loads and prepares a model file. Throws LoadError (unreadable) or CheckFailed.
std::unique_ptr<LoadedModel> prepare_model(const std::filesystem::path& file, const PrepareOptions& options = {});
// Prepares a model already loaded (e.g. generated); `label` names it in a CheckFailed.
void prepare_loaded_model(LoadedModel& model, const PrepareOptions& options = {}, const std::string& label = "model");

}  // namespace sonnx
