// sonnx's function bodies (spec/functions/, reference/functions/function_bodies): every file parses
// and names an operator version of the catalogue, the function-defined versions have one, guards
// pick the right nodes, `$elem_type` takes the call's type, and bodies compute what the operator
// means (expected values computed here from the formulas, not from the code).
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "op_test_util.h"
#include "optimized/exec/make_executor.h"
#include "reference/interp/inliner.h"
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
const std::set<std::string> kWithoutBody = {};

TEST(FunctionBodies, EveryFunctionDefinedVersionHasOne) {
  int defined = 0;
  for (const auto& s : catalogue::all()) {
    if (!s.function) continue;
    ++defined;
    bool has = find_body(s.domain, s.name, s.version) != nullptr;
    if (kWithoutBody.count(s.id())) EXPECT_FALSE(has) << s.id() << " has a body now: take it off kWithoutBody";
    else EXPECT_TRUE(has) << s.id() << " is defined by a function and has no body in spec/functions/";
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
  auto gelu_tanh = op_types_of_body("Gelu", 20, call("Gelu", {"x"}, {testing::ir_string_attr("approximate", "tanh")}));
  EXPECT_TRUE(has(gelu_tanh, "Tanh"));
  EXPECT_FALSE(has(gelu_tanh, "Erf"));
  // NegativeLogLikelihoodLoss: reduction "mean" by default divides by the summed weights.
  auto mean = op_types_of_body("NegativeLogLikelihoodLoss", 22, call("NegativeLogLikelihoodLoss", {"x", "t"}));
  EXPECT_TRUE(has(mean, "Div"));
  EXPECT_FALSE(has(mean, "Gather"));  // no weight input
  auto none = op_types_of_body("NegativeLogLikelihoodLoss", 22,
                               call("NegativeLogLikelihoodLoss", {"x", "t", "w"},
                                    {testing::ir_string_attr("reduction", "none")}));
  EXPECT_FALSE(has(none, "ReduceSum"));
  EXPECT_TRUE(has(none, "Gather"));
}

// Variadic formals: `xs...` takes the call's remaining actuals, `x[k]` names element k inside
// `each k in xs`, `each ... when sequence|tensor` keeps the elements of that kind, and `ys...` in a
// list or graph signature stands for every element.
TEST(FunctionBodies, VariadicFormalsAndEachBlocksExpandPerCall) {
  auto alts = text::parse_alternatives(R"(<domain: "", opset_import: ["" : 17]>
F <g> (first, rest...) => (outs...) {
  each k in rest when sequence { s[k] = SequenceLength (rest[k]) }
  each k in rest when tensor { s[k] = Shape (rest[k]) }
  each k in outs { e[k] = SequenceEmpty <dtype = $elem_type(@g[k])> () }
  outs... = Loop (first, , e...) <body = step (int64 i, bool c, acc...) => (bool c2, acc2...) {
    c2 = Identity (c)
    each k in outs { acc2[k] = Identity (acc[k]) }
  }>
})");
  ASSERT_EQ(alts.size(), 1u);
  Node c = call("F", {"n", "a", "b", "d"});
  c.outputs = {"o0", "o1"};
  auto g = std::make_shared<Graph>();
  g->outputs.resize(2);
  for (auto& o : g->outputs) o.type.kind = TypeInfo::Kind::Tensor;
  g->outputs[0].type.elem = DType::Float;
  g->outputs[1].type.elem = DType::Int32;
  Attribute ga;
  ga.name = "g";
  ga.type = Attribute::Type::Graph;
  ga.g = g;
  c.attributes.push_back(ga);
  TypeInfo tensor, sequence;
  tensor.kind = TypeInfo::Kind::Tensor;
  sequence.kind = TypeInfo::Kind::Sequence;
  Function fn;
  std::string why;
  ASSERT_TRUE(functions::instantiate(alts[0], c, nullptr, {tensor, sequence, tensor, sequence}, fn, why)) << why;
  EXPECT_EQ(fn.inputs, (std::vector<std::string>{"first", "rest#0", "rest#1", "rest#2"}));
  EXPECT_EQ(fn.outputs, (std::vector<std::string>{"outs#0", "outs#1"}));
  ASSERT_EQ(fn.nodes.size(), 6u);  // 2 sequences, 1 tensor, 2 empties, the loop
  EXPECT_EQ(fn.nodes[0].op_type, "SequenceLength");
  EXPECT_EQ(fn.nodes[0].inputs, std::vector<std::string>{"rest#0"});
  EXPECT_EQ(fn.nodes[1].outputs, std::vector<std::string>{"s#2"});
  EXPECT_EQ(fn.nodes[2].op_type, "Shape");
  EXPECT_EQ(fn.nodes[2].inputs, std::vector<std::string>{"rest#1"});
  EXPECT_EQ(fn.nodes[4].attr("dtype")->i, static_cast<int64_t>(DType::Int32));  // output 1 of g
  const Node& loop = fn.nodes[5];
  EXPECT_EQ(loop.inputs, (std::vector<std::string>{"first", "", "e#0", "e#1"}));
  EXPECT_EQ(loop.outputs, fn.outputs);
  const Graph& step = *loop.attr("body")->g;
  ASSERT_EQ(step.inputs.size(), 4u);
  EXPECT_EQ(step.inputs[3].name, "acc#1");
  EXPECT_EQ(step.outputs[2].name, "acc2#1");
  ASSERT_EQ(step.nodes.size(), 3u);
  EXPECT_EQ(step.nodes[2].inputs, std::vector<std::string>{"acc#1"});

  // An element whose kind is unknown cannot be sorted into a `when sequence|tensor` block.
  EXPECT_FALSE(functions::instantiate(alts[0], c, nullptr, {tensor, sequence, TypeInfo{}, sequence}, fn, why));
  EXPECT_NE(why.find("type of input 2 is not known"), std::string::npos) << why;
  // A graph output without a declared element type cannot type the empty sequence.
  g->outputs[1].type = TypeInfo{};
  EXPECT_FALSE(functions::instantiate(alts[0], c, nullptr, {tensor, sequence, tensor, sequence}, fn, why));
  EXPECT_NE(why.find("output of graph attribute @g#1"), std::string::npos) << why;
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
  EXPECT_NEAR(testing::values_of<float>(out[1]).at(0), 2.5, 1e-7);  // Mean
  EXPECT_NEAR(testing::values_of<float>(out[2]).at(0), inv, 1e-6);  // InvStdDev
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
    EXPECT_NEAR(by_kernel.tensor.as_double(i), by_body.tensor.as_double(i),
                1e-6 * (1 + std::fabs(by_kernel.tensor.as_double(i))))
        << i;
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
      {"NegativeLogLikelihoodLoss",
       12,
       {logp, target},
       {testing::attr_string("reduction", "none"), testing::attr_int("ignore_index", 2)}},
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

namespace sonnx {
namespace {

// Kernel against body for operator versions with several outputs, other domains, graph
// attributes, or values of the enclosing graph that a modifier graph reads (`extra`). The model
// imports ai.onnx 27 (for the graph attributes' nodes) and the operator's domain.
struct KernelVsBodyCase {
  std::string label;
  std::string domain;
  std::string op;
  int64_t opset;
  std::vector<Value> inputs;
  std::vector<onnx::AttributeProto> attrs = {};
  size_t outputs = 1;
  double tol = 1e-6;  // relative to 1 + |kernel's value|
  NamedValues extra = {};
};

std::vector<Value> run_case(const KernelVsBodyCase& c) {
  using namespace testing;
  std::vector<std::string> in_names, out_names;
  std::vector<onnx::ValueInfoProto> graph_inputs, graph_outputs;
  NamedValues feed = c.extra;
  for (const auto& [name, v] : c.extra) graph_inputs.push_back(vi(name));
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    if (c.inputs[i].kind == Value::Kind::None) {
      in_names.emplace_back();
      continue;
    }
    in_names.push_back("in" + std::to_string(i));
    graph_inputs.push_back(vi(in_names.back()));
    feed[in_names.back()] = c.inputs[i];
  }
  for (size_t i = 0; i < c.outputs; ++i) {
    out_names.push_back("out" + std::to_string(i));
    graph_outputs.push_back(vi(out_names.back()));
  }
  onnx::NodeProto n = node(c.op, in_names, out_names, c.attrs, c.domain);
  n.set_name("node");
  std::vector<std::pair<std::string, int64_t>> opsets{{c.domain, c.opset}};
  if (!c.domain.empty()) opsets.push_back({"", 27});
  NamedValues out = run_graph(graph("t", {n}, graph_inputs, graph_outputs), opsets, feed);
  std::vector<Value> result;
  for (const auto& name : out_names) result.push_back(out[name]);
  return result;
}

void expect_kernel_and_body_agree(const KernelVsBodyCase& c) {
  SCOPED_TRACE(c.label);
  const auto* schema = catalogue::find(c.domain, c.op, c.opset);
  ASSERT_NE(schema, nullptr);
  ASSERT_NE(find_body(c.domain, c.op, schema->version), nullptr) << "no body: the comparison would run the kernel twice";
  std::vector<Value> by_kernel, by_body;
  try {
    by_kernel = run_case(c);
  } catch (const std::exception& e) {
    FAIL() << "by the kernel: " << e.what();
  }
  try {
    PreferBodies prefer;
    by_body = run_case(c);
  } catch (const std::exception& e) {
    FAIL() << "by the body: " << e.what();
  }
  ASSERT_EQ(by_kernel.size(), by_body.size());
  for (size_t o = 0; o < by_kernel.size(); ++o) {
    SCOPED_TRACE("output " + std::to_string(o));
    const Tensor& k = by_kernel[o].tensor;
    const Tensor& b = by_body[o].tensor;
    ASSERT_EQ(k.dtype(), b.dtype());
    ASSERT_EQ(k.shape(), b.shape());
    for (int64_t i = 0; i < k.size(); ++i) {
      double kv = k.as_double(i), bv = b.as_double(i);
      if (std::isnan(kv)) {
        EXPECT_TRUE(std::isnan(bv)) << i;
        continue;
      }
      EXPECT_NEAR(kv, bv, c.tol * (1 + std::fabs(kv))) << i;
    }
  }
}

std::vector<float> fb_wavy(size_t n, float phase, float amp = 0.9f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(1.3f * static_cast<float>(i) + phase) * amp;
  return v;
}

Value fb_wavy_tensor(const Shape& shape, float phase, float amp = 0.9f) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return testing::tensor<float>(shape, fb_wavy(static_cast<size_t>(n), phase, amp));
}

TEST(FunctionBodies, CausalConvWithStateKernelAndBodyAgree) {
  using testing::tensor;
  const Value none;
  auto act = [](const std::string& a) { return testing::attr_string("activation", a); };
  Value x = fb_wavy_tensor({2, 3, 5}, 0.3f), w = fb_wavy_tensor({3, 1, 3}, 1.1f), b = fb_wavy_tensor({3}, 2.0f);
  Value past = fb_wavy_tensor({2, 3, 2}, 2.5f);
  auto h = [](const Value& v) { return testing::retyped<float16_t>(v); };
  const std::vector<KernelVsBodyCase> cases = {
      {"hand case with bias",
       "",
       "CausalConvWithState",
       27,
       {tensor<float>({1, 2, 3}, {1, 2, 3, 4, 5, 6}), tensor<float>({2, 1, 2}, {0.5f, 1, -1, 2}),
        tensor<float>({2}, {0.25f, -1})},
       {},
       2},
      {"past state, no bias",
       "",
       "CausalConvWithState",
       27,
       {tensor<float>({1, 1, 2}, {1, 2}), tensor<float>({1, 1, 3}, {1, 10, 100}), none, tensor<float>({1, 1, 2}, {7, 8})},
       {},
       2},
      {"input shorter than k - 1",
       "",
       "CausalConvWithState",
       27,
       {tensor<float>({1, 1, 1}, {4}), tensor<float>({1, 1, 4}, {1, 2, 3, 4}), none, tensor<float>({1, 1, 3}, {1, 2, 3})},
       {},
       2},
      {"silu, bias and past", "", "CausalConvWithState", 27, {x, w, b, past}, {act("silu")}, 2},
      {"swish, no past", "", "CausalConvWithState", 27, {x, w, b}, {act("swish")}, 2},
      {"none given explicitly", "", "CausalConvWithState", 27, {x, w, none, past}, {act("none")}, 2},
      {"k = 1: an empty state", "", "CausalConvWithState", 27, {x, fb_wavy_tensor({3, 1, 1}, 0.7f), b}, {}, 2},
      {"float16 silu", "", "CausalConvWithState", 27, {h(x), h(w), h(b), h(past)}, {act("silu")}, 2, 2e-3},
  };
  for (const auto& c : cases) expect_kernel_and_body_agree(c);
}

TEST(FunctionBodies, LinearAttentionKernelAndBodyAgree) {
  using testing::attr_float;
  using testing::attr_int;
  using testing::attr_string;
  const Value none;
  // B = 2, T = 3, Hq = 4, Hkv = 2 (grouped), dk = 3, dv = 2.
  Value q = fb_wavy_tensor({2, 3, 12}, 0.1f), k = fb_wavy_tensor({2, 3, 6}, 1.2f, 0.5f), v = fb_wavy_tensor({2, 3, 4}, 2.3f);
  Value past = fb_wavy_tensor({2, 2, 3, 2}, 0.4f, 0.3f);
  Value decay_key = fb_wavy_tensor({2, 3, 6}, 0.8f, 0.4f), decay_head = fb_wavy_tensor({2, 3, 2}, 1.9f, 0.4f);
  Value beta_head = fb_wavy_tensor({2, 3, 2}, 0.6f, 0.5f), beta_one = fb_wavy_tensor({2, 3, 1}, 2.2f, 0.5f);
  // Hq = Hkv = 2: a query of its own.
  Value q2 = fb_wavy_tensor({2, 3, 6}, 0.5f);
  auto attrs = [](const std::string& rule, int64_t hq, int64_t hkv) {
    return std::vector<onnx::AttributeProto>{attr_string("update_rule", rule), attr_int("q_num_heads", hq),
                                             attr_int("kv_num_heads", hkv)};
  };
  auto with = [](std::vector<onnx::AttributeProto> a, const onnx::AttributeProto& extra) {
    a.push_back(extra);
    return a;
  };
  constexpr double kTol = 1e-5;
  const std::vector<KernelVsBodyCase> cases = {
      {"linear, no past", "", "LinearAttention", 27, {q, k, v}, attrs("linear", 4, 2), 2, kTol},
      {"linear, past, scale",
       "",
       "LinearAttention",
       27,
       {q, k, v, past},
       with(attrs("linear", 4, 2), attr_float("scale", 0.7f)),
       2,
       kTol},
      {"gated, per key dim", "", "LinearAttention", 27, {q, k, v, past, decay_key}, attrs("gated", 4, 2), 2, kTol},
      {"gated, per head", "", "LinearAttention", 27, {q, k, v, none, decay_head}, attrs("gated", 4, 2), 2, kTol},
      {"delta, beta per head", "", "LinearAttention", 27, {q, k, v, past, none, beta_head}, attrs("delta", 4, 2), 2, kTol},
      {"delta, one beta", "", "LinearAttention", 27, {q, k, v, none, none, beta_one}, attrs("delta", 4, 2), 2, kTol},
      {"gated_delta (default rule)",
       "",
       "LinearAttention",
       27,
       {q, k, v, past, decay_key, beta_head},
       {attr_int("q_num_heads", 4), attr_int("kv_num_heads", 2)},
       2,
       kTol},
      {"gated_delta, per-head decay, one beta",
       "",
       "LinearAttention",
       27,
       {q, k, v, past, decay_head, beta_one},
       attrs("gated_delta", 4, 2),
       2,
       kTol},
      {"gated_delta, Hq = Hkv",
       "",
       "LinearAttention",
       27,
       {q2, k, v, none, decay_head, beta_one},
       attrs("gated_delta", 2, 2),
       2,
       kTol},
      {"one token (decode)",
       "",
       "LinearAttention",
       27,
       {fb_wavy_tensor({2, 1, 12}, 0.1f), fb_wavy_tensor({2, 1, 6}, 1.2f, 0.5f), fb_wavy_tensor({2, 1, 4}, 2.3f), past,
        fb_wavy_tensor({2, 1, 6}, 0.8f, 0.4f), fb_wavy_tensor({2, 1, 2}, 0.6f, 0.5f)},
       attrs("gated_delta", 4, 2),
       2,
       kTol},
  };
  for (const auto& c : cases) expect_kernel_and_body_agree(c);
}

TEST(FunctionBodies, FlexAttentionKernelAndBodyAgree) {
  using namespace testing;
  const std::string preview = "ai.onnx.preview";
  // B = 2, Hq = 4, Hkv = 2 (grouped), L = 3, S = 4, E = 3, Ev = 2.
  Value q = fb_wavy_tensor({2, 4, 3, 3}, 0.2f), k = fb_wavy_tensor({2, 2, 4, 3}, 1.4f), v = fb_wavy_tensor({2, 2, 4, 2}, 2.6f);
  Value q_same = fb_wavy_tensor({2, 2, 3, 3}, 0.9f);
  auto modifier = [](const std::string& attr, const std::vector<onnx::NodeProto>& nodes, DType elem = DType::Float) {
    return attr_graph(attr, graph(attr + "_graph", nodes, {vi("x", elem)}, {vi("y", elem)}));
  };
  auto constant = [](const std::string& name, const Tensor& t) {
    return node("Constant", {}, {name}, {attr_tensor("value", t)});
  };
  std::vector<float> mask;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) mask.push_back(j > i + 1 ? -kInf : 0.0f);
  auto causal = modifier("score_mod",
                         {constant("m", Tensor::from_vector<float>({1, 1, 3, 4}, mask)), node("Add", {"x", "m"}, {"y"})});
  auto softcap = modifier("score_mod", {constant("c", Tensor::scalar<float>(0.5f)), node("Div", {"x", "c"}, {"d"}),
                                        node("Tanh", {"d"}, {"t"}), node("Mul", {"t", "c"}, {"y"})});
  auto outer_bias = modifier("score_mod", {node("Add", {"x", "bias"}, {"y"})});
  auto halve = modifier("prob_mod", {constant("h", Tensor::scalar<float>(0.5f)), node("Mul", {"x", "h"}, {"y"})});
  // A score_mod whose own names clash with the body's: `scores` and `probs` inside it.
  auto clash = modifier("score_mod", {node("Neg", {"x"}, {"scores"}), node("Neg", {"scores"}, {"probs"}),
                                      constant("c", Tensor::scalar<float>(0.25f)), node("Mul", {"probs", "c"}, {"y"})});
  auto identity = modifier("score_mod", {node("Identity", {"x"}, {"y"})});
  auto dmod = modifier("score_mod",
                       {constant("c", Tensor::scalar<float>(0.1f)), node("Cast", {"c"}, {"cd"}, {attr_int("to", 11)}),
                        node("Add", {"x", "cd"}, {"y"})},
                       DType::Double);
  // Double inputs: the modifiers see double tensors.
  auto dhalve = modifier("prob_mod",
                         {constant("h", Tensor::scalar<float>(0.5f)), node("Cast", {"h"}, {"hd"}, {attr_int("to", 11)}),
                          node("Mul", {"x", "hd"}, {"y"})},
                         DType::Double);
  auto h = [](const Value& x) { return retyped<float16_t>(x); };
  auto d = [](const Value& x) { return retyped<double>(x); };
  const std::vector<KernelVsBodyCase> cases = {
      {"no modifiers, grouped", preview, "FlexAttention", 1, {q, k, v}},
      {"no modifiers, Hq = Hkv, scale", preview, "FlexAttention", 1, {q_same, k, v}, {attr_float("scale", 0.3f)}},
      {"score_mod causal mask", preview, "FlexAttention", 1, {q, k, v}, {causal}},
      {"score_mod soft cap and prob_mod", preview, "FlexAttention", 1, {q, k, v}, {softcap, halve}},
      {"score_mod reads the enclosing graph",
       preview,
       "FlexAttention",
       1,
       {q, k, v},
       {outer_bias},
       1,
       1e-6,
       {{"bias", fb_wavy_tensor({3, 4}, 0.7f)}}},
      {"modifier names clash with the body's", preview, "FlexAttention", 1, {q, k, v}, {clash}},
      {"score_mod passes its input through", preview, "FlexAttention", 1, {q, k, v}, {identity}},
      {"double inputs", preview, "FlexAttention", 1, {d(q), d(k), d(v)}, {dhalve}},
      {"softmax_precision double", preview, "FlexAttention", 1, {q, k, v}, {dmod, attr_int("softmax_precision", 11)}},
      {"float16 inputs", preview, "FlexAttention", 1, {h(q), h(k), h(v)}, {causal}, 1, 2e-3},
  };
  for (const auto& c : cases) expect_kernel_and_body_agree(c);
}

// Two versions whose bodies the suite never reaches, with more of their attributes and outputs.
TEST(FunctionBodies, MeanVarianceNormalizationAndSoftmaxCrossEntropyKernelAndBodyAgree) {
  using namespace testing;
  const Value none;
  Value x = fb_wavy_tensor({2, 3, 2, 2}, 0.3f, 2.0f);
  Value scores = fb_wavy_tensor({3, 4}, 0.5f, 2.0f), scores3 = fb_wavy_tensor({2, 4, 3}, 1.5f, 2.0f);
  Value labels = tensor<int64_t>({3}, {0, 3, 1}), labels3 = tensor<int64_t>({2, 3}, {0, 3, 1, 2, 2, 0});
  Value weights = tensor<float>({4}, {0.5f, 1, 2, 0.25f});
  const std::vector<KernelVsBodyCase> cases = {
      {"MVN-9 default axes", "", "MeanVarianceNormalization", 9, {x}},
      {"MVN-9 axes [2, 3]", "", "MeanVarianceNormalization", 9, {x}, {attr_ints("axes", {2, 3})}},
      {"MVN-9 axes [1]", "", "MeanVarianceNormalization", 9, {x}, {attr_ints("axes", {1})}},
      {"SCE-12 mean with log_prob", "", "SoftmaxCrossEntropyLoss", 12, {scores, labels}, {}, 2},
      {"SCE-12 weights, none",
       "",
       "SoftmaxCrossEntropyLoss",
       12,
       {scores, labels, weights},
       {attr_string("reduction", "none")},
       2},
      {"SCE-12 weights, ignore_index, mean",
       "",
       "SoftmaxCrossEntropyLoss",
       12,
       {scores, labels, weights},
       {attr_int("ignore_index", 3)},
       2},
      {"SCE-12 3-D scores, sum, ignore_index",
       "",
       "SoftmaxCrossEntropyLoss",
       12,
       {scores3, labels3, none},
       {attr_string("reduction", "sum"), attr_int("ignore_index", 2)},
       2},
  };
  for (const auto& c : cases) expect_kernel_and_body_agree(c);
}

}  // namespace
}  // namespace sonnx

