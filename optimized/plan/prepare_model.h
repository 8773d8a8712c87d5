// Preparing a model to run, the same way for every command (run, conform, plan, bench, certify,
// fuzz): load it, check it with the validator (profile onnx unless told otherwise) and refuse it
// when the validator reports an error, then add the types onnx's inference finds for values the
// model does not declare, so fast kernels can be prepared for known types and shapes. The
// interpreter assumes a valid model; a model that fails the check is never executed.
#pragma once
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "reference/check/diagnostic.h"
#include "reference/check/profile.h"
#include "reference/model/loader.h"

namespace sonnx {

struct PrepareOptions {
  bool check = true;                       // false: `--no-check`
  std::shared_ptr<const Profile> profile;  // null: the onnx profile
};

// The validator refused the model. what(): one line; diagnostics(): everything it reported.
class CheckFailed : public std::runtime_error {
 public:
  CheckFailed(const std::string& model, const std::string& profile, std::vector<Diagnostic> diagnostics);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  // Every error diagnostic, one per line (format_diagnostic).
  std::string details() const;

 private:
  std::vector<Diagnostic> diagnostics_;
};

// Loads and prepares a model file. Throws LoadError (unreadable) or CheckFailed.
std::unique_ptr<LoadedModel> prepare_model(const std::filesystem::path& file, const PrepareOptions& options = {});
// Prepares a model already loaded (e.g. generated); `label` names it in a CheckFailed.
void prepare_loaded_model(LoadedModel& model, const PrepareOptions& options = {}, const std::string& label = "model");

// "error: [RULE] message (node n, Op) in graph", as `sonnx check` prints it.
std::string format_diagnostic(const Diagnostic& d);

}  // namespace sonnx
