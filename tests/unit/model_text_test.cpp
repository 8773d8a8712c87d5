// Models in ONNX's text syntax (reference/model/text_syntax, through load_model for .onnxtxt
// files): types, initializers, value infos, labels, quoted names, tensor literals of the IR 9–13
// element types, subgraph paths, and the errors. Expected values are worked out by hand from the
// grammar (onnx's docs/Syntax.md) and the element type definitions.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "sonnx/errors.h"
#include "reference/model/loader.h"
#include "sonnx/small_types.h"
#include "reference/model/text_syntax.h"
#include "text_error_util.h"

namespace sonnx::text {
namespace {

const ValueInfo& input(const Model& m, size_t i) { return m.graph.inputs.at(i); }

const Tensor& initializer(const Model& m, const std::string& name) {
  for (const auto& [n, t] : m.graph.initializers)
    if (n == name) return t;
  throw std::runtime_error("no initializer " + name);
}

TEST(ModelText, HeaderAndTypesOfEveryKind) {
  Model m = parse_model(R"(<ir_version: 10, opset_import: ["" : 21, "ai.onnx.ml" : 3], producer_name: "me",
                            producer_version: "1", model_version: 2, doc_string: "d", metadata_props: ["k" : "v"]>
g (float s, float[] u, float[?, N, 3] d, seq(int64[2]) q, map(string, float) mp, optional(seq(float)) o,
   sparse_tensor(float[4, 4]) sp, float "a b") => (float[3] "y z") {
  "y z" = Identity(d)
})");
  EXPECT_EQ(m.ir_version, 10);
  EXPECT_EQ(m.producer, "me");
  EXPECT_EQ(m.opset_imports.at(""), 21);
  EXPECT_EQ(m.opset_imports.at("ai.onnx.ml"), 3);
  ASSERT_EQ(m.graph.inputs.size(), 8u);
  EXPECT_EQ(input(m, 0).type.str(), "tensor(float)[]");  // no brackets: a scalar
  EXPECT_FALSE(input(m, 1).type.shape.has_value());      // `[]`: rank unknown
  const auto& dims = *input(m, 2).type.shape;
  ASSERT_EQ(dims.size(), 3u);
  EXPECT_FALSE(dims[0].value.has_value());
  EXPECT_TRUE(dims[0].param.empty());
  EXPECT_EQ(dims[1].param, "N");
  EXPECT_EQ(dims[2].value, 3);
  EXPECT_EQ(input(m, 3).type.kind, TypeInfo::Kind::Sequence);
  EXPECT_EQ(input(m, 3).type.inner->elem, DType::Int64);
  EXPECT_EQ(input(m, 4).type.kind, TypeInfo::Kind::Map);
  EXPECT_EQ(input(m, 4).type.map_key, DType::String);
  EXPECT_EQ(input(m, 4).type.inner->elem, DType::Float);
  EXPECT_EQ(input(m, 5).type.kind, TypeInfo::Kind::Optional);
  EXPECT_EQ(input(m, 5).type.inner->kind, TypeInfo::Kind::Sequence);
  EXPECT_EQ(input(m, 6).type.kind, TypeInfo::Kind::SparseTensor);
  EXPECT_EQ(input(m, 7).name, "a b");
  EXPECT_EQ(m.graph.outputs.at(0).name, "y z");
  EXPECT_EQ(m.graph.nodes.at(0).outputs.at(0), "y z");
}

TEST(ModelText, InitializersValueInfosLabelsAndFunctions) {
  Model m = parse_model(R"(<ir_version: 8, opset_import: ["" : 17, "local" : 1]>
g (float[2] x, float[2] w = {1.5, -2}) => (float[2] y) <int64[] unused, float[2] c = {0.25, 4}, float[2] t> {
  [scale] t = Mul(x, w)
  y = Add(t, c)
  z = local.Twice (t) <alpha = 3.0>
}
<domain: "local", opset_import: ["" : 17]>
Twice <alpha: float = 2.0> (float[2] a) => (b) { b = Add(a, a) }
)");
  ASSERT_EQ(m.graph.inputs.size(), 2u);  // an initializer in the input list stays an input
  ASSERT_EQ(m.graph.initializers.size(), 2u);
  EXPECT_EQ(initializer(m, "w").data<float>()[1], -2.0f);
  EXPECT_EQ(initializer(m, "c").data<float>()[0], 0.25f);
  ASSERT_EQ(m.graph.value_info.size(), 2u);  // unused and t; c is an initializer
  EXPECT_EQ(m.graph.value_info[0].name, "unused");
  EXPECT_EQ(m.graph.value_info[1].name, "t");
  EXPECT_EQ(m.graph.nodes.at(0).name, "scale");
  const Node& call = m.graph.nodes.at(2);
  EXPECT_EQ(call.domain, "local");
  ASSERT_NE(call.attr("alpha"), nullptr);  // attributes after the inputs
  EXPECT_EQ(call.attr("alpha")->f, 3.0f);
  ASSERT_EQ(m.functions.size(), 1u);
  EXPECT_EQ(m.functions[0].inputs, std::vector<std::string>{"a"});  // a typed parameter keeps its name
  EXPECT_EQ(m.functions[0].attribute_defaults.at(0).f, 2.0f);
}

TEST(ModelText, TensorLiteralsOfTheNewElementTypes) {
  Model m = parse_model(R"(<ir_version: 11, opset_import: ["" : 25]>
g () => (float y) <float8e4m3fn[3] f8 = {1.0, 448, -0.5}, float8e5m2[1] e5 = {57344}, int4[2] i4 = {-8, 7},
                   uint2[2] u2 = {0, 3}, float4e2m1[2] f4 = {6, -0.5}, float16[1] h = {0.1},
                   bfloat16[1] b = {1}, bool[2] flags = {1, 0}, uint64[1] big = {18446744073709551615}> {
  y = Constant <value = float {1}> ()
})");
  // float8e4m3fn: 1.0 = 0 0111 000, 448 = 0 1111 110 (its largest finite value), -0.5 = 1 0110 000.
  const Tensor& f8 = initializer(m, "f8");
  EXPECT_EQ(f8.data<float8e4m3fn_t>()[0].bits, 0x38);
  EXPECT_EQ(f8.data<float8e4m3fn_t>()[1].bits, 0x7E);
  EXPECT_EQ(f8.data<float8e4m3fn_t>()[2].bits, 0xB0);
  EXPECT_EQ(initializer(m, "e5").data<float8e5m2_t>()[0].bits, 0x7B);  // 57344 = 0 11110 11
  EXPECT_EQ(initializer(m, "i4").data<int4_t>()[0].v, -8);
  EXPECT_EQ(initializer(m, "i4").data<int4_t>()[1].v, 7);
  EXPECT_EQ(initializer(m, "u2").data<uint2_t>()[1].v, 3);
  EXPECT_EQ(initializer(m, "f4").data<float4e2m1_t>()[0].bits, 0x7);  // 6 = 0 11 1
  EXPECT_EQ(initializer(m, "f4").data<float4e2m1_t>()[1].bits, 0x9);  // -0.5 = 1 00 1 (subnormal)
  EXPECT_EQ(initializer(m, "h").data<float16_t>()[0].bits, 0x2E66);   // float16 nearest to 0.1
  EXPECT_EQ(initializer(m, "b").data<bfloat16_t>()[0].bits, 0x3F80);
  EXPECT_TRUE(initializer(m, "flags").data<bool>()[0]);
  EXPECT_EQ(initializer(m, "big").data<uint64_t>()[0], 18446744073709551615ull);
  EXPECT_EQ(m.graph.nodes.at(0).attr("value")->t.shape().size(), 0u);  // `float {1}`: a scalar
}

TEST(ModelText, SubgraphsArePathedAsTheProtobufLoaderPathsThem) {
  Model m = parse_model(R"(<ir_version: 8, opset_import: ["" : 17]>
g (bool c) => (float[1] y) {
  [choose] y = If (c) <then_branch = yes () => (float[1] a) { a = Constant <value = float[1] {1}> () },
                       else_branch = no () => (float[1] b) { b = Constant <value = float[1] {2}> () }>
})");
  EXPECT_EQ(m.graph.path, "main");
  const Node& n = m.graph.nodes.at(0);
  EXPECT_EQ(n.attr("then_branch")->g->path, "main/choose:then_branch");
  EXPECT_EQ(n.attr("else_branch")->g->path, "main/choose:else_branch");
  EXPECT_EQ(n.attr("else_branch")->g->outputs.at(0).type.str(), "tensor(float)[1]");
}

TEST(ModelText, ErrorsSayWhereAndWhat) {
  expect_parse_error(parse_model, "<ir_version: 8, colour: 1> g () => () {}", 1, 17, "unknown model header key 'colour'");
  expect_parse_error(parse_model, "<ir_version: 8> g (flaot[2] x) => () {}", 1, 20, "unknown element type 'flaot'");
  expect_parse_error(parse_model, "<ir_version: 8> g (int4[2] x = {1, 8}) => () {}", 1, 36, "8 is out of the range of int4");
  expect_parse_error(parse_model, "<ir_version: 8> g (uint8[1] x = {-1}) => () {}", 1, 34, "out of the range of uint8");
  expect_parse_error(parse_model, "<ir_version: 8> g (int64[1] x = {1.5}) => () {}", 1, 34, "fractional element");
  expect_parse_error(parse_model, "<ir_version: 8> g (float[2] x = {1}) => () {}", 1, 20, "has 1 elements, its shape needs 2");
  expect_parse_error(parse_model, "<ir_version: 8> g (float[] x = {1}) => () {}", 1, 20, "needs a shape");
  expect_parse_error(parse_model, "<ir_version: 8> g (float[N] x = {1}) => () {}", 1, 20, "numeric dimensions");
  expect_parse_error(parse_model, "<ir_version: 8> g (float[2] x = [\"location\": \"w.bin\"]) => () {}", 1, 33, "external data");
  expect_parse_error(parse_model, "<ir_version: 8> g () => (float y = {1}) {}", 1, 26, "only allowed in a graph's inputs");
  expect_parse_error(parse_model, "<ir_version: 8> g () => () {\n  y = Relu(x)\n", 3, 1, "expected '}'");
}

TEST(ModelText, LoadModelReadsTextFilesAndReportsTheLine) {
  auto dir = std::filesystem::path(::testing::TempDir());
  std::ofstream(dir / "good.onnxtxt") << R"(<ir_version: 10, opset_import: ["" : 21], producer_name: "p">
g (float[2] x) => (float[2] y) { y = Relu(x) })";
  auto lm = load_model(dir / "good.onnxtxt");
  EXPECT_EQ(lm->ir.graph.nodes.at(0).op_type, "Relu");
  EXPECT_EQ(lm->proto.ir_version(), 10);  // the proto holds the header
  ASSERT_EQ(lm->proto.opset_import_size(), 1);
  EXPECT_EQ(lm->proto.opset_import(0).version(), 21);

  std::ofstream(dir / "bad.onnxtxt") << "<ir_version: 10>\ng (float[2] x) => (float[2] y) {\n  y = Relu(x\n}";
  try {
    load_model(dir / "bad.onnxtxt");
    ADD_FAILURE() << "accepted";
  } catch (const LoadError& e) {
    EXPECT_NE(std::string(e.what()).find("line 4, column 1"), std::string::npos) << e.what();
  }
  std::ofstream(dir / "no_ir.onnxtxt") << "g () => () {}";
  EXPECT_THROW(load_model(dir / "no_ir.onnxtxt"), LoadError);
  std::ofstream(dir / "huge.onnxtxt") << "<ir_version: 8> g (float[4000000000, 4000000000] x = {1}) => () {}";
  EXPECT_THROW(load_model(dir / "huge.onnxtxt"), LoadError);
}

}  // namespace
}  // namespace sonnx::text