namespace sonnx {
namespace {

// Graph calls in the executors' path: inline_model splices FlexAttention's modifiers (one reading
// a value of the enclosing graph, one holding an initializer) into the flat model, and the flat
// model, the linear executor and the kernel agree.
TEST(FunctionBodies, GraphCallsAreSplicedWhenAModelIsInlined) {
  using namespace testing;
  auto score_mod = attr_graph("score_mod", graph("sm", {node("Add", {"x", "bias"}, {"y"})}, {vi("x", DType::Float)},
                                                 {vi("y", DType::Float)}));
  onnx::GraphProto pm = graph("pm", {node("Mul", {"x", "half"}, {"y"})}, {vi("x", DType::Float)}, {vi("y", DType::Float)});
  onnx::TensorProto half;
  half.set_name("half");
  half.set_data_type(static_cast<int>(DType::Float));
  half.add_float_data(0.5f);
  *pm.add_initializer() = half;
  auto prob_mod = attr_graph("prob_mod", pm);
  onnx::NodeProto flex = node("FlexAttention", {"Q", "K", "V"}, {"Y"}, {score_mod, prob_mod}, "ai.onnx.preview");
  flex.set_name("flex");
  onnx::GraphProto g = graph("t", {flex},
                             {vi("Q", DType::Float, {1, 2, 2, 3}, true), vi("K", DType::Float, {1, 1, 3, 3}, true),
                              vi("V", DType::Float, {1, 1, 3, 2}, true), vi("bias", DType::Float, {2, 3}, true)},
                             {vi("Y", DType::Float)});
  onnx::ModelProto mp;
  mp.set_ir_version(8);
  for (auto [domain, version] : std::vector<std::pair<std::string, int64_t>>{{"", 27}, {"ai.onnx.preview", 1}}) {
    auto* imp = mp.add_opset_import();
    imp->set_domain(domain);
    imp->set_version(version);
  }
  *mp.mutable_graph() = g;
  Model m = model_from_proto(mp, {});
  NamedValues in{{"Q", fb_wavy_tensor({1, 2, 2, 3}, 0.1f)},
                 {"K", fb_wavy_tensor({1, 1, 3, 3}, 0.5f)},
                 {"V", fb_wavy_tensor({1, 1, 3, 2}, 0.9f)},
                 {"bias", fb_wavy_tensor({2, 3}, 1.3f)}};
  NamedValues by_kernel = Interpreter(m).run(in);
  PreferBodies prefer;
  Model flat = inline_model(m);
  std::vector<std::string> ops = op_types_of(flat.graph);
  EXPECT_EQ(std::count(ops.begin(), ops.end(), "ai.onnx.preview.FlexAttention"), 0);
  EXPECT_EQ(std::count(ops.begin(), ops.end(), "FlexAttention"), 0);
  for (const auto& op : ops) EXPECT_FALSE(op.starts_with("@")) << op;
  int adds = 0;
  for (const auto& n : flat.graph.nodes) {
    if (n.op_type == "Add" && n.inputs.size() == 2 && n.inputs[1] == "bias") ++adds;  // the outer name kept
  }
  EXPECT_EQ(adds, 1);
  std::vector<float> want = values_of<float>(by_kernel["Y"]);
  for (const NamedValues& got : {Interpreter(flat).run(in), make_executor(m, "linear")->run(in)}) {
    std::vector<float> y = values_of<float>(got.at("Y"));
    ASSERT_EQ(y.size(), want.size());
    for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], want[i], 1e-6 * (1 + std::fabs(want[i]))) << i;
  }
}

}  // namespace
}  // namespace sonnx

