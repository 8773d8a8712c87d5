// The validator on ai.onnx.ml models: map types are spelled as the operator documents spell them
// (TYPE-INFERENCE accepts ZipMap's declared seq(map(int64, float)) output and refuses a map type
// outside DictVectorizer's constraint). (OP-IMPLEMENTED's refusal by name: coverage_test.cpp.)
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "reference/check/validator.h"

namespace sonnx {
namespace {

std::vector<Diagnostic> check_text(const std::string& name, const std::string& text) {
  auto path = std::filesystem::path(::testing::TempDir()) / (name + ".onnxtxt");
  std::ofstream(path) << text;
  auto lm = load_model(path.string());
  return validate(*lm, load_profile("onnx"));
}

const char* kZipMap = R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (float[2] X) => (seq(map(int64, float)) Z) { Z = ai.onnx.ml.ZipMap <classlabels_int64s = [1, 2]> (X) })";

std::vector<Diagnostic> check_zipmap() { return check_text("zipmap", kZipMap); }

// A profile of TYPE-INFERENCE alone: how the constraint check spells the map.
std::vector<Diagnostic> check_zipmap_types_only() {
  auto profile = std::filesystem::path(::testing::TempDir()) / "types_only.json";
  std::ofstream(profile) << R"({"name": "types-only", "description": "TYPE-INFERENCE alone", "rules": ["TYPE-INFERENCE"]})";
  auto path = std::filesystem::path(::testing::TempDir()) / "zipmap.onnxtxt";
  std::ofstream(path) << kZipMap;
  return validate(*load_model(path.string()), load_profile(profile.string()));
}

TEST(MlCheck, ZipMapsMapOutputMatchesItsConstraint) {
  for (const auto& d : check_zipmap())
    if (d.severity == Severity::Error) ADD_FAILURE() << d.rule << ": " << d.message;
  for (const auto& d : check_zipmap_types_only()) ADD_FAILURE() << d.message;
}

TEST(MlCheck, AMapTypeOutsideTheConstraintIsATypeError) {
  // DictVectorizer's T1 lists six map types; map(int64, int64) is not one of them.
  auto ds = check_text("dictvectorizer", R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (map(int64, int64) X) => (int64[1, 1] Y) { Y = ai.onnx.ml.DictVectorizer <int64_vocabulary = [1]> (X) })");
  bool named = false;
  for (const auto& d : ds)
    if (d.rule == "TYPE-INFERENCE") named = named || d.message.find("map(int64, int64)") != std::string::npos;
  EXPECT_TRUE(named);
}

TEST(MlCheck, AnMlModelWithKernelsPasses) {
  auto ds = check_text("binarizer", R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (float[3] X) => (float[3] Y) { Y = ai.onnx.ml.Binarizer<threshold = 0.5>(X) })");
  for (const auto& d : ds) ADD_FAILURE() << d.message;
}

}  // namespace
}  // namespace sonnx
