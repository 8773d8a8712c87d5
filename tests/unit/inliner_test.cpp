// Function inlining (reference/interp/inliner, spec/functions.md): nested model-local functions
// with attribute references flatten completely, and the flat model computes what the calls compute.
#include <gtest/gtest.h>

#include <set>

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
    EXPECT_NE(OpRecords::instance().kernel(n.domain, n.op_type, 13), nullptr) << n.op_type;
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

TypeInfo float_type(int64_t n) {
  TypeInfo t;
  t.kind = TypeInfo::Kind::Tensor;
  t.elem = DType::Float;
  t.shape = std::vector<Dim>{Dim{n, ""}};
  return t;
}

TEST(Inliner, FreshPrefixAvoidsEveryTakenName) {
  std::set<std::string> taken{"__inl0_a", "__inl1_", "__inl3", "x"};
  int counter = 0;
  EXPECT_EQ(fresh_prefix("__inl", counter, taken), "__inl2_");  // 0 and 1 begin taken names
  EXPECT_EQ(counter, 3);
  EXPECT_EQ(fresh_prefix("__inl", counter, taken), "__inl3_");  // "__inl3" does not begin with "__inl3_"
}

// F(c, x) = If c then (u = Neg x) else (w = Relu x), then y = Relu(branch result). The main graph
// already holds the names expansion would make ("__inl0_t", "__call0_t", and in a nested subgraph
// "__inl1_t"), and a name "u" that F's subgraph defines.
Model colliding_model() {
  Model m;
  m.ir_version = 8;
  m.opset_imports = {{"", 13}, {"local", 1}};
  auto branch = [](const std::string& op, const std::string& out) {
    auto g = std::make_shared<Graph>();
    g->nodes = {make_node(op, "", {"x"}, {out})};
    g->outputs = {{out, {}}};
    g->path = "branch";
    return g;
  };
  Attribute then_b, else_b;
  then_b.name = "then_branch";
  then_b.type = Attribute::Type::Graph;
  then_b.g = branch("Neg", "u");
  else_b.name = "else_branch";
  else_b.type = Attribute::Type::Graph;
  else_b.g = branch("Relu", "w");
  Function f;
  f.name = "F";
  f.domain = "local";
  f.inputs = {"c", "x"};
  f.outputs = {"y"};
  f.nodes = {make_node("If", "", {"c"}, {"t"}, {then_b, else_b}), make_node("Relu", "", {"t"}, {"y"})};
  f.opset_imports = {{"", 13}};
  m.functions = {f};
  // Main: Z1 = Abs(X) named "__inl0_t"; Z2 = Abs(X) named "__call0_t"; u = Neg(X); an If whose
  // branches define "__inl1_t"; A = F(C, X); Y = A + __inl0_t + __call0_t + u + the If's result.
  TypeInfo b;
  b.kind = TypeInfo::Kind::Tensor;
  b.elem = DType::Bool;
  b.shape = std::vector<Dim>{};
  m.graph.path = "main";
  m.graph.inputs = {{"X", float_type(2)}, {"C", b}};
  m.graph.outputs = {{"Y", float_type(2)}};
  Attribute then2 = then_b, else2 = else_b;
  then2.g = std::make_shared<Graph>();
  then2.g->nodes = {make_node("Abs", "", {"X"}, {"__inl1_t"})};
  then2.g->outputs = {{"__inl1_t", {}}};
  then2.g->path = "main/if:then_branch";
  else2.g = std::make_shared<Graph>();
  else2.g->nodes = {make_node("Neg", "", {"X"}, {"__inl1_e"})};
  else2.g->outputs = {{"__inl1_e", {}}};
  else2.g->path = "main/if:else_branch";
  m.graph.nodes = {make_node("Abs", "", {"X"}, {"__inl0_t"}),
                   make_node("Abs", "", {"X"}, {"__call0_t"}),
                   make_node("Neg", "", {"X"}, {"u"}),
                   make_node("If", "", {"C"}, {"I"}, {then2, else2}),
                   make_node("F", "local", {"C", "X"}, {"A"}),
                   make_node("Add", "", {"A", "__inl0_t"}, {"S1"}),
                   make_node("Add", "", {"S1", "__call0_t"}, {"S2"}),
                   make_node("Add", "", {"S2", "u"}, {"S3"}),
                   make_node("Add", "", {"S3", "I"}, {"Y"})};
  for (size_t i = 0; i < m.graph.nodes.size(); ++i) m.graph.nodes[i].index = i;
  return m;
}

// The names a graph assigns at its own level (inputs, initializers, node outputs).
void expect_ssa_everywhere(const Graph& g, std::set<std::string> outer) {
  std::set<std::string> own;
  for (const auto& v : g.inputs) EXPECT_TRUE(own.insert(v.name).second) << v.name;
  for (const auto& n : g.nodes)
    for (const auto& o : n.outputs) {
      EXPECT_TRUE(own.insert(o).second) << "'" << o << "' assigned twice in " << g.path;
      EXPECT_FALSE(outer.count(o)) << "'" << o << "' in " << g.path << " shadows an enclosing name";
    }
  outer.insert(own.begin(), own.end());
  for (const auto& n : g.nodes)
    for (const auto& a : n.attributes)
      if (a.g) expect_ssa_everywhere(*a.g, outer);
}

// The flat model is where a collision shows: a name assigned twice, or a subgraph name shadowing
// an enclosing one. (The interpreter and type inference expand a call into a child scope and run
// its body in topological order, where a collision with an outer name stays latent; they take fresh
// prefixes all the same.)
TEST(Inliner, ExpandedNamesCollideWithNoNameOfTheModel) {
  Model m = colliding_model();
  Model flat = inline_model(m);
  expect_ssa_everywhere(flat.graph, {});
  // X = [1, -2], C = true: F gives Relu(Neg X) = [0, 2]; |X| = [1, 2] twice; u = [-1, 2]; I = |X|.
  NamedValues in;
  in["X"] = Value(Tensor::from_vector<float>({2}, {1, -2}));
  in["C"] = Value(Tensor::from_vector<bool>({}, {true}));
  for (const Model* model : {&m, &flat}) {
    NamedValues out = Interpreter(*model).run(in);
    const float* y = out.at("Y").tensor.data<float>();
    EXPECT_FLOAT_EQ(y[0], 0 + 1 + 1 - 1 + 1);
    EXPECT_FLOAT_EQ(y[1], 2 + 2 + 2 + 2 + 2);
  }
}

}  // namespace
}  // namespace sonnx
