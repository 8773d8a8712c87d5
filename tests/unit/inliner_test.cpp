// Function inlining (reference/interp/inliner, spec/functions.md): nested model-local functions
// with attribute references flatten completely, and the flat model computes what the calls compute.
#include <gtest/gtest.h>

#include "optimized/exec/make_executor.h"
#include "reference/interp/inliner.h"
#include "reference/interp/interpreter.h"
#include "reference/ops/registry.h"

namespace sonnx {
namespace {

Node make_node(const std::string& op, const std::string& domain, std::vector<std::string> in, std::vector<std::string> out,
               std::vector<Attribute> attrs = {}) {
  Node n;
  n.op_type = op;
  n.domain = domain;
  n.name = out[0] + "_by_" + op;
  n.inputs = std::move(in);
  n.outputs = std::move(out);
  n.attributes = std::move(attrs);
  return n;
}

Attribute float_attr(const std::string& name, float v, const std::string& ref = "") {
  Attribute a;
  a.name = name;
  a.type = Attribute::Type::Float;
  a.f = v;
  a.ref_attr_name = ref;
  return a;
}

// G(X; alpha) = LeakyRelu(X, alpha);  F(X) = G(X; 0.3) * X;  main: A = F(X), Y = A + G(A; 0.1).
Model nested_functions_model() {
  Model m;
  m.ir_version = 8;
  m.opset_imports = {{"", 13}, {"local", 1}};
  Function g;
  g.name = "G";
  g.domain = "local";
  g.inputs = {"x"};
  g.outputs = {"y"};
  g.attributes = {"alpha"};
  g.nodes = {make_node("LeakyRelu", "", {"x"}, {"y"}, {float_attr("alpha", 0, "alpha")})};
  g.opset_imports = {{"", 13}};
  Function f;
  f.name = "F";
  f.domain = "local";
  f.inputs = {"x"};
  f.outputs = {"y"};
  f.nodes = {make_node("G", "local", {"x"}, {"t"}, {float_attr("alpha", 0.3f)}), make_node("Mul", "", {"t", "x"}, {"y"})};
  f.opset_imports = {{"", 13}, {"local", 1}};
  m.functions = {g, f};
  TypeInfo t;
  t.kind = TypeInfo::Kind::Tensor;
  t.elem = DType::Float;
  t.shape = std::vector<Dim>{Dim{6, ""}};
  m.graph.path = "main";
  m.graph.inputs = {{"X", t}};
  m.graph.outputs = {{"Y", t}};
  m.graph.nodes = {make_node("F", "local", {"X"}, {"A"}), make_node("G", "local", {"A"}, {"B"}, {float_attr("alpha", 0.1f)}),
                   make_node("Add", "", {"A", "B"}, {"Y"})};
  for (size_t i = 0; i < m.graph.nodes.size(); ++i) m.graph.nodes[i].index = i;
  return m;
}

TEST(Inliner, FlattensNestedLocalFunctionsCompletely) {
  Model flat = inline_model(nested_functions_model());
  EXPECT_TRUE(flat.functions.empty());
  ASSERT_EQ(flat.graph.nodes.size(), 4u);  // LeakyRelu, Mul (from F), LeakyRelu (from G), Add
  for (const auto& n : flat.graph.nodes) {
    EXPECT_EQ(n.domain, "") << n.op_type;
    EXPECT_NE(OpRegistry::instance().find(n.domain, n.op_type, 13), nullptr) << n.op_type;
    for (const auto& a : n.attributes) EXPECT_TRUE(a.ref_attr_name.empty()) << "unresolved reference in " << n.op_type;
  }
}

TEST(Inliner, InlinedModelComputesWhatTheCallsCompute) {
  Model m = nested_functions_model();
  NamedValues in;
  in["X"] = Value(Tensor::from_vector<float>({6}, {-3, -1, -0.5f, 0, 2, 5}));
  NamedValues want = Interpreter(m).run(in);
  // By hand: A = leaky(x, .3) * x; Y = A + leaky(A, .1).
  const float* y = want.at("Y").tensor.data<float>();
  float xs[6] = {-3, -1, -0.5f, 0, 2, 5};
  for (int i = 0; i < 6; ++i) {
    float a = (xs[i] < 0 ? 0.3f * xs[i] : xs[i]) * xs[i];
    EXPECT_FLOAT_EQ(y[i], a + (a < 0 ? 0.1f * a : a)) << i;
  }
  EXPECT_TRUE(Interpreter(inline_model(m)).run(in) == want);
  EXPECT_TRUE(make_executor(m, "linear")->run(in) == want);
}

}  // namespace
}  // namespace sonnx
