// ai.onnx.preview FlexAttention-1: a hand-computed case; without modifiers against the Attention
// kernel and against Transpose/MatMul/Mul/Softmax/MatMul; score_mod and prob_mod subgraphs
// (a causal mask, a soft cap, a bias read from the enclosing graph, a scaling) against what the
// Attention kernel computes with the same mask or softcap; the softmax_precision type the
// modifiers see; errors; the shape rule.
#include <cmath>

#include "tests/unit/infer_text_util.h"
#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

const std::string kPreview = "ai.onnx.preview";

std::vector<float> flex_wavy(size_t n, float phase) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(0.9f * static_cast<float>(i) + phase);
  return v;
}

// Runs FlexAttention(Q, K, V) with `attrs` in a model importing ai.onnx 27 (for the modifier
// graphs) and ai.onnx.preview 1; `extra` are further graph inputs the modifiers may read.
Value flex(const std::vector<Value>& qkv, const std::vector<onnx::AttributeProto>& attrs = {}, const NamedValues& extra = {}) {
  NamedValues feed{{"Q", qkv[0]}, {"K", qkv[1]}, {"V", qkv[2]}};
  std::vector<onnx::ValueInfoProto> inputs{vi("Q"), vi("K"), vi("V")};
  for (const auto& [name, v] : extra) {
    feed[name] = v;
    inputs.push_back(vi(name));
  }
  onnx::NodeProto n = node("FlexAttention", {"Q", "K", "V"}, {"Y"}, attrs, kPreview);
  n.set_name("flex");
  return run_graph(graph("t", {n}, inputs, {vi("Y")}), {{"", 27}, {kPreview, 1}}, feed)["Y"];
}

// A modifier graph (x) -> (y) of the given nodes, x and y of element type `elem`.
onnx::AttributeProto modifier(const std::string& attr, const std::vector<onnx::NodeProto>& nodes, DType elem = DType::Float) {
  return attr_graph(attr, graph(attr + "_graph", nodes, {vi("x", elem)}, {vi("y", elem)}));
}

onnx::NodeProto constant(const std::string& name, const Tensor& t) {
  return node("Constant", {}, {name}, {attr_tensor("value", t)});
}

struct Qkv {
  Value q, k, v;
};

// B = 2, Hq = 4, Hkv = 2 (grouped), L = 3, S = 4, E = 3, Ev = 2; or Hq = Hkv = `heads`.
Qkv make_qkv(int64_t hq = 4, int64_t hkv = 2, int64_t len = 3, int64_t kv_len = 4) {
  return {tensor<float>({2, hq, len, 3}, flex_wavy(static_cast<size_t>(2 * hq * len * 3), 0.2f)),
          tensor<float>({2, hkv, kv_len, 3}, flex_wavy(static_cast<size_t>(2 * hkv * kv_len * 3), 1.4f)),
          tensor<float>({2, hkv, kv_len, 2}, flex_wavy(static_cast<size_t>(2 * hkv * kv_len * 2), 2.6f))};
}

// Q = 0: every score is 0, the probabilities uniform, each output row the mean of V's rows.
TEST(FlexAttentionOp, EqualScoresAverageTheValues) {
  auto y = flex({tensor<float>({1, 1, 2, 1}, {0, 0}), tensor<float>({1, 1, 3, 1}, {1, 2, 3}),
                 tensor<float>({1, 1, 3, 2}, {1, 2, 3, 4, 8, 9})});
  EXPECT_EQ(y.tensor.shape(), (Shape{1, 1, 2, 2}));
  expect_floats_near(y, {4, 5, 4, 5});
}

TEST(FlexAttentionOp, WithoutModifiersEqualsTheAttentionKernel) {
  Qkv a = make_qkv();
  expect_floats_near(flex({a.q, a.k, a.v}), values_of<float>(run1("Attention", 23, {a.q, a.k, a.v})));
  expect_floats_near(flex({a.q, a.k, a.v}, {attr_float("scale", 0.3f)}),
                     values_of<float>(run1("Attention", 23, {a.q, a.k, a.v}, {attr_float("scale", 0.3f)})));
}

