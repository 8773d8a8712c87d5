// Localization inside control flow: the nodes of the If branch taken and of each Loop iteration are
// judged alone, by the fuzzer (fed the reference's values) and by certify (fed the backend's own).
// The backend under test computes Sigmoid wrongly (+0.25) when its input reaches 0.6, so which
// node and which iteration is blamed follows from the values worked out in the comments.
#include <gtest/gtest.h>

#include <cmath>

#include "conformance/certify/localize.h"
#include "conformance/certify/target.h"
#include "conformance/fuzz/target_check.h"
#include "reference/interp/interpreter.h"
#include "reference/model/text_syntax.h"

namespace sonnx {
namespace {

// The reference, except that a Sigmoid model (the node alone, as localization runs it) gives
// sigmoid(x) + 0.25 wherever x >= 0.6.
class WrongSigmoidTarget : public CertTarget {
 public:
  std::string name() const override { return "wrong_sigmoid"; }
  std::string version() const override { return "1"; }
  bool enforces_timeout() const override { return true; }
  bool runs_in_process() const override { return true; }
  TargetResult run(const Model& model, const TestCase&, const std::filesystem::path&, const NamedValues& inputs) override {
    TargetResult r;
    r.outputs = Interpreter(model).run(inputs);
    const Graph& g = model.graph;
    if (g.nodes.size() == 1 && g.nodes[0].op_type == "Sigmoid") {
      const Tensor& x = inputs.at(g.nodes[0].inputs[0]).tensor;
      Tensor& y = r.outputs.at(g.nodes[0].outputs[0]).tensor;
      for (int64_t i = 0; i < x.size(); ++i)
        if (x.data<float>()[i] >= 0.6f) y.data<float>()[i] += 0.25f;
    }
    return r;
  }
};

float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

// If (c) then t = Sigmoid(X) else e = Relu(X), followed by Neg at the top level.
const char* const kIf = R"(<ir_version: 8, opset_import: ["" : 17]>
g (bool c, float[2] X) => (float[2] Z) {
  [choose] Y = If (c) <then_branch = t () => (float[2] t) { [s_then] t = Sigmoid (X) }, else_branch = e () => (float[2] e) { [r_else] e = Relu (X) }>
  [neg] Z = Neg (Y)
})";

// v' = Sigmoid(v), three times from v = 0: the inputs are 0, 0.5 and sigmoid(0.5) = 0.6225, so
// only the third iteration's Sigmoid is wrong.
const char* const kLoop = R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[1] X) => (float[1] V) <int64 M = {3}, bool t = {1}> {
  [loop] V = Loop (M, t, X) <body = body (int64 i, bool c, float[1] v) => (bool k, float[1] w) {
    [keep] k = Identity (c)
    [s_body] w = Sigmoid (v)
  }>
})";

NamedValues if_inputs(bool c) {
  return {{"c", Value(Tensor::scalar<bool>(c))}, {"X", Value(Tensor::from_vector<float>({2}, {0.7f, -1.0f}))}};
}

TEST(LocalizeControlFlow, TheFuzzerBlamesTheNodeOfTheBranchTaken) {
  WrongSigmoidTarget wrong;
  TargetStage stage(wrong);
  Model m = text::parse_model(kIf);
  auto f = fuzz::first_failing_node(stage, m, if_inputs(true));
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->node.name, "s_then");
  EXPECT_EQ(f->verdict.deviation, "outside-enclosure");
  ASSERT_EQ(f->model.graph.nodes.size(), 1u);  // the repro: the branch's node alone, X its input
  EXPECT_TRUE(f->inputs.at("X").tensor == Tensor::from_vector<float>({2}, {0.7f, -1.0f}));
  // The else branch (Relu) is the one that runs: nothing fails, the Sigmoid is never judged.
  EXPECT_FALSE(fuzz::first_failing_node(stage, m, if_inputs(false)).has_value());
}

TEST(LocalizeControlFlow, TheFuzzerBlamesTheIterationThatFails) {
  WrongSigmoidTarget wrong;
  TargetStage stage(wrong);
  auto f = fuzz::first_failing_node(stage, text::parse_model(kLoop), {{"X", Value(Tensor::from_vector<float>({1}, {0}))}});
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->node.name, "s_body");
  EXPECT_NEAR(f->inputs.at("v").tensor.data<float>()[0], sigmoid(0.5f), 1e-6);  // the third iteration's v
}

TEST(LocalizeControlFlow, CertifyBlamesTheBodyNodeOnTheBackendsOwnValues) {
  WrongSigmoidTarget wrong;
  TargetStage stage(wrong);
  Localization l = localize_error(text::parse_model(kIf), stage, if_inputs(true));
  EXPECT_EQ(l.op_type, "Sigmoid") << l.sentence;
  EXPECT_NE(l.sentence.find("node s_then (Sigmoid) introduces the error"), std::string::npos) << l.sentence;
  ASSERT_TRUE(l.node.has_value());
  EXPECT_NEAR(l.node->backend.at("t").tensor.data<float>()[0], sigmoid(0.7f) + 0.25f, 1e-6);

  // The loop from v = 0.7: every iteration's Sigmoid is wrong, and the first is blamed, on its
  // first input. From v = 0 the backend's values are right until the third iteration.
  l = localize_error(text::parse_model(kLoop), stage, {{"X", Value(Tensor::from_vector<float>({1}, {0.7f}))}});
  ASSERT_TRUE(l.node.has_value()) << l.sentence;
  EXPECT_EQ(l.node->inputs.at("v").tensor.data<float>()[0], 0.7f);
  EXPECT_NE(l.sentence.find("the node before it stays within its enclosure"), std::string::npos) << l.sentence;
  l = localize_error(text::parse_model(kLoop), stage, {{"X", Value(Tensor::from_vector<float>({1}, {0}))}});
  ASSERT_TRUE(l.node.has_value()) << l.sentence;
  EXPECT_NEAR(l.node->inputs.at("v").tensor.data<float>()[0], sigmoid(0.5f), 1e-6);
  EXPECT_NE(l.sentence.find("the 5 nodes before it stay within their enclosures"), std::string::npos) << l.sentence;
}

TEST(LocalizeControlFlow, ARightBackendIsNotBlamed) {
  WrongSigmoidTarget wrong;
  TargetStage stage(wrong);
  Localization l = localize_error(text::parse_model(kIf), stage, if_inputs(false));
  EXPECT_FALSE(l.node.has_value());
  EXPECT_EQ(l.sentence, "not localized: every node's output lies within its enclosure on the backend's own inputs");
}

}  // namespace
}  // namespace sonnx
