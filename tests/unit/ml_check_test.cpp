// The validator on ai.onnx.ml models: map types are spelled as the operator documents spell them
// (TYPE-INFERENCE accepts ZipMap's declared seq(map(int64, float)) output), and an ml operator
// version without a kernel is refused by name under OP-IMPLEMENTED.
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

// Under profile onnx, OP-IMPLEMENTED rejects ZipMap first and TYPE-INFERENCE then skips the node;
// a profile of TYPE-INFERENCE alone shows how the constraint check spells the map.
std::vector<Diagnostic> check_zipmap_types_only() {
  auto profile = std::filesystem::path(::testing::TempDir()) / "types_only.json";
  std::ofstream(profile) << R"({"name": "types-only", "description": "TYPE-INFERENCE alone", "rules": ["TYPE-INFERENCE"]})";
  auto path = std::filesystem::path(::testing::TempDir()) / "zipmap.onnxtxt";
  std::ofstream(path) << kZipMap;
  return validate(*load_model(path.string()), load_profile(profile.string()));
}

TEST(MlCheck, ZipMapsMapOutputMatchesItsConstraintAndZipMapIsRefusedByName) {
  auto ds = check_zipmap();
  int implemented = 0;
  for (const auto& d : ds) {
    EXPECT_NE(d.rule, "TYPE-INFERENCE") << d.message;
    if (d.rule == "OP-IMPLEMENTED") {
      ++implemented;
      EXPECT_NE(d.message.find("unsupported: ai.onnx.ml.ZipMap-1"), std::string::npos) << d.message;
    }
  }
  EXPECT_EQ(implemented, 1);
  for (const auto& d : check_zipmap_types_only()) ADD_FAILURE() << d.message;
}

TEST(MlCheck, AnMlModelWithKernelsPasses) {
  auto ds = check_text("binarizer", R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (float[3] X) => (float[3] Y) { Y = ai.onnx.ml.Binarizer<threshold = 0.5>(X) })");
  for (const auto& d : ds) ADD_FAILURE() << d.message;
}

}  // namespace
}  // namespace sonnx
