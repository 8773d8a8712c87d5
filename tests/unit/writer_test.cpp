// The model writer (reference/model/writer.h): what the IR holds comes back from the protobuf it
// writes, and what it does not keep (sparse values) is refused, not written wrong. (Every suite
// model is also written, read back and run: tests/conformance/upgrade_suite.cpp.)
#include <gtest/gtest.h>

#include "reference/model/loader.h"
#include "reference/model/text_syntax.h"
#include "reference/model/writer.h"
#include "sonnx/errors.h"

namespace sonnx {
namespace {

TEST(ModelWriter, WritesWhatTheIrHolds) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 17, "ai.onnx.ml" : 3]>
g (bool c, float[N,2] X) => (float[N,2] Y) {
  k = Constant <value = float[2] {1.5, -2}> ()
  Y = If (c) <then_branch = t () => (float[N,2] a) { a = Add (X, k) }, else_branch = e () => (float[N,2] b) { b = Neg (X) }>
})");
  m.graph.value_info.push_back({"k", {}});
  m.graph.value_info.back().type.kind = TypeInfo::Kind::Map;
  m.graph.value_info.back().type.map_key = DType::Int64;
  m.graph.value_info.back().type.inner = std::make_shared<TypeInfo>(m.graph.inputs[1].type);
  m.graph.value_info.push_back({"s", {}});
  m.graph.value_info.back().type.kind = TypeInfo::Kind::Sequence;
  m.graph.value_info.back().type.inner = std::make_shared<TypeInfo>(m.graph.inputs[1].type);
  onnx::ModelProto p = model_to_proto(m);
  Model back = model_from_proto(p, {});
  EXPECT_EQ(back.ir_version, 8);
  EXPECT_EQ(back.opset_imports, m.opset_imports);
  ASSERT_EQ(back.graph.nodes.size(), 2u);
  EXPECT_EQ(back.graph.inputs[1].type.str(), "tensor(float)[N,2]");
  ASSERT_EQ(back.graph.value_info.size(), 2u);
  EXPECT_EQ(back.graph.value_info[0].type.str(), m.graph.value_info[0].type.str()) << "a map type";
  EXPECT_EQ(back.graph.value_info[1].type.str(), "seq(tensor(float)[N,2])");
  const Attribute* value = back.graph.nodes[0].attr("value");
  ASSERT_NE(value, nullptr);
  ASSERT_EQ(value->t.size(), 2);
  EXPECT_EQ(value->t.as_double(0), 1.5);
  EXPECT_EQ(value->t.as_double(1), -2.0);
  const Attribute* then_branch = back.graph.nodes[1].attr("then_branch");
  ASSERT_TRUE(then_branch && then_branch->g);
  EXPECT_EQ(then_branch->g->nodes.at(0).op_type, "Add");
  EXPECT_EQ(then_branch->g->outputs.at(0).type.str(), "tensor(float)[N,2]");
}

TEST(ModelWriter, RefusesSparseValuesItDoesNotKeep) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[2] X) => (float[2] Y) { Y = Neg (X) })");
  m.graph.sparse_initializers.push_back("w");
  EXPECT_THROW(model_to_proto(m), Trap);
}

}  // namespace
}  // namespace sonnx
