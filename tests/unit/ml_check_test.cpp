// The validator on ai.onnx.ml models: map types are spelled as the operator documents spell them
// (TYPE-INFERENCE accepts ZipMap's declared seq(map(int64, float)) output), and an ml operator
// version without a kernel is refused by name under OP-IMPLEMENTED.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "reference/check/validator.h"

namespace sonnx {
namespace {

std::vector<Diagnostic> check_text(const std::string& name, const std::string& text) {
  auto path = std::filesystem::path(::testing::TempDir()) / (name + ".onnxtxt");
  std::ofstream(path) << text;
  auto lm = load_model(path.string());
  return validate(*lm, load_profile("onnx"));
}

// libonnx 1.12's text parser has no seq/map types: the ZipMap model is built as a ModelProto.
std::vector<Diagnostic> check_zipmap() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  auto* imp = m.add_opset_import();
  imp->set_domain("ai.onnx.ml");
  imp->set_version(1);
  auto* g = m.mutable_graph();
  g->set_name("g");
  auto* n = g->add_node();
  n->set_op_type("ZipMap");
  n->set_domain("ai.onnx.ml");
  n->add_input("X");
  n->add_output("Z");
  auto* a = n->add_attribute();
  a->set_name("classlabels_int64s");
  a->set_type(onnx::AttributeProto::INTS);
  a->add_ints(1);
  a->add_ints(2);
  auto* x = g->add_input();
  x->set_name("X");
  x->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  auto* z = g->add_output();
  z->set_name("Z");
  auto* map = z->mutable_type()->mutable_sequence_type()->mutable_elem_type()->mutable_map_type();
  map->set_key_type(onnx::TensorProto::INT64);
  map->mutable_value_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  auto path = std::filesystem::path(::testing::TempDir()) / "zipmap.onnx";
  std::ofstream(path, std::ios::binary) << m.SerializeAsString();
  return validate(*load_model(path.string()), load_profile("onnx"));
}

// Under profile onnx, OP-IMPLEMENTED rejects ZipMap first and TYPE-INFERENCE then skips the node;
// a profile of TYPE-INFERENCE alone shows how the constraint check spells the map.
std::vector<Diagnostic> check_zipmap_types_only() {
  auto profile = std::filesystem::path(::testing::TempDir()) / "types_only.json";
  std::ofstream(profile) << R"({"name": "types-only", "description": "TYPE-INFERENCE alone", "rules": ["TYPE-INFERENCE"]})";
  auto path = std::filesystem::path(::testing::TempDir()) / "zipmap.onnx";
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
