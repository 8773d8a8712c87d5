// Bringing a model into a profile (`sonnx admit`, spec/admission.md): rewrites that keep the model's
// meaning (the version upgrade, fixed inputs, folded constants, removed copies and dead nodes,
// decomposed operators, defaults written out, types declared), the profile check of the result,
// and runs of the original and the admitted model on the same inputs with bitwise-equal outputs.
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "sonnx.hpp"

#pragma GCC visibility push(default)
namespace sonnx {

struct AdmitOptions {
  std::string profile = "sonnx";                             // the profile to bring the model into: a name or a JSON file
  std::map<std::string, int64_t> dims;                       // symbolic dimension -> size
  std::map<std::string, std::vector<int64_t>> input_shapes;  // input -> its whole shape
  NamedValues fixed;                                         // input -> the value it always has (it becomes a constant)
  NamedValues inputs;                                        // inputs to compare the two models on, besides the random ones
  bool expose_unused = false;  // a node output no node reads and that cannot be dropped becomes a graph output
  int samples = 3;             // seeded random input sets compared
  uint64_t seed = 1;
};

struct Admission {
  bool admitted = false;   // the result passes the profile's check and computes the same
  bool unchanged = false;  // the model is in the profile already: it is its own admitted form (model_bytes empty)
  int64_t opset_from = 0, opset_to = 0;
  size_t errors_before = 0, errors_after = 0;  // the profile check's errors on the original and the result
  std::map<std::string, int> rewrites;         // how many changes of each rewrite
  size_t runs = 0, runs_equal = 0;             // comparison runs, and those whose outputs agree: bitwise, or when
  bool bounded = false;                        // an inexact rewrite was applied, within the original's admissible enclosure
  std::vector<std::string> reasons;            // why it is not admitted (empty when admitted)
  double seconds = 0;
  std::string model_bytes;  // the admitted model as a serialized ModelProto (empty when not admitted)
  std::string report_json, report_markdown;
};

// Admits a loaded model into the profile. Throws LoadError for an unknown profile, a fix that does
// not apply to the model (no such input, another rank, a dimension named nowhere), and
// CheckFailed when the model is not a valid ONNX model (the onnx profile's errors).
Admission admit_model(const ModelHandle& model, const AdmitOptions& options = {});

// When the model has errors under `profile` and every one is of a kind `admit` removes: the command
// that removes them ("sonnx admit m.onnx -o m.sonnx.onnx --dim N=…"), else "". `diagnostics` are
// check(model, profile)'s.
std::string admit_suggestion(const ModelHandle& model, const std::vector<Diagnostic>& diagnostics, const std::string& profile);

}  // namespace sonnx
#pragma GCC visibility pop