// softmax(Q · Kᵀ · scale) · V as a graph of existing kernels.
TEST(FlexAttentionOp, WithoutModifiersEqualsMatMulSoftmaxGraph) {
  Qkv a = make_qkv(2, 2);
  float scale = 1 / std::sqrt(3.0f);
  auto g = graph("sdpa",
                 {node("Transpose", {"K"}, {"Kt"}, {attr_ints("perm", {0, 1, 3, 2})}), node("MatMul", {"Q", "Kt"}, {"QK"}),
                  constant("c", Tensor::scalar<float>(scale)), node("Mul", {"QK", "c"}, {"S"}),
                  node("Softmax", {"S"}, {"P"}, {attr_int("axis", -1)}), node("MatMul", {"P", "V"}, {"Y"})},
                 {vi("Q"), vi("K"), vi("V")}, {vi("Y")});
  Value want = run_graph(g, {{"", 13}}, {{"Q", a.q}, {"K", a.k}, {"V", a.v}})["Y"];
  expect_floats_near(flex({a.q, a.k, a.v}), values_of<float>(want));
}

// score_mod adding 0 on and below the diagonal and -inf above it is Attention's is_causal.
TEST(FlexAttentionOp, ScoreModCausalMaskEqualsCausalAttention) {
  Qkv a = make_qkv(4, 2, 3, 3);
  std::vector<float> mask;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) mask.push_back(j > i ? -kInf : 0.0f);
  auto mod = modifier("score_mod",
                      {constant("m", Tensor::from_vector<float>({1, 1, 3, 3}, mask)), node("Add", {"x", "m"}, {"y"})});
  expect_floats_near(flex({a.q, a.k, a.v}, {mod}),
                     values_of<float>(run1("Attention", 23, {a.q, a.k, a.v}, {attr_int("is_causal", 1)})));
}

// softcap · tanh(s / softcap) as a score_mod is Attention's softcap.
TEST(FlexAttentionOp, ScoreModSoftCapEqualsAttentionSoftcap) {
  Qkv a = make_qkv();
  auto mod = modifier("score_mod", {constant("c", Tensor::scalar<float>(0.5f)), node("Div", {"x", "c"}, {"d"}),
                                    node("Tanh", {"d"}, {"t"}), node("Mul", {"t", "c"}, {"y"})});
  expect_floats_near(flex({a.q, a.k, a.v}, {mod}),
                     values_of<float>(run1("Attention", 23, {a.q, a.k, a.v}, {attr_float("softcap", 0.5f)})));
}

// The modifier reads a value of the enclosing graph: an additive bias, as Attention's attn_mask.
TEST(FlexAttentionOp, ScoreModReadsTheEnclosingScope) {
  Qkv a = make_qkv();
  auto bias = tensor<float>({3, 4}, flex_wavy(12, 0.7f));
  auto mod = modifier("score_mod", {node("Add", {"x", "bias"}, {"y"})});
  expect_floats_near(flex({a.q, a.k, a.v}, {mod}, {{"bias", bias}}),
                     values_of<float>(run1("Attention", 23, {a.q, a.k, a.v, bias})));
}

// Probabilities halved: the output halves.
TEST(FlexAttentionOp, ProbModScalesTheOutput) {
  Qkv a = make_qkv();
  auto mod = modifier("prob_mod", {constant("h", Tensor::scalar<float>(0.5f)), node("Mul", {"x", "h"}, {"y"})});
  std::vector<float> want = values_of<float>(flex({a.q, a.k, a.v}));
  for (float& w : want) w *= 0.5f;
  expect_floats_near(flex({a.q, a.k, a.v}, {mod}), want);
}

// float16 inputs: the modifiers see float tensors (the default softmax_precision), and Y is
// float16. Double inputs: double tensors. softmax_precision = 11 asks for double explicitly.
TEST(FlexAttentionOp, ModifiersSeeTheSoftmaxPrecisionType) {
  auto h = [](const Value& v) { return retyped<float16_t>(v); };
  Qkv a = make_qkv();
  auto fmod = modifier("score_mod", {constant("c", Tensor::scalar<float>(0)), node("Add", {"x", "c"}, {"y"})});
  Value y16 = flex({h(a.q), h(a.k), h(a.v)}, {fmod});
  ASSERT_EQ(y16.tensor.dtype(), DType::Float16);
  auto floats = [](const Value& v) { return floats_of<float16_t>(v); };
  expect_near(floats(y16), floats(flex({h(a.q), h(a.k), h(a.v)})), 0);  // adding 0 changes nothing
  expect_near(floats(y16), values_of<float>(flex({a.q, a.k, a.v})), 2e-3f);

  auto dmod = modifier("score_mod",
                       {constant("c", Tensor::scalar<float>(0)), node("Cast", {"c"}, {"cd"}, {attr_int("to", 11)}),
                        node("Add", {"x", "cd"}, {"y"})},
                       DType::Double);
  expect_trap([&] { flex({a.q, a.k, a.v}, {dmod}); });  // float scores + double constant
  Value yd = flex({a.q, a.k, a.v}, {dmod, attr_int("softmax_precision", 11)});
  EXPECT_EQ(yd.tensor.dtype(), DType::Float);
  expect_floats_near(yd, values_of<float>(flex({a.q, a.k, a.v})));
}

