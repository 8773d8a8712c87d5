// The optimized executors against the reference interpreter on a graph with parallel branches,
// fused Conv steps, a multi-consumer value and a graph output that is also read; plus memory-plan
// validity, determinism of the parallel executor, ready-queue policies and runtime errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "optimized/exec/dataflow_executor.h"
#include "optimized/exec/make_executor.h"
#include "reference/interp/interpreter.h"
#include "sonnx/errors.h"
#include "tensor_test_util.h"

namespace sonnx {
namespace {

using testing::float_type;

Tensor random_tensor(const Shape& shape, std::mt19937& rng) { return testing::random_float_tensor(shape, rng); }

Attribute ints_attr(const std::string& name, std::vector<int64_t> v) {
  Attribute a;
  a.name = name;
  a.type = Attribute::Type::Ints;
  a.ints = std::move(v);
  return a;
}

Attribute int_attr(const std::string& name, int64_t v) {
  Attribute a;
  a.name = name;
  a.type = Attribute::Type::Int;
  a.i = v;
  return a;
}

struct GraphBuilder {
  Model m;
  std::mt19937 rng{3};
  GraphBuilder() { m = testing::empty_model(13); }
  void node(const std::string& op, std::vector<std::string> in, std::vector<std::string> out,
            std::vector<Attribute> attrs = {}) {
    testing::add_node(m.graph, testing::ir_node(op, std::move(in), std::move(out), std::move(attrs)));
  }
  std::string weight(const std::string& name, const Shape& shape) {
    m.graph.initializers.emplace_back(name, random_tensor(shape, rng));
    return name;
  }
};

// Inception-like: four branches from X, one through a pooled 1x1 conv that adds branch 1 (a fused
// sum), concatenated; branch 2 is also a graph output; a broadcasting Mul runs on the reference.
Model branching_model() {
  GraphBuilder b;
  auto& g = b.m.graph;
  g.inputs.push_back({"X", float_type({1, 8, 12, 12})});
  b.node("Conv", {"X", b.weight("W1", {8, 8, 1, 1}), b.weight("B1", {8})}, {"c1"});
  b.node("Relu", {"c1"}, {"b1"});
  b.node("Conv", {"X", b.weight("W2a", {8, 8, 1, 1})}, {"c2a"});
  b.node("Relu", {"c2a"}, {"b2a"});
  b.node("Conv", {"b2a", b.weight("W2b", {8, 8, 3, 3}), b.weight("B2b", {8})}, {"c2b"}, {ints_attr("pads", {1, 1, 1, 1})});
  b.node("Relu", {"c2b"}, {"b2"});
  b.node("MaxPool", {"X"}, {"p3"}, {ints_attr("kernel_shape", {3, 3}), ints_attr("pads", {1, 1, 1, 1})});
  b.node("Conv", {"p3", b.weight("W3", {8, 8, 1, 1}), b.weight("B3", {8})}, {"c3"});
  b.node("Add", {"b1", "c3"}, {"s3"});
  b.node("Relu", {"s3"}, {"b3"});
  b.node("Mul", {"X", b.weight("S", {1, 8, 1, 1})}, {"b4"});
  b.node("Concat", {"b1", "b2", "b3", "b4"}, {"cat"}, {int_attr("axis", 1)});
  b.node("Sigmoid", {"cat"}, {"Y"});
  g.outputs.push_back({"Y", float_type({1, 32, 12, 12})});
  g.outputs.push_back({"b2", float_type({1, 8, 12, 12})});
  return b.m;
}

// Random values for input X, of its declared shape.
NamedValues inputs_for(const Model& m, unsigned seed) {
  std::mt19937 rng(seed);
  Shape shape;
  for (const auto& d : *m.graph.inputs.at(0).type.shape) shape.push_back(*d.value);
  NamedValues in;
  in["X"] = Value(random_tensor(shape, rng));
  return in;
}

void expect_close(const NamedValues& got, const NamedValues& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (const auto& [name, w] : want) {
    const Tensor& a = got.at(name).tensor;
    const Tensor& e = w.tensor;
    ASSERT_EQ(a.shape(), e.shape()) << what << " " << name;
    for (int64_t i = 0; i < e.size(); ++i)
      ASSERT_NEAR(a.data<float>()[i], e.data<float>()[i], 1e-5 + 1e-4 * std::fabs(e.data<float>()[i]))
          << what << " " << name << "[" << i << "]";
  }
}

TEST(OptimizedExecutors, MatchTheReferenceInEveryExecutorAndThreadCount) {
  Model m = branching_model();
  NamedValues in = inputs_for(m, 1);
  NamedValues want = Interpreter(m).run(in);
  for (const auto& name : optimized_executor_names())
    for (int threads : {1, 2, 3}) {
      ExecutorOptions o;
      o.threads = threads;
      auto exec = make_optimized_executor(m, name, o);
      std::string what = name + " x" + std::to_string(threads);
      expect_close(exec->run(in), want, what + " (planning run)");
      expect_close(exec->run(in), want, what + " (in the arena)");
      ASSERT_NE(exec->plan(), nullptr);
      EXPECT_GT(exec->arena_bytes(), 0) << what;
      NamedValues in2 = inputs_for(m, 2);  // same shapes, new values: the cached plan is reused
      expect_close(exec->run(in2), Interpreter(m).run(in2), what + " (second input)");
    }
}

TEST(OptimizedExecutors, FusesConvWithItsAddAndRelu) {
  CompiledModel cm(branching_model());
  int fused = 0, with_sum = 0;
  for (const auto& s : cm.root().steps()) {
    fused += !s.fused.empty();
    with_sum += s.fused.size() == 2 && s.fused[0]->op_type == "Add";
  }
  EXPECT_EQ(fused, 4);  // c1, c2a, c2b with Relu; c3 with Add and Relu
  EXPECT_EQ(with_sum, 1);
}

// Conv chains keep oneDNN's blocked layout between steps: 8 -> 24 channels (24 is padded to the
// block size), a depthwise conv, a conv adding a blocked residual, then plain for the output.
Model conv_chain_model() {
  GraphBuilder b;
  auto& g = b.m.graph;
  g.inputs.push_back({"X", float_type({1, 8, 10, 10})});
  b.node("Conv", {"X", b.weight("W1", {24, 8, 3, 3}), b.weight("B1", {24})}, {"c1"}, {ints_attr("pads", {1, 1, 1, 1})});
  b.node("Relu", {"c1"}, {"a1"});
  b.node("Conv", {"a1", b.weight("W2", {24, 1, 3, 3})}, {"c2"}, {ints_attr("pads", {1, 1, 1, 1}), int_attr("group", 24)});
  b.node("Conv", {"c2", b.weight("W3", {24, 24, 1, 1})}, {"c3"});
  b.node("Add", {"c3", "a1"}, {"s3"});
  b.node("Relu", {"s3"}, {"a3"});
  b.node("Conv", {"a3", b.weight("W4", {8, 24, 1, 1}), b.weight("B4", {8})}, {"Y"});
  g.outputs.push_back({"Y", float_type({1, 8, 10, 10})});
  return b.m;
}

TEST(OptimizedExecutors, ConvChainsStayBlockedAndMatchTheReference) {
  Model m = conv_chain_model();
  CompiledModel cm(m);
  int blocked = 0;
  for (const auto& s : cm.root().steps()) blocked += s.blocked_output;
  EXPECT_EQ(blocked, 3);  // c1 (read by c2 and as c3's sum), c2, c3+Add+Relu; Y is a graph output
  NamedValues in = inputs_for(m, 3);
  NamedValues want = Interpreter(m).run(in);
  for (const auto& name : optimized_executor_names())
    for (int threads : {1, 2}) {
      ExecutorOptions o;
      o.threads = threads;
      auto exec = make_optimized_executor(m, name, o);
      expect_close(exec->run(in), want, name + " planning run");
      expect_close(exec->run(in), want, name + " in the arena");
    }
  // A NaN in the input takes the exact path (activation outside oneDNN) in the blocked layout too.
  NamedValues nan_in = in;
  nan_in["X"].tensor.data<float>()[5] = std::numeric_limits<float>::quiet_NaN();
  NamedValues nan_want = Interpreter(m).run(nan_in);
  NamedValues got = make_executor(m, "linear")->run(nan_in);
  const Tensor &a = got.at("Y").tensor, &e = nan_want.at("Y").tensor;
  for (int64_t i = 0; i < e.size(); ++i) {
    float x = a.data<float>()[i], y = e.data<float>()[i];
    ASSERT_EQ(std::isnan(x), std::isnan(y)) << i;
    if (!std::isnan(y)) {
      ASSERT_NEAR(x, y, 1e-4 + 1e-4 * std::fabs(y)) << i;
    }
  }
}

TEST(OptimizedExecutors, AFusedAddThatBroadcastsRunsUnfusedOnABlockedInput) {
  GraphBuilder b;
  b.m.graph.inputs.push_back({"X", float_type({1, 8, 6, 6})});
  b.node("Conv", {"X", b.weight("W1", {16, 8, 3, 3})}, {"c1"}, {ints_attr("pads", {1, 1, 1, 1})});
  b.node("Conv", {"c1", b.weight("W2", {16, 16, 1, 1})}, {"c2"});
  b.node("Add", {"c2", b.weight("Bias", {1, 16, 1, 1})}, {"s2"});  // fused, but its operand broadcasts
  b.node("Relu", {"s2"}, {"Y"});
  b.m.graph.outputs.push_back({"Y", float_type({1, 16, 6, 6})});
  CompiledModel cm(b.m);
  EXPECT_TRUE(cm.root().steps()[0].blocked_output);
  NamedValues in = inputs_for(b.m, 8);
  NamedValues want = Interpreter(b.m).run(in);
  for (const auto& name : optimized_executor_names()) {
    auto exec = make_executor(b.m, name);
    expect_close(exec->run(in), want, name);
    expect_close(exec->run(in), want, name + " in the arena");
  }
}

TEST(OptimizedExecutors, FoldsAnInferenceBatchNormalizationIntoTheConv) {
  GraphBuilder b;
  b.m.graph.inputs.push_back({"X", float_type({1, 4, 5, 5})});
  b.node("Conv", {"X", b.weight("W", {6, 4, 3, 3}), b.weight("B", {6})}, {"c"});
  Tensor var = testing::random_float_tensor({6}, b.rng, 0.5f, 2.0f);  // variances are positive
  b.m.graph.initializers.emplace_back("var", var);
  b.node("BatchNormalization", {"c", b.weight("scale", {6}), b.weight("bias", {6}), b.weight("mean", {6}), "var"}, {"n"}, {[] {
           Attribute a;
           a.name = "epsilon";
           a.type = Attribute::Type::Float;
           a.f = 1e-3f;
           return a;
         }()});
  b.node("Relu", {"n"}, {"Y"});
  b.m.graph.outputs.push_back({"Y", float_type({1, 6, 3, 3})});
  CompiledModel cm(b.m);
  ASSERT_EQ(cm.root().steps().size(), 1u);  // Conv + BatchNormalization (folded) + Relu
  EXPECT_NE(cm.root().steps()[0].folded, nullptr);
  NamedValues in = inputs_for(b.m, 6);
  NamedValues want = Interpreter(b.m).run(in);
  for (const auto& name : optimized_executor_names()) {
    auto exec = make_executor(b.m, name);
    expect_close(exec->run(in), want, name);
    expect_close(exec->run(in), want, name + " in the arena");
  }
  // training_mode is an attribute from BatchNormalization-14 on, so at opset 13 the fusion pass
  // reads the node as version 9 does (no such parameter, folded); at 15 training mode uses the
  // batch's statistics: nothing to fold.
  b.m.graph.nodes[1].attributes.push_back(int_attr("training_mode", 1));
  EXPECT_NE(CompiledModel(b.m).root().steps()[0].folded, nullptr);
  b.m.opset_imports[""] = 15;
  EXPECT_EQ(CompiledModel(b.m).root().steps()[0].folded, nullptr);
}

// A residual block as torchvision's MBConv exports it: Conv → BatchNormalization → Add(bn, skip),
// the folded node's output first: the fused step adds the skip input, not its own intermediate.
TEST(OptimizedExecutors, FusesTheResidualAddAfterAFoldedBatchNormalization) {
  GraphBuilder b;
  b.m.graph.inputs.push_back({"X", float_type({1, 4, 5, 5})});
  b.node("Conv", {"X", b.weight("W", {4, 4, 3, 3})}, {"c"}, {ints_attr("pads", {1, 1, 1, 1})});
  Tensor var = testing::random_float_tensor({4}, b.rng, 0.5f, 2.0f);
  b.m.graph.initializers.emplace_back("var", var);
  b.node("BatchNormalization", {"c", b.weight("scale", {4}), b.weight("bias", {4}), b.weight("mean", {4}), "var"}, {"n"});
  b.node("Add", {"n", "X"}, {"Y"});
  b.m.graph.outputs.push_back({"Y", float_type({1, 4, 5, 5})});
  CompiledModel cm(b.m);
  ASSERT_EQ(cm.root().steps().size(), 1u);  // Conv + BatchNormalization (folded) + Add
  EXPECT_EQ(cm.root().slot_name(cm.root().steps()[0].inputs.back()), "X");
  NamedValues in = inputs_for(b.m, 7);
  NamedValues want = Interpreter(b.m).run(in);
  for (const auto& name : optimized_executor_names()) expect_close(make_executor(b.m, name)->run(in), want, name);
}

// The swish exporters write, y * Sigmoid(y) as a Sigmoid and a Mul that both read the Conv's
// output, is one fused step (oneDNN's swish post-op); with a fused Add whose operand broadcasts
// the fast kernel declines at run time and the nodes run one by one (run_chain).
TEST(OptimizedExecutors, FusesTheDecomposedSwishIntoTheConv) {
  for (bool broadcast_add : {false, true}) {
    GraphBuilder b;
    b.m.graph.inputs.push_back({"X", float_type({1, 8, 6, 6})});
    b.node("Conv", {"X", b.weight("W", {16, 8, 3, 3}), b.weight("B", {16})}, {"c"}, {ints_attr("pads", {1, 1, 1, 1})});
    std::string y = "c";
    if (broadcast_add) {
      b.node("Add", {"c", b.weight("Bias", {1, 16, 1, 1})}, {"a"});
      y = "a";
    }
    b.node("Sigmoid", {y}, {"s"});
    b.node("Mul", {"s", y}, {"Y"});
    b.m.graph.outputs.push_back({"Y", float_type({1, 16, 6, 6})});
    std::string what = broadcast_add ? "after a broadcasting Add" : "plain";
    CompiledModel cm(b.m);
    ASSERT_EQ(cm.root().steps().size(), 1u) << what;
    const auto& fused = cm.root().steps()[0].fused;
    ASSERT_EQ(fused.size(), broadcast_add ? 3u : 2u) << what;
    EXPECT_EQ(fused[fused.size() - 2]->op_type, "Sigmoid");
    EXPECT_EQ(fused.back()->op_type, "Mul");
    NamedValues in = inputs_for(b.m, 9);
    NamedValues want = Interpreter(b.m).run(in);
    for (const auto& name : optimized_executor_names()) {
      auto exec = make_executor(b.m, name);
      expect_close(exec->run(in), want, name + " " + what);
      expect_close(exec->run(in), want, name + " in the arena " + what);
    }
    auto linear = make_optimized_executor(b.m, "linear");
    linear->run(in);
    const auto& k = linear->kernels_run();
    if (broadcast_add) EXPECT_FALSE(k.count("onednn:conv")) << "the fused step ran unfused";
    else EXPECT_EQ(k.count("onednn:conv") ? k.at("onednn:conv") : 0, 1);
  }
}

// A float scalar as a Constant node (as PaddlePaddle's exporter writes them) or an initializer.
std::string scalar_constant(GraphBuilder& b, const std::string& name, float v, bool as_node) {
  if (!as_node) {
    b.m.graph.initializers.emplace_back(name, Tensor::scalar<float>(v));
    return name;
  }
  Attribute a;
  a.name = "value";
  a.type = Attribute::Type::Tensor;
  a.t = Tensor::scalar<float>(v);
  b.node("Constant", {}, {name}, {a});
  return name;
}

// A MatMul followed by the Add of a constant bias (given directly or through an Identity, as
// exporters share weights) and an activation — Relu, or the Erf-based GELU PyTorch writes as
// Div(√2) → Erf → Add 1 → Mul y → Mul 0.5 — is one step whose oneDNN primitive adds the bias and
// applies the activation. A bias that is not a row of the output runs the nodes one by one; an
// input with NaN and ±inf gives the reference's NaN positions.
Model matmul_epilogue_model(const std::string& activation, const Shape& bias_shape, bool via_identity) {
  GraphBuilder b;
  b.m.graph.inputs.push_back({"X", float_type({2, 5, 16})});
  b.node("MatMul", {"X", b.weight("W", {16, 24})}, {"m"});
  std::string bias = b.weight("Bias", bias_shape);
  if (via_identity) {
    b.node("Identity", {bias}, {"bias_shared"});
    bias = "bias_shared";
  }
  b.node("Add", {bias, "m"}, {"y"});
  if (activation == "Relu") {
    b.node("Relu", {"y"}, {"Y"});
  } else if (activation == "Gelu") {
    b.m.graph.initializers.emplace_back("sqrt2", Tensor::scalar<float>(static_cast<float>(std::numbers::sqrt2)));
    b.m.graph.initializers.emplace_back("one", Tensor::scalar<float>(1.0f));
    b.m.graph.initializers.emplace_back("half", Tensor::scalar<float>(0.5f));
    b.node("Div", {"y", "sqrt2"}, {"d"});
    b.node("Erf", {"d"}, {"e"});
    b.node("Add", {"e", "one"}, {"a"});
    b.node("Mul", {"y", "a"}, {"p"});
    b.node("Mul", {"p", "half"}, {"Y"});
  } else {
    b.node("Identity", {"y"}, {"Y"});
  }
  b.m.graph.outputs.push_back({"Y", float_type({2, 5, 24})});
  return b.m;
}

TEST(OptimizedExecutors, FusesTheBiasAndActivationIntoTheMatMul) {
  struct Case {
    std::string activation;
    Shape bias;
    bool via_identity;
    size_t fused;  // nodes folded into the MatMul step, 0 when it must run unfused
  };
  for (const Case& c : {Case{"Gelu", {24}, false, 6}, Case{"Relu", {1, 1, 24}, true, 2}, Case{"", {24}, true, 1},
                        Case{"Relu", {5, 1}, false, 2}}) {
    std::string what = (c.activation.empty() ? "bias only" : c.activation) + " bias " + shape_str(c.bias);
    Model m = matmul_epilogue_model(c.activation, c.bias, c.via_identity);
    if (c.bias == Shape{5, 1}) m.graph.outputs[0].type = float_type({2, 5, 24});
    CompiledModel cm(m);
    const Step* step = nullptr;
    for (const Step& s : cm.root().steps())
      if (s.node->op_type == "MatMul") step = &s;
    ASSERT_NE(step, nullptr) << what;
    ASSERT_EQ(step->fused.size(), c.fused) << what;
    ASSERT_TRUE(step->fast) << what;
    NamedValues in = inputs_for(m, 5);
    NamedValues want = Interpreter(m).run(in);
    for (const auto& name : optimized_executor_names()) {
      auto exec = make_executor(m, name);
      expect_close(exec->run(in), want, name + " " + what);
    }
    auto linear = make_optimized_executor(m, "linear");
    linear->run(in);
    const auto& k = linear->kernels_run();
    bool declines = c.bias == Shape{5, 1};  // a column, not a row: the nodes run one by one
    EXPECT_EQ(k.count("onednn:matmul") ? k.at("onednn:matmul") : 0, declines ? 0 : 1) << what;
    // Non-finite inputs: the activation is then computed as the nodes do, NaN where they give NaN.
    NamedValues odd = in;
    float* x = odd.at("X").tensor.data<float>();
    x[0] = std::numeric_limits<float>::quiet_NaN();
    x[17] = std::numeric_limits<float>::infinity();
    x[40] = -std::numeric_limits<float>::infinity();
    NamedValues want_odd = Interpreter(m).run(odd);
    NamedValues got_odd = make_optimized_executor(m, "linear")->run(odd);
    const Tensor& w = want_odd.at("Y").tensor;
    const Tensor& g = got_odd.at("Y").tensor;
    ASSERT_EQ(g.shape(), w.shape()) << what;
    for (int64_t i = 0; i < w.size(); ++i) {
      float a = g.data<float>()[i], e = w.data<float>()[i];
      ASSERT_EQ(std::isnan(a), std::isnan(e)) << what << " element " << i << ": " << a << " vs " << e;
      if (!std::isfinite(e)) EXPECT_TRUE(std::isnan(e) || a == e) << what << " element " << i;
      else EXPECT_NEAR(a, e, 1e-5 + 1e-4 * std::fabs(e)) << what << " element " << i;
    }
  }
}

// The copying kernels of any element type (Where, Pad, Split) run on non-float data too, their
// outputs allocated with the data's type: int64 and bool values through every executor.
TEST(OptimizedExecutors, CopyingKernelsRunOnAnyElementType) {
  GraphBuilder b;
  auto typed = [](DType t, const Shape& s) {
    TypeInfo ti = float_type(s);
    ti.elem = t;
    return ti;
  };
  b.m.graph.inputs.push_back({"C", typed(DType::Bool, {2, 3})});
  b.m.graph.inputs.push_back({"X", typed(DType::Int64, {2, 3})});
  b.m.graph.initializers.emplace_back("Y", Tensor::from_vector<int64_t>({3}, {-7, 8, 9}));
  b.m.graph.initializers.emplace_back("pads", Tensor::from_vector<int64_t>({4}, {1, 0, 0, 2}));
  b.m.graph.initializers.emplace_back("split", Tensor::from_vector<int64_t>({2}, {1, 4}));
  b.node("Where", {"C", "X", "Y"}, {"w"});
  b.node("Pad", {"w", "pads"}, {"p"});
  b.node("Split", {"p", "split"}, {"S0", "S1"}, {int_attr("axis", 1)});
  b.m.graph.outputs.push_back({"S0", typed(DType::Int64, {3, 1})});
  b.m.graph.outputs.push_back({"S1", typed(DType::Int64, {3, 4})});
  NamedValues in;
  in["C"] = Value(Tensor::from_vector<bool>({2, 3}, {true, false, true, false, false, true}));
  in["X"] = Value(Tensor::from_vector<int64_t>({2, 3}, {1, 2, 3, 4, 5, 6}));
  NamedValues want = Interpreter(b.m).run(in);
  for (const auto& name : optimized_executor_names()) {
    NamedValues got = make_executor(b.m, name)->run(in);
    for (const char* out : {"S0", "S1"}) {
      ASSERT_EQ(got.at(out).tensor.dtype(), DType::Int64) << name << " " << out;
      EXPECT_EQ(got.at(out).tensor.to_int64_vector(), want.at(out).tensor.to_int64_vector()) << name << " " << out;
    }
  }
  auto linear = make_optimized_executor(b.m, "linear");
  linear->run(in);
  for (const char* kernel : {"fast:where", "fast:pad", "fast:split"})
    EXPECT_EQ(linear->kernels_run().count(kernel), 1u) << kernel << " did not run";
}

// A Clip fused into a Conv with its upper bound omitted clips as the reference does (ClipParams):
// to float's largest finite value, so an infinite convolution output becomes 3.4e38, not ∞.
TEST(OptimizedExecutors, FusedClipWithAnOmittedBoundClipsInfinity) {
  GraphBuilder b;
  b.m.graph.inputs.push_back({"X", float_type({1, 1, 2, 2})});
  b.m.graph.initializers.emplace_back("W", Tensor::from_vector<float>({1, 1, 1, 1}, {2.0f}));
  b.node("Conv", {"X", "W"}, {"c"});
  b.node("Clip", {"c", scalar_constant(b, "zero", 0, false)}, {"Y"});
  b.m.graph.outputs.push_back({"Y", float_type({1, 1, 2, 2})});
  CompiledModel cm(b.m);
  ASSERT_EQ(cm.root().steps().size(), 1u);
  ASSERT_EQ(cm.root().steps()[0].fused.size(), 1u) << "the Clip is not fused";
  const float inf = std::numeric_limits<float>::infinity(), big = std::numeric_limits<float>::max();
  NamedValues in{{"X", Value(Tensor::from_vector<float>({1, 1, 2, 2}, {1.5f, inf, -inf, -1.0f}))}};
  std::vector<float> want{3.0f, big, 0.0f, 0.0f};
  auto values = [](const NamedValues& out) {
    auto v = out.at("Y").tensor.values<float>();
    return std::vector<float>(v.begin(), v.end());
  };
  EXPECT_EQ(values(Interpreter(b.m).run(in)), want);
  for (const auto& name : optimized_executor_names()) EXPECT_EQ(values(make_executor(b.m, name)->run(in)), want) << name;
}

// Conv → BatchNormalization → hard swish written as Add(y, 3) → Clip(0, 6) → Mul(y, ·) → Div(·, 6)
// (operands in either order, constants as Constant nodes or initializers); `reader`: one more
// node reading that intermediate ("" none), which must keep the nodes apart.
Model decomposed_hard_swish_model(bool as_nodes, bool swapped, const std::string& reader = "") {
  GraphBuilder b;
  b.m.graph.inputs.push_back({"X", float_type({1, 8, 6, 6})});
  b.node("Conv", {"X", b.weight("W", {16, 8, 3, 3}), b.weight("B", {16})}, {"c"}, {ints_attr("pads", {1, 1, 1, 1})});
  b.m.graph.initializers.emplace_back("var", testing::random_float_tensor({16}, b.rng, 0.5f, 2.0f));
  b.node("BatchNormalization", {"c", b.weight("scale", {16}), b.weight("bias", {16}), b.weight("mean", {16}), "var"}, {"y"});
  std::string three = scalar_constant(b, "three", 3, as_nodes), zero = scalar_constant(b, "zero", 0, as_nodes);
  std::string six = scalar_constant(b, "six", 6, as_nodes);
  b.node("Add", swapped ? std::vector<std::string>{three, "y"} : std::vector<std::string>{"y", three}, {"t"});
  b.node("Clip", {"t", zero, six}, {"r"});
  b.node("Mul", swapped ? std::vector<std::string>{"r", "y"} : std::vector<std::string>{"y", "r"}, {"m"});
  b.node("Div", {"m", six}, {"Y"});
  b.m.graph.outputs.push_back({"Y", float_type({1, 16, 6, 6})});
  if (!reader.empty()) {
    b.node("Neg", {reader}, {"Z"});
    b.m.graph.outputs.push_back({"Z", float_type({1, 16, 6, 6})});
  }
  return b.m;
}

// The linear executor runs one fused Conv step and every optimized executor agrees with the
// reference interpreter.
void expect_fused_conv_matches(const Model& m, size_t fused_nodes, const std::string& what) {
  CompiledModel cm(m);
  ASSERT_EQ(cm.root().steps().size(), 1u) << what;
  EXPECT_EQ(cm.root().steps()[0].fused.size(), fused_nodes) << what;
  NamedValues in = inputs_for(m, 11);
  for (auto& [name, v] : in)  // spread the values so the Conv's outputs reach past ±3, where the clip binds
    for (auto& x : v.tensor.values<float>()) x *= 4.0f;
  NamedValues want = Interpreter(m).run(in);
  for (const auto& name : optimized_executor_names()) {
    auto exec = make_executor(m, name);
    expect_close(exec->run(in), want, name + " " + what);
    expect_close(exec->run(in), want, name + " in the arena " + what);
  }
  auto linear = make_optimized_executor(m, "linear");
  linear->run(in);
  const auto& k = linear->kernels_run();
  EXPECT_EQ(k.count("onednn:conv") ? k.at("onednn:conv") : 0, 1) << what;
}

TEST(OptimizedExecutors, FusesTheDecomposedHardSwishIntoTheConv) {
  for (bool as_nodes : {true, false})
    for (bool swapped : {false, true}) {
      std::string what = std::string(as_nodes ? "Constant nodes" : "initializers") + (swapped ? ", swapped operands" : "");
      Model m = decomposed_hard_swish_model(as_nodes, swapped);
      expect_fused_conv_matches(m, 4, what);  // the BatchNormalization is folded, not a fused node
      CompiledModel cm(m);
      const auto& fused = cm.root().steps()[0].fused;
      ASSERT_EQ(fused.size(), 4u);
      EXPECT_EQ(fused[0]->op_type, "Add");
      EXPECT_EQ(fused.back()->op_type, "Div");
    }
}

// Conv → Mul(scalar) → Add(scalar) → hard swish, as PaddlePaddle writes a re-parameterised block:
// the scale and shift fold into the Conv's weights and bias and the hard swish into its post-op,
// one step; a zero scale is not folded.
TEST(OptimizedExecutors, FoldsAScalarScaleAndShiftIntoTheConv) {
  for (float scale : {0.9f, 0.0f}) {
    GraphBuilder b;
    b.m.graph.inputs.push_back({"X", float_type({1, 8, 6, 6})});
    b.node("Conv", {"X", b.weight("W", {16, 8, 3, 3}), b.weight("B", {16})}, {"c"}, {ints_attr("pads", {1, 1, 1, 1})});
    b.m.graph.initializers.emplace_back("s", Tensor::from_vector<float>({1}, {scale}));
    b.m.graph.initializers.emplace_back("sh", Tensor::from_vector<float>({1}, {0.5f}));
    b.node("Mul", {"s", "c"}, {"p"});
    b.node("Add", {"p", "sh"}, {"y"});
    std::string three = scalar_constant(b, "three", 3, true), zero = scalar_constant(b, "zero", 0, true);
    std::string six = scalar_constant(b, "six", 6, true);
    b.node("Add", {"y", three}, {"t"});
    b.node("Clip", {"t", zero, six}, {"r"});
    b.node("Mul", {"y", "r"}, {"m"});
    b.node("Div", {"m", six}, {"Y"});
    b.m.graph.outputs.push_back({"Y", float_type({1, 16, 6, 6})});
    if (scale == 0.0f) {
      CompiledModel cm(b.m);
      EXPECT_GT(cm.root().steps().size(), 1u);
      NamedValues in = inputs_for(b.m, 14);
      expect_close(make_optimized_executor(b.m, "linear")->run(in), Interpreter(b.m).run(in), "zero scale");
      continue;
    }
    expect_fused_conv_matches(b.m, 4, "scale and shift");
    CompiledModel cm(b.m);
    ASSERT_NE(cm.root().steps()[0].folded, nullptr);
    EXPECT_EQ(cm.root().steps()[0].folded->op_type, "Mul");
  }
}

// An intermediate of the hard swish with another reader (or a wrong constant) keeps the nodes
// apart; the result still matches the reference.
TEST(OptimizedExecutors, AHardSwishIntermediateWithAnotherReaderIsNotFused) {
  for (const char* reader : {"y", "t", "r", "m"}) {
    Model m = decomposed_hard_swish_model(true, false, reader);
    CompiledModel cm(m);
    for (const auto& step : cm.root().steps())
      for (const Node* n : step.fused) EXPECT_NE(n->op_type, "Div") << "reader of " << reader;
    NamedValues in = inputs_for(m, 12);
    expect_close(make_optimized_executor(m, "linear")->run(in), Interpreter(m).run(in),
                 std::string("linear, reader of ") + reader);
  }
  Model m = decomposed_hard_swish_model(false, false);
  for (auto& [name, t] : m.graph.initializers)
    if (name == "three") t = Tensor::scalar<float>(2.5f);
  CompiledModel cm(m);
  for (const auto& step : cm.root().steps())
    for (const Node* n : step.fused) EXPECT_NE(n->op_type, "Div") << "Add 2.5 is no hard swish";
}

// y * HardSigmoid(y) after a Conv: fused (hardswish post-op between two scalings) when beta is 1/2;
// another beta, or another reader of the HardSigmoid, keeps the nodes apart.
TEST(OptimizedExecutors, FusesXTimesHardSigmoidIntoTheConv) {
  struct C {
    float alpha, beta;
    bool extra_reader;
    bool fused;
  };
  for (const C& c :
       {C{1.0f / 6, 0.5f, false, true}, C{0.2f, 0.5f, false, true}, C{0.2f, 0.4f, false, false}, C{0.2f, 0.5f, true, false}}) {
    GraphBuilder b;
    b.m.graph.inputs.push_back({"X", float_type({1, 8, 6, 6})});
    b.node("Conv", {"X", b.weight("W", {16, 8, 3, 3}), b.weight("B", {16})}, {"y"}, {ints_attr("pads", {1, 1, 1, 1})});
    Attribute alpha, beta;
    alpha.name = "alpha";
    alpha.type = Attribute::Type::Float;
    alpha.f = c.alpha;
    beta = alpha;
    beta.name = "beta";
    beta.f = c.beta;
    b.node("HardSigmoid", {"y"}, {"h"}, {alpha, beta});
    b.node("Mul", {"y", "h"}, {"Y"});
    b.m.graph.outputs.push_back({"Y", float_type({1, 16, 6, 6})});
    if (c.extra_reader) {
      b.node("Neg", {"h"}, {"Z"});
      b.m.graph.outputs.push_back({"Z", float_type({1, 16, 6, 6})});
    }
    std::string what = "alpha " + std::to_string(c.alpha) + " beta " + std::to_string(c.beta) +
                       (c.extra_reader ? " read twice" : "");
    if (c.fused) {
      expect_fused_conv_matches(b.m, 2, what);
      continue;
    }
    CompiledModel cm(b.m);
    EXPECT_GT(cm.root().steps().size(), 1u) << what;
    NamedValues in = inputs_for(b.m, 13);
    expect_close(make_optimized_executor(b.m, "linear")->run(in), Interpreter(b.m).run(in), "linear " + what);
  }
}

// A Conv output with a third reader is not a swish: the Conv, Sigmoid and Mul stay apart.
TEST(OptimizedExecutors, ASwishInputWithAnotherReaderIsNotFused) {
  GraphBuilder b;
  b.m.graph.inputs.push_back({"X", float_type({1, 8, 6, 6})});
  b.node("Conv", {"X", b.weight("W", {16, 8, 3, 3})}, {"c"}, {ints_attr("pads", {1, 1, 1, 1})});
  b.node("Sigmoid", {"c"}, {"s"});
  b.node("Mul", {"c", "s"}, {"Y"});
  b.node("Neg", {"c"}, {"Z"});
  b.m.graph.outputs.push_back({"Y", float_type({1, 16, 6, 6})});
  b.m.graph.outputs.push_back({"Z", float_type({1, 16, 6, 6})});
  CompiledModel cm(b.m);
  EXPECT_EQ(cm.root().steps().size(), 4u);
  NamedValues in = inputs_for(b.m, 10);
  expect_close(make_optimized_executor(b.m, "linear")->run(in), Interpreter(b.m).run(in), "linear");
}

TEST(OptimizedExecutors, MemoryPlansAreValidForTheirExecutor) {
  Model m = branching_model();
  for (const auto& name : optimized_executor_names())
    for (Planner p : {Planner::GreedyBySize, Planner::FirstFit}) {
      ExecutorOptions o;
      o.threads = 2;
      o.planner = p;
      auto exec = make_optimized_executor(m, name, o);
      const auto& cm = exec->compiled();
      exec->run(inputs_for(m, 1));
      const MemoryPlan& plan = *exec->plan();
      EXPECT_EQ(plan.concurrent, name != "linear");
      EXPECT_EQ(check_memory_plan(cm->root(), plan), "") << name << " " << planner_name(p);
      EXPECT_GE(plan.arena_bytes, plan.lower_bound_bytes);
    }
}

TEST(OptimizedExecutors, ConcurrentPlanSeparatesBranchesThatMayRunTogether) {
  Model m = branching_model();
  ExecutorOptions o;
  o.threads = 2;
  auto exec = make_optimized_executor(m, "parallel", o);
  exec->run(inputs_for(m, 1));
  const CompiledGraph& g = exec->compiled()->root();
  const MemoryPlan& p = *exec->plan();
  // b2a (branch 2's first conv) and p3 (branch 3's pool) have no path between their steps.
  int a = g.slot_of("b2a"), b = g.slot_of("p3");
  ASSERT_GE(p.offset[static_cast<size_t>(a)], 0);
  ASSERT_GE(p.offset[static_cast<size_t>(b)], 0);
  auto ua = static_cast<size_t>(a), ub = static_cast<size_t>(b);
  EXPECT_TRUE(p.offset[ua] + p.bytes[ua] <= p.offset[ub] || p.offset[ub] + p.bytes[ub] <= p.offset[ua]);
}

TEST(ParallelExecutor, OnlyStepsThatNoOtherStepCanRunBesideAreAlone) {
  CompiledModel cm(branching_model());
  const CompiledGraph& g = cm.root();
  auto step_of = [&](const std::string& out) { return g.producer(g.slot_of(out)); };
  EXPECT_TRUE(g.runs_alone(step_of("cat")));  // every branch is before it, Sigmoid after
  EXPECT_TRUE(g.runs_alone(step_of("Y")));
  for (const char* branch : {"b1", "b2a", "b2", "p3", "b3", "b4"}) EXPECT_FALSE(g.runs_alone(step_of(branch))) << branch;
}

TEST(ParallelExecutor, GivesIdenticalResultsOverRepeatedRuns) {
  Model m = branching_model();
  NamedValues in = inputs_for(m, 5);
  ExecutorOptions o;
  o.threads = 2;
  auto exec = make_executor(m, "parallel", o);
  NamedValues first = exec->run(in);
  for (int r = 0; r < 40; ++r) ASSERT_TRUE(exec->run(in) == first) << "run " << r;
}

TEST(ParallelExecutor, SeveralInstancesShareOneCompiledModel) {
  Model m = branching_model();
  auto first = make_optimized_executor(m, "linear");
  std::shared_ptr<const CompiledModel> cm = first->compiled();
  NamedValues in = inputs_for(m, 9);
  NamedValues want = first->run(in);
  std::vector<std::thread> threads;
  std::vector<int> ok(3, 0);
  for (int t = 0; t < 3; ++t)
    threads.emplace_back([&, t] {
      auto exec = make_optimized_executor(cm, t == 0 ? "linear" : t == 1 ? "dataflow" : "parallel");
      bool same = true;
      for (int r = 0; r < 10; ++r) {
        NamedValues got = exec->run(in);
        for (const auto& [k, v] : got)
          if (!(v == want.at(k))) {
            same = false;
            const float* a = v.tensor.data<float>();
            const float* e = want.at(k).tensor.data<float>();
            for (int64_t i = 0; i < v.tensor.size(); ++i)
              if (a[i] != e[i]) {
                ADD_FAILURE() << t << " run " << r << " " << k << "[" << i << "] " << a[i] << " vs " << e[i];
                break;
              }
          }
      }
      ok[static_cast<size_t>(t)] = same;
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(ok, std::vector<int>({1, 1, 1}));
}

TEST(DataflowExecutor, EveryReadyQueuePolicyGivesTheSameBits) {
  Model m = branching_model();
  auto cm = std::make_shared<const CompiledModel>(m);
  NamedValues in = inputs_for(m, 4);
  NamedValues want = make_optimized_executor(cm, "linear")->run(in);
  for (ReadyPolicy p : {ReadyPolicy::LowestIndex, ReadyPolicy::Fifo, ReadyPolicy::Lifo}) {
    DataflowExecutor exec(cm, {}, p);
    EXPECT_TRUE(exec.run(in) == want);
    EXPECT_TRUE(exec.run(in) == want);  // in the arena
  }
}

TEST(OptimizedExecutors, RuntimeErrorsAreTrapsAndTheExecutorRunsAgain) {
  GraphBuilder b;
  b.m.graph.inputs.push_back({"X", float_type({2, 6})});
  b.m.graph.inputs.push_back({"S", TypeInfo{}});
  b.node("Relu", {"X"}, {"r"});
  b.node("Reshape", {"r", "S"}, {"Y"});
  b.m.graph.outputs.push_back({"Y", TypeInfo{}});
  for (const auto& name : optimized_executor_names()) {
    ExecutorOptions o;
    o.threads = 2;
    auto exec = make_executor(b.m, name, o);
    NamedValues in;
    in["X"] = Value(Tensor(DType::Float, {2, 6}));
    in["S"] = Value(Tensor::from_vector<int64_t>({2}, {5, 5}));
    EXPECT_THROW(exec->run(in), Trap) << name;
    in["S"] = Value(Tensor::from_vector<int64_t>({2}, {3, 4}));
    EXPECT_EQ(exec->run(in).at("Y").tensor.shape(), Shape({3, 4})) << name;
    NamedValues missing;
    EXPECT_THROW(exec->run(missing), Trap) << name;
  }
  EXPECT_THROW(make_executor(b.m, "nosuch"), std::invalid_argument);
}

TEST(ExecutorFactory, MakesEveryExecutorByNameAndTheyAgree) {
  Model m = branching_model();
  NamedValues in = inputs_for(m, 11);
  NamedValues want = Interpreter(m).run(in);
  for (const auto& name : executor_names()) {
    ExecutorOptions o;
    o.threads = 2;
    auto exec = make_executor(m, name, o);
    EXPECT_EQ(std::string(exec->name()), name);
    NamedValues got = exec->run(in);
    expect_close(got, want, name);
    EXPECT_TRUE(exec->run(in) == got) << name << ": a second run differs";
  }
  EXPECT_THROW(make_optimized_executor(m, "reference"), std::invalid_argument);
}

TEST(ExecutorFactory, RefusesACompiledModelPreparedForAnotherThreadCount) {
  Model m = branching_model();
  ExecutorOptions two;
  two.threads = 2;
  auto linear2 = make_optimized_executor(m, "linear", two);  // kernels prepared for 2 threads
  EXPECT_THROW(make_optimized_executor(linear2->compiled(), "linear"), std::invalid_argument);
  EXPECT_THROW(make_optimized_executor(linear2->compiled(), "parallel", two), std::invalid_argument);
  EXPECT_NO_THROW(make_optimized_executor(linear2->compiled(), "dataflow", two));
}

// The double-run check is an option: off, the first run is the planning run alone (no arena yet);
// on, the first run is repeated in the planned arena before it returns.
TEST(ExecutorFactory, TheArenaRerunIsAnOption) {
  Model m = branching_model();
  NamedValues in = inputs_for(m, 12);
  for (const auto& name : optimized_executor_names()) {
    auto plain = make_optimized_executor(m, name);
    EXPECT_FALSE(plain->options().verify_arena_run);
    plain->run(in);
    ASSERT_NE(plain->plan(), nullptr) << name;
    EXPECT_EQ(plain->arena_bytes(), 0) << name << ": ran in the arena without being asked to";
    ExecutorOptions o;
    o.verify_arena_run = true;
    auto checked = make_optimized_executor(m, name, o);
    NamedValues got = checked->run(in);
    EXPECT_GT(checked->arena_bytes(), 0) << name << ": the check did not run in the arena";
    expect_close(got, Interpreter(m).run(in), name);
  }
}

TEST(OptimizedExecutors, CountWhichKernelsRanTheSteps) {
  Model m = branching_model();
  auto exec = make_optimized_executor(m, "linear");
  exec->run(inputs_for(m, 13));
  const auto& k = exec->kernels_run();
  ASSERT_TRUE(k.count("onednn:conv")) << "no step ran on the oneDNN convolution";
  EXPECT_EQ(k.at("onednn:conv"), 4);  // the four Conv steps (Relu/Add fused into them)
  int steps = 0;
  for (const auto& [name, n] : k) steps += n;
  EXPECT_EQ(static_cast<size_t>(steps), exec->compiled()->root().steps().size());
}

}  // namespace
}  // namespace sonnx
