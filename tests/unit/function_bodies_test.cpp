// sonnx's function bodies (spec/functions/, reference/functions/function_bodies): every file parses
// and names an operator version of the catalogue, the function-defined versions have one, guards
// pick the right nodes, `$elem_type` takes the call's type, and bodies compute what the operator
// means (expected values computed here from the formulas, not from the code).
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "op_test_util.h"
#include "reference/functions/function_bodies.h"
#include "reference/ops/op_table.h"

namespace sonnx {
namespace {

using functions::find_body;

// Runs the tests' operators through their bodies, and restores the default afterwards.
struct PreferBodies {
  PreferBodies() { set_prefer_function_bodies(true); }
  ~PreferBodies() { set_prefer_function_bodies(false); }
};

TEST(FunctionBodies, EveryFileParsesAndNamesAnOperatorVersion) {
  ASSERT_FALSE(functions::all_bodies().empty());
  for (const auto& b : functions::all_bodies()) {
    EXPECT_NE(catalogue::exact(b.domain, b.op, b.version), nullptr) << b.file << " names no catalogue version";
    for (const auto& a : b.alternatives) {
      EXPECT_EQ(a.fn.name, b.op) << b.file << " line " << a.line;
      EXPECT_FALSE(a.fn.opset_imports.empty()) << b.file << ": a body states the opsets it is written against";
    }
  }
}

// The versions the catalogue marks as defined by a function that have no body of ours yet: each
// still runs by its kernel. The list must shrink, never hide a body that exists.
const std::set<std::string> kWithoutBody = {
    "CausalConvWithState-27", "LinearAttention-27", "ai.onnx.preview.FlexAttention-1",  // kernels pending elsewhere
    "SequenceMap-17"};

TEST(FunctionBodies, EveryFunctionDefinedVersionHasOne) {
  int defined = 0;
  for (const auto& s : catalogue::all()) {
    if (!s.function) continue;
    ++defined;
    bool has = find_body(s.domain, s.name, s.version) != nullptr;
    if (kWithoutBody.count(s.id()))
      EXPECT_FALSE(has) << s.id() << " has a body now: take it off kWithoutBody";
    else
      EXPECT_TRUE(has) << s.id() << " is defined by a function and has no body in spec/functions/";
  }
  EXPECT_EQ(defined, 46);
}

std::vector<std::string> op_types_of_body(const std::string& op, int64_t version, const Node& call,
                                          const std::vector<TypeInfo>& types = {}) {
  const auto* body = find_body("", op, version);
  if (!body) throw std::runtime_error("no body " + op);
  const auto* schema = catalogue::exact("", op, version);
  const auto* alt = functions::select_alternative(*body, call, schema);
  if (!alt) throw std::runtime_error("no alternative");
  Function fn;
  std::string why;
  if (!functions::instantiate(*alt, call, schema, types, fn, why)) throw std::runtime_error(why);
  std::vector<std::string> ops;
  for (const auto& n : fn.nodes) ops.push_back(n.op_type);
  return ops;
}

Node call(const std::string& op, std::vector<std::string> inputs, std::vector<Attribute> attrs = {}) {
  Node n;
  n.op_type = op;
  n.inputs = std::move(inputs);
  n.outputs = {"y"};
  n.attributes = std::move(attrs);
  return n;
}

Attribute string_attr(const std::string& name, const std::string& v) {
  Attribute a;
  a.name = name;
  a.type = Attribute::Type::String;
  a.s = v;
  return a;
}

TEST(FunctionBodies, GuardsSelectByInputPresence) {
  using V = std::vector<std::string>;
  EXPECT_EQ(op_types_of_body("Clip", 13, call("Clip", {"x", "lo", "hi"})), (V{"Max", "Min"}));
  EXPECT_EQ(op_types_of_body("Clip", 13, call("Clip", {"x", "lo"})), (V{"Max"}));
  EXPECT_EQ(op_types_of_body("Clip", 13, call("Clip", {"x", "", "hi"})), (V{"Min"}));
  EXPECT_EQ(op_types_of_body("Clip", 13, call("Clip", {"x"})), (V{"Identity"}));
}

TEST(FunctionBodies, GuardsSelectByAttributeValueOrSchemaDefault) {
  auto has = [](const std::vector<std::string>& ops, const std::string& op) {
    return std::find(ops.begin(), ops.end(), op) != ops.end();
  };
  // Gelu's approximate defaults to "none" in the schema: erf, not tanh.
  auto gelu = op_types_of_body("Gelu", 20, call("Gelu", {"x"}));
  EXPECT_TRUE(has(gelu, "Erf"));
  EXPECT_FALSE(has(gelu, "Tanh"));
  auto gelu_tanh = op_types_of_body("Gelu", 20, call("Gelu", {"x"}, {string_attr("approximate", "tanh")}));
  EXPECT_TRUE(has(gelu_tanh, "Tanh"));
  EXPECT_FALSE(has(gelu_tanh, "Erf"));
  // NegativeLogLikelihoodLoss: reduction "mean" by default divides by the summed weights.
  auto mean = op_types_of_body("NegativeLogLikelihoodLoss", 22, call("NegativeLogLikelihoodLoss", {"x", "t"}));
  EXPECT_TRUE(has(mean, "Div"));
  EXPECT_FALSE(has(mean, "Gather"));  // no weight input
  auto none = op_types_of_body("NegativeLogLikelihoodLoss", 22,
                               call("NegativeLogLikelihoodLoss", {"x", "t", "w"}, {string_attr("reduction", "none")}));
  EXPECT_FALSE(has(none, "ReduceSum"));
  EXPECT_TRUE(has(none, "Gather"));
}

TEST(FunctionBodies, ElementTypeOfAnInputIsSubstituted) {
  const auto* body = find_body("", "CastLike", 15);
  ASSERT_NE(body, nullptr);
  EXPECT_TRUE(body->uses_input_types);
  Node c = call("CastLike", {"x", "like"});
  const auto* alt = functions::select_alternative(*body, c, nullptr);
  ASSERT_NE(alt, nullptr);
  TypeInfo f, i64;
  f.kind = i64.kind = TypeInfo::Kind::Tensor;
  f.elem = DType::Float;
  i64.elem = DType::Int64;
  Function fn;
  std::string why;
  ASSERT_TRUE(functions::instantiate(*alt, c, nullptr, {f, i64}, fn, why)) << why;
  const Attribute* to = fn.nodes.at(0).attr("to");
  ASSERT_NE(to, nullptr);
  EXPECT_TRUE(to->ref_attr_name.empty());
  EXPECT_EQ(to->i, static_cast<int64_t>(DType::Int64));
  EXPECT_FALSE(functions::instantiate(*alt, c, nullptr, {f, TypeInfo{}}, fn, why));
  EXPECT_NE(why.find("element type of input 'target_type'"), std::string::npos) << why;
  EXPECT_FALSE(find_body("", "Softmax", 13)->uses_input_types);
}

TEST(FunctionBodies, PreferringBodiesDropsTheKernelOnlyWhereABodyExists) {
  PreferBodies prefer;
  Model m;
  m.opset_imports[""] = 13;
  Node softmax = call("Softmax", {"x"});
  Node add = call("Add", {"a", "b"});
  EXPECT_EQ(resolve_op(m, softmax).kernel, nullptr);
  EXPECT_TRUE(resolve_op(m, softmax).has_function_body);
  EXPECT_NE(resolve_op(m, add).kernel, nullptr);
}

TEST(FunctionBodies, SoftmaxBodyComputesTheSoftmax) {
  PreferBodies prefer;
  // Softmax over the last axis of [[1, 2, 3], [0, 0, 0]]: exp(x_i) / sum_j exp(x_j).
  Value x = testing::tensor<float>({2, 3}, {1, 2, 3, 0, 0, 0});
  auto y = testing::values_of<float>(testing::run1("Softmax", 13, {x}));
  double s = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  std::vector<double> want{std::exp(1.0) / s, std::exp(2.0) / s, std::exp(3.0) / s, 1.0 / 3, 1.0 / 3, 1.0 / 3};
  ASSERT_EQ(y.size(), want.size());
  for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], want[i], 1e-6) << i;
}