namespace sonnx {
namespace {

// expand_call on a graph call: names the graph defines get a prefix of their own, outer names stay,
// formal outputs are copied out; a call without the graph, or with a graph of another arity, is
// refused.
TEST(FunctionBodies, GraphCallExpansion) {
  Function fn = text::parse_function(R"(<domain: "", opset_import: ["" : 18]>
F <g> (a) => (b) {
  t = Neg (a)
  b = @g (t)
})");
  auto g = std::make_shared<Graph>();
  g->inputs.resize(1);
  g->inputs[0].name = "x";
  g->outputs.resize(1);
  g->outputs[0].name = "t";  // the same name as a value of the body
  Node add;
  add.op_type = "Add";
  add.inputs = {"x", "outer"};
  add.outputs = {"t"};
  g->nodes.push_back(add);
  Node c;
  c.op_type = "F";
  c.inputs = {"in"};
  c.outputs = {"out"};
  Attribute ga;
  ga.name = "g";
  ga.type = Attribute::Type::Graph;
  ga.g = g;
  c.attributes.push_back(ga);
  std::vector<Node> body = expand_call(c, fn, "p_");
  ASSERT_EQ(body.size(), 3u);
  EXPECT_EQ(body[0].op_type, "Neg");
  EXPECT_EQ(body[0].outputs, (std::vector<std::string>{"p_t"}));
  EXPECT_EQ(body[1].op_type, "Add");
  EXPECT_EQ(body[1].inputs, (std::vector<std::string>{"p_t", "outer"}));
  ASSERT_EQ(body[1].outputs.size(), 1u);
  EXPECT_NE(body[1].outputs[0], "p_t");  // the graph's own t is not the body's t
  EXPECT_EQ(body[2].op_type, "Identity");
  EXPECT_EQ(body[2].inputs, body[1].outputs);
  EXPECT_EQ(body[2].outputs, (std::vector<std::string>{"out"}));

  Node without = c;
  without.attributes.clear();
  EXPECT_THROW(expand_call(without, fn, "p_"), Unsupported);
  Node two_inputs = c;
  auto g2 = std::make_shared<Graph>(*g);
  g2->inputs.push_back(g2->inputs[0]);
  g2->inputs[1].name = "y";
  two_inputs.attributes[0].g = g2;
  EXPECT_THROW(expand_call(two_inputs, fn, "p_"), Unsupported);
}

}  // namespace
}  // namespace sonnx
