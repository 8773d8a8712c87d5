// The emit-c generator (emit/emit_model.cpp): what it decides for a whole model, read off the files
// it writes. The templates' arithmetic is checked by certify against the reference (tests/emit/).
#include <gtest/gtest.h>

#include <cstring>
#include <regex>
#include <string>

#include "emit/emit_model.h"
#include "reference/infer/infer_types.h"
#include "reference/model/text_syntax.h"
#include "emit_test_util.h"

namespace sonnx::emit {
namespace {

Model emitgen_model(const std::string& text) {
  Model m = text::parse_model(text);
  add_inferred_types(m);
  return m;
}

// The arena offset each node function's output is given, in call order ("&a[N]").
std::vector<int64_t> emitgen_arena_offsets(const std::string& c) {
  std::vector<int64_t> offsets;
  const std::regex call(R"(\(float\*\)\(void\*\)&a\[(\d+)\])");
  for (auto it = std::sregex_iterator(c.begin(), c.end(), call); it != std::sregex_iterator(); ++it)
    offsets.push_back(std::stoll((*it)[1]));
  return offsets;
}

// A chain x -> a -> b -> c -> y of [64] floats: a and c are never live together (a's last reader is
// b's node), so they share an offset; b overlaps both and lies apart. 3 buffers of 256 bytes fit
// in 512.
TEST(EmitModel, IntermediatesShareTheArenaWhereTheirLifetimesDoNotOverlap) {
  const Model m = emitgen_model(R"(<ir_version: 8, opset_import: ["" : 25]>
g (float[64] x) => (float[64] y) {
  a = Relu(x)
  b = Neg(a)
  c = Abs(b)
  y = Relu(c)
})");
  const EmitResult r = emit_model(m, {});
  const std::vector<int64_t> offsets = emitgen_arena_offsets(emit_test::file(r, "model.c"));
  ASSERT_EQ(offsets.size(), 3u);  // a, b, c written
  EXPECT_EQ(offsets[0], offsets[2]);
  EXPECT_NE(offsets[0], offsets[1]);
  EXPECT_EQ(r.arena_bytes, 512);
  EXPECT_NE(emit_test::file(r, "model.h").find("#define MODEL_ARENA_BYTES 512u"), std::string::npos);
  EXPECT_EQ(r.functions, 4u);
}

TEST(EmitModel, EachNodeFunctionNamesItsOperatorVersionAndRelation) {
  const Model m = emitgen_model(R"(<ir_version: 8, opset_import: ["" : 25]>
g (float[2,3] x, float[3] z) => (float[2,3] y) {
  y = Add(x, z)
})");
  const std::string c = emit_test::file(emit_model(m, {}), "model.c");
  EXPECT_NE(c.find("Add-14, relation spec/ops/ops.mlw Tensor.add"), std::string::npos) << c;
  EXPECT_NE(c.find("static void sonnx_node_0(const float* x0, const float* x1, float* y0)"), std::string::npos) << c;
}

TEST(EmitModel, AVersionWithoutATemplateIsRefusedByName) {
  const Model m = emitgen_model(R"(<ir_version: 8, opset_import: ["" : 25]>
g (float[4] x) => (float[4] y) {
  y = Selu(x)
})");
  try {
    emit_model(m, {});
    FAIL() << "emitted a node without a template";
  } catch (const EmitRefused& e) {
    EXPECT_NE(std::string(e.what()).find("no C template for Selu-22"), std::string::npos) << e.what();
  }
}

TEST(EmitModel, AValueWithoutAStaticShapeIsRefused) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 25]>
g (float[N] x) => (float[N] y) {
  y = Relu(x)
})");
  EXPECT_THROW(emit_model(m, {}), EmitRefused);
}

TEST(EmitModel, NamesBecomeDistinctCIdentifiers) {
  const Model m = emitgen_model(R"(<ir_version: 8, opset_import: ["" : 25]>
g (float[2] "a.b", float[2] a_b, float[2] "3d", float[2] "int") => (float[2] y, float[2] z) {
  s = Add("a.b", a_b)
  y = Add(s, "3d")
  z = Add(s, "int")
})");
  const std::string h = emit_test::file(emit_model(m, {}), "model.h");
  for (const char* field : {"const float* a_b;", "const float* a_b_2;", "const float* v_3d;", "const float* v_int;"})
    EXPECT_NE(h.find(field), std::string::npos) << field << "\n" << h;
  EXPECT_FALSE(is_c_identifier("3d"));
  EXPECT_FALSE(is_c_identifier("for"));
  EXPECT_FALSE(is_c_identifier("a-b"));
  EXPECT_TRUE(is_c_identifier("net_1"));
  EmitOptions bad;
  bad.name = "my model";
  EXPECT_THROW(emit_model(m, bad), EmitRefused);
}

// --weights file: "SONNXW1\0", the byte count little-endian, then each weight at its 64-aligned
// offset; the arena starts with them, and the intermediates come after.
TEST(EmitModel, TheWeightsFileHoldsEachWeightAtItsOffset) {
  const Model m = emitgen_model(R"(<ir_version: 8, opset_import: ["" : 25]>
g (float[3] x) => (float[3] y) <float[3] w = {1.5, -2, 0.25}, float[3] v = {4, 5, 6}> {
  a = Mul(x, w)
  y = Add(a, v)
})");
  EmitOptions o;
  o.weights = WeightsMode::File;
  o.name = "net";
  const EmitResult r = emit_model(m, o);
  const std::string& bytes = emit_test::file(r, "net.weights");
  EXPECT_EQ(r.weights_bytes, 128);
  ASSERT_EQ(bytes.size(), 16u + 128u);
  EXPECT_EQ(std::memcmp(bytes.data(), "SONNXW1\0", 8), 0);
  EXPECT_EQ(static_cast<unsigned char>(bytes[8]), 128);
  float w[3], v[3];
  std::memcpy(w, bytes.data() + 16, sizeof w);
  std::memcpy(v, bytes.data() + 16 + 64, sizeof v);
  EXPECT_EQ(w[0], 1.5f);
  EXPECT_EQ(w[1], -2.0f);
  EXPECT_EQ(v[2], 6.0f);
  const std::string c = emit_test::file(r, "net.c");
  EXPECT_NE(c.find("(const float*)(const void*)&a[64]"), std::string::npos) << c;  // v
  EXPECT_NE(c.find("(float*)(void*)&a[128]"), std::string::npos) << c;             // a, after the weights
  EXPECT_NE(emit_test::file(r, "net.h").find("int net_load_weights(void* arena, const char* path);"), std::string::npos);
  EXPECT_EQ(r.arena_bytes, 192);
}

// An output that is a constant is copied into the caller's buffer by PREFIX_run.
TEST(EmitModel, AConstantOutputIsCopiedIntoTheCallersBuffer) {
  const Model m = emitgen_model(R"(<ir_version: 8, opset_import: ["" : 25]>
g (float[2] x) => (float[2] y, float[2] k) <float[2] k = {7, 8}> {
  y = Relu(x)
})");
  const std::string c = emit_test::file(emit_model(m, {}), "model.c");
  EXPECT_NE(c.find("outputs->k[i] = from[i];"), std::string::npos) << c;
  EXPECT_NE(c.find("static const float sonnx_w0[2] = {"), std::string::npos) << c;
}

}  // namespace
}  // namespace sonnx::emit