TEST(FunctionBodies, LayerNormalizationBodyWithNegativeAxisAndNoBias) {
  PreferBodies prefer;
  // One row [1, 2, 3, 4]: mean 2.5, variance 1.25; Y = (x - 2.5) / sqrt(1.25 + eps) * scale.
  Value x = testing::tensor<float>({1, 4}, {1, 2, 3, 4});
  Value scale = testing::tensor<float>({4}, {1, 2, 1, 1});
  auto out = testing::run_op("LayerNormalization", 17, {x, scale},
                             {testing::attr_int("axis", -1), testing::attr_float("epsilon", 0.0f)}, 3);
  auto y = testing::values_of<float>(out[0]);
  double inv = 1.0 / std::sqrt(1.25);
  std::vector<double> want{-1.5 * inv, -0.5 * inv * 2, 0.5 * inv, 1.5 * inv};
  for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(y[i], want[i], 1e-6) << i;
  EXPECT_NEAR(testing::values_of<float>(out[1]).at(0), 2.5, 1e-7);   // Mean
  EXPECT_NEAR(testing::values_of<float>(out[2]).at(0), inv, 1e-6);   // InvStdDev
}

TEST(FunctionBodies, ClipBodyWithOnlyAnUpperBound) {
  PreferBodies prefer;
  Value x = testing::tensor<float>({4}, {-5, 0, 2, 9});
  Value hi = testing::tensor<float>({}, {1});
  auto y = testing::values_of<float>(testing::run1("Clip", 13, {x, Value(), hi}));
  EXPECT_EQ(y, (std::vector<float>{-5, 0, 1, 1}));
}

}  // namespace
}  // namespace sonnx