// double and bfloat16 inputs: Y of the input type, the float computation within its precision.
TEST(FlexAttentionOp, DoubleAndBFloat16) {
  Qkv a = make_qkv();
  Value yd = flex({retyped<double>(a.q), retyped<double>(a.k), retyped<double>(a.v)});
  ASSERT_EQ(yd.tensor.dtype(), DType::Double);
  std::vector<float> want = values_of<float>(flex({a.q, a.k, a.v}));
  expect_near(floats_of<double>(yd), want, 1e-6f);
  Value yb = flex({retyped<bfloat16_t>(a.q), retyped<bfloat16_t>(a.k), retyped<bfloat16_t>(a.v)});
  ASSERT_EQ(yb.tensor.dtype(), DType::BFloat16);
  expect_near(floats_of<bfloat16_t>(yb), want, 2e-2f);
}

TEST(FlexAttentionOp, RejectsBadModifiersAndShapes) {
  Qkv a = make_qkv();
  auto wrong_type = modifier("score_mod", {node("Cast", {"x"}, {"y"}, {attr_int("to", 11)})});
  expect_trap([&] { flex({a.q, a.k, a.v}, {wrong_type}); }, "score_mod must return");
  auto wrong_shape = modifier("prob_mod", {node("ReduceSum", {"x"}, {"y"}, {attr_int("keepdims", 1)})});
  expect_trap([&] { flex({a.q, a.k, a.v}, {wrong_shape}); }, "prob_mod must return");
  Qkv three = make_qkv(3, 2);
  expect_trap([&] { flex({three.q, three.k, three.v}); }, "multiple");
  expect_trap([&] { flex({a.q, a.k, tensor<float>({2, 2, 3, 2}, iota_f(24))}); }, "inconsistent");
  expect_trap([&] { flex({a.q, a.k, a.v}, {attr_int("softmax_precision", 7)}); }, "softmax_precision");
}

TEST(FlexAttentionOp, ShapeRuleInfersTheModifiers) {
  InferenceResult r = infer_text(R"(<ir_version: 10, opset_import: ["" : 27, "ai.onnx.preview" : 1]>
g (float16[B,8,L,64] Q, float16[B,2,S,64] K, float16[B,2,S,32] V) => (float16 Y) {
  Y = ai.onnx.preview.FlexAttention(Q, K, V) <
    score_mod = m (float[B,8,L,S] x) => (float y) { y = Neg(x) }
  >
})");
  EXPECT_TRUE(r.errors.empty()) << dump_inference(r);
  EXPECT_EQ(inferred(r, "Y"), "tensor(float16)[B,8,L,32]");
  bool seen = false;
  for (const auto& [path, values] : r.subgraph_types)
    if (auto it = values.find("y"); it != values.end()) {
      EXPECT_EQ(it->second.str(), "tensor(float)[B,8,L,S]") << path;
      seen = true;
    }
  EXPECT_TRUE(seen) << dump_inference(r);
  InferenceResult bad = infer_text(R"(<ir_version: 10, opset_import: ["" : 27, "ai.onnx.preview" : 1]>
g (float[1,1,2,4] Q, float[1,1,2,4] K, float[1,1,2,4] V) => (float Y) {
  Y = ai.onnx.preview.FlexAttention(Q, K, V) <
    prob_mod = m (float[1,1,2,2] x) => (double y) { y = Cast<to = 11>(x) }
  >
})");
  EXPECT_FALSE(bad.errors.empty()) << dump_inference(bad);
  InferenceResult sizes = infer_text(R"(<ir_version: 10, opset_import: ["" : 27, "ai.onnx.preview" : 1]>
g (float[1,3,2,4] Q, float[1,2,2,5] K, float[1,2,2,4] V) => (float Y) {
  Y = ai.onnx.preview.FlexAttention(Q, K, V)
})");
  EXPECT_NE(dump_inference(sizes).find("head size"), std::string::npos) << dump_inference(sizes);  // 4 and 5
}

}  // namespace
}  // namespace sonnx::testing