namespace sonnx {
namespace {

// Versions with a body that no test of the 1.19.1 suite reaches: each runs here by its kernel and
// by its body on the same inputs, and the two must agree (the conformance test covers the rest).
struct KernelVsBody {
  std::string op;
  int64_t opset;
  std::vector<Value> inputs;
  std::vector<onnx::AttributeProto> attrs;
};

void expect_kernel_and_body_agree(const KernelVsBody& c) {
  SCOPED_TRACE(c.op + "-" + std::to_string(c.opset));
  Value by_kernel = testing::run1(c.op, c.opset, c.inputs, c.attrs);
  Value by_body;
  {
    PreferBodies prefer;
    by_body = testing::run1(c.op, c.opset, c.inputs, c.attrs);
  }
  ASSERT_EQ(by_kernel.tensor.dtype(), by_body.tensor.dtype());
  ASSERT_EQ(by_kernel.tensor.shape(), by_body.tensor.shape());
  for (int64_t i = 0; i < by_kernel.tensor.size(); ++i)
    EXPECT_NEAR(by_kernel.tensor.as_double(i), by_body.tensor.as_double(i), 1e-6 * (1 + std::fabs(by_kernel.tensor.as_double(i)))) << i;
}

TEST(FunctionBodies, KernelAndBodyAgreeWhereTheSuiteHasNoTest) {
  using testing::tensor;
  Value a = tensor<float>({4}, {1, 2, 3, std::nanf("")});
  Value b = tensor<float>({4}, {2, 2, 2, 2});
  Value logp = tensor<float>({2, 3}, {-1.2f, -0.5f, -2.0f, -0.1f, -3.0f, -2.5f});
  Value target = tensor<int64_t>({2}, {0, 2});
  Value mvn_x = tensor<float>({1, 2, 1, 2}, {1, 3, -2, 5});
  const std::vector<KernelVsBody> cases = {
      {"GreaterOrEqual", 12, {a, b}, {}},
      {"LessOrEqual", 12, {a, b}, {}},
      {"HardSwish", 14, {tensor<float>({5}, {-4, -1, 0, 1, 4})}, {}},
      {"MeanVarianceNormalization", 9, {mvn_x}, {}},
      {"NegativeLogLikelihoodLoss", 12, {logp, target}, {}},
      {"NegativeLogLikelihoodLoss", 12, {logp, target}, {testing::attr_string("reduction", "none"), testing::attr_int("ignore_index", 2)}},
      {"SoftmaxCrossEntropyLoss", 12, {logp, target}, {testing::attr_string("reduction", "sum")}},
      {"Range", 27, {tensor<float>({}, {1}), tensor<float>({}, {10}), tensor<float>({}, {3})}, {}},
      {"Range", 27, {tensor<int64_t>({}, {10}), tensor<int64_t>({}, {1}), tensor<int64_t>({}, {-4})}, {}},
      {"CastLike", 21, {tensor<float>({2}, {1.5f, -2.7f}), tensor<int32_t>({1}, {0})}, {}},
      {"CastLike", 23, {tensor<double>({2}, {1.5, -2.7}), tensor<float>({1}, {0})}, {}},
      {"CastLike", 25, {tensor<float>({2}, {1.5f, -2.7f}), tensor<int64_t>({1}, {0})}, {}},
      // Probabilities 0 and 1 make the sample certain.
      {"Bernoulli", 15, {tensor<float>({4}, {0, 1, 1, 0})}, {}},
  };
  for (const auto& c : cases) expect_kernel_and_body_agree(c);
}

}  // namespace
}  // namespace sonnx

namespace sonnx {
namespace {

TEST(FunctionBodies, GuardsSelectByElementTypeOfAnInput) {
  // Attention: a bool mask becomes 0 / -inf through Where; a float mask is added as it is.
  const auto* body = functions::find_body("", "Attention", 23);
  ASSERT_NE(body, nullptr);
  EXPECT_TRUE(body->uses_input_types);
  Node c;
  c.op_type = "Attention";
  c.inputs = {"q", "k", "v", "mask"};
  c.outputs = {"y"};
  TypeInfo f, b;
  f.kind = b.kind = TypeInfo::Kind::Tensor;
  f.elem = DType::Float;
  b.elem = DType::Bool;
  auto where_count = [&](const TypeInfo& mask) {
    const auto* schema = catalogue::exact("", "Attention", 23);
    const auto* alt = functions::select_alternative(*body, c, schema, {f, f, f, mask});
    if (!alt) throw std::runtime_error("no alternative");
    Function fn;
    std::string why;
    if (!functions::instantiate(*alt, c, schema, {f, f, f, mask}, fn, why)) throw std::runtime_error(why);
    return std::count_if(fn.nodes.begin(), fn.nodes.end(), [](const Node& n) { return n.op_type == "Where"; });
  };
  EXPECT_EQ(where_count(b), 1);
  EXPECT_EQ(where_count(f), 0);
}

}  // namespace
}  // namespace sonnx
