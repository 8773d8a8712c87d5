// Contract tests of the fast kernels (optimized/kernels): for each kernel and a set of attribute
// combinations, random float inputs, the fast kernel's outputs must match the reference kernel's
// within rtol 1e-4 / atol 1e-5; requests they cannot serve exactly must give null; inputs that do
// not fit must trap.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <thread>

#include "op_test_util.h"
#include "optimized/kernels/fast_kernel.h"
#include "optimized/kernels/onednn_common.h"

namespace sonnx::testing {
namespace {

TypeInfo kernels_type_of(DType t, const Shape& s, bool known_dims = true) {
  TypeInfo ti;
  ti.kind = TypeInfo::Kind::Tensor;
  ti.elem = t;
  std::vector<Dim> dims;
  for (auto d : s) dims.push_back(known_dims ? Dim{d, ""} : Dim{std::nullopt, "d"});
  ti.shape = dims;
  return ti;
}

Tensor kernels_random_tensor(const Shape& s, std::mt19937& rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  Tensor t(DType::Float, s);
  for (auto& v : t.values<float>()) v = dist(rng);
  return t;
}

struct Case {
  std::string op;
  int64_t opset = 11;
  std::vector<Shape> shapes;  // one per input; an empty-named input has shape {-1}
  std::vector<onnx::AttributeProto> attrs;
  std::set<size_t> constant = {1, 2};  // inputs given as constants
  bool dynamic = false;                // X's declared dims unknown
  std::string act;                     // fused activation
  float lo = 0, hi = 0;
  float alpha = 0, beta = 0;  // of LeakyRelu, Elu, HardSigmoid
  bool sum = false;           // fused sum: one extra input of the output's shape
  int nan_at = -1;            // put a NaN into X at this element
};

struct Prepared {
  Node node;
  std::vector<Tensor> inputs;
  FastKernelRequest request;
};

std::unique_ptr<FastKernel> prepare(const Case& c, Prepared& p, std::mt19937& rng, const Shape& sum_shape = {}) {
  p.node = Node{};
  p.node.op_type = c.op;
  p.node.name = "n";
  p.node.outputs = {"y"};
  for (const auto& a : c.attrs) p.node.attributes.push_back(ir_attr(a));
  p.inputs.clear();
  std::vector<Shape> shapes = c.shapes;
  if (c.sum) shapes.push_back(sum_shape);
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (shapes[i] == Shape{-1}) {
      p.node.inputs.push_back("");
      p.inputs.emplace_back();
      continue;
    }
    p.node.inputs.push_back("in" + std::to_string(i));
    p.inputs.push_back(kernels_random_tensor(shapes[i], rng));
  }
  if (c.nan_at >= 0) p.inputs[0].data<float>()[c.nan_at] = std::numeric_limits<float>::quiet_NaN();
  p.request = FastKernelRequest{};
  p.request.node = &p.node;
  p.request.version = c.opset;
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (!p.inputs[i].defined()) {
      p.request.input_types.emplace_back();
      continue;
    }
    p.request.input_types.push_back(kernels_type_of(DType::Float, shapes[i], !(i == 0 && c.dynamic)));
    if (c.constant.count(i) && !(c.sum && i + 1 == shapes.size())) p.request.constants[p.node.inputs[i]] = &p.inputs[i];
  }
  p.request.fused_activation = c.act;
  p.request.clip_min = c.lo;
  p.request.clip_max = c.hi;
  p.request.alpha = c.alpha;
  p.request.beta = c.beta;
  p.request.fused_sum = c.sum;
  return make_fast_kernel(p.request);
}

std::vector<const Tensor*> pointers(const std::vector<Tensor>& v) {
  std::vector<const Tensor*> r;
  for (const auto& t : v) r.push_back(t.defined() ? &t : nullptr);
  return r;
}

Tensor run_fast(const FastKernel& k, const std::vector<Tensor>& inputs) {
  auto in = pointers(inputs);
  std::vector<Shape> shapes = k.output_shapes(in);
  Tensor y(DType::Float, shapes.at(0));
  std::vector<Tensor*> out = {&y};
  k.run(in, out);
  return y;
}

void expect_close(const Tensor& got, const Tensor& want, const std::string& what) {
  ASSERT_EQ(got.shape(), want.shape()) << what;
  auto g = got.values<float>();
  auto w = want.values<float>();
  int bad = 0;
  for (size_t i = 0; i < g.size(); ++i) {
    if ((std::isnan(w[i]) && std::isnan(g[i])) || g[i] == w[i]) continue;
    double tol = 1e-5 + 1e-4 * std::fabs(static_cast<double>(w[i]));
    if (!(std::fabs(static_cast<double>(g[i]) - w[i]) <= tol)) {
      if (++bad <= 5) ADD_FAILURE() << what << ": element " << i << " got " << g[i] << " want " << w[i];
    }
  }
  EXPECT_EQ(bad, 0) << what;
}

Tensor reference_activation(const Case& c, const Tensor& y_in);

// The reference result of the case (Conv then Add then Relu/Clip for fused convolutions).
Tensor reference(const Case& c, const Prepared& p) {
  std::vector<Value> ins;
  size_t regular = c.shapes.size();
  for (size_t i = 0; i < regular; ++i) ins.push_back(p.inputs[i].defined() ? Value(p.inputs[i]) : Value());
  Value y = run_op(c.op, c.opset, ins, c.attrs).at(0);
  if (c.sum) y = run_op("Add", 14, {y, Value(p.inputs.back())}).at(0);
  return reference_activation(c, y.tensor);
}

// c's fused activation on y as the reference nodes compute it.
Tensor reference_activation(const Case& c, const Tensor& y_in) {
  Value y(y_in);
  if (c.act == "Relu") y = run_op("Relu", 14, {y}).at(0);
  if (c.act == "Clip") y = run_op("Clip", 13, {y, Value(Tensor::scalar<float>(c.lo)), Value(Tensor::scalar<float>(c.hi))}).at(0);
  if (c.act == "Sigmoid" || c.act == "Tanh" || c.act == "HardSwish") y = run_op(c.act, 14, {y}).at(0);
  if (c.act == "LeakyRelu" || c.act == "Elu") y = run_op(c.act, 16, {y}, {attr_float("alpha", c.alpha)}).at(0);
  if (c.act == "HardSigmoid") y = run_op(c.act, 6, {y}, {attr_float("alpha", c.alpha), attr_float("beta", c.beta)}).at(0);
  if (c.act == "Swish") y = run_op("Mul", 14, {y, run_op("Sigmoid", 13, {y}).at(0)}).at(0);
  if (c.act == "DecomposedHardSwish") {  // Add 3 → Clip 0..6 → Mul y → Div 6, node by node
    Value t = run_op("Add", 14, {y, Value(Tensor::scalar<float>(3))}).at(0);
    t = run_op("Clip", 13, {t, Value(Tensor::scalar<float>(0)), Value(Tensor::scalar<float>(6))}).at(0);
    t = run_op("Mul", 14, {y, t}).at(0);
    y = run_op("Div", 14, {t, Value(Tensor::scalar<float>(6))}).at(0);
  }
  if (c.act == "XHardSigmoid")
    y = run_op("Mul", 14, {y, run_op("HardSigmoid", 6, {y}, {attr_float("alpha", c.alpha), attr_float("beta", c.beta)}).at(0)})
            .at(0);
  return y.tensor;
}

void check(const Case& c, const std::string& what) {
  std::mt19937 rng(42);
  Prepared p;
  Shape sum_shape;
  if (c.sum) {  // the output shape, from the unfused reference
    Prepared q;
    Case plain = c;
    plain.sum = false;
    plain.act = "";
    auto k0 = prepare(plain, q, rng);
    ASSERT_TRUE(k0) << what;
    sum_shape = k0->output_shapes(pointers(q.inputs)).at(0);
  }
  auto k = prepare(c, p, rng, sum_shape);
  ASSERT_TRUE(k) << what << ": no fast kernel";
  Tensor got = run_fast(*k, p.inputs);
  Tensor want = reference(c, p);
  expect_close(got, want, what + " [" + k->name() + "]");
}

// Both the fast kernel and the reference kernel refuse the case with a trap naming `fragment`.
void expect_both_trap(const Case& c, const std::string& fragment) {
  auto expect_trap_with = [&](const char* who, auto f) {
    try {
      f();
      ADD_FAILURE() << who << " ran a case it must refuse";
    } catch (const Trap& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << who << ": " << e.what();
    }
  };
  std::mt19937 rng(42);
  Prepared p;
  expect_trap_with("fast kernel", [&] {
    auto k = prepare(c, p, rng);
    if (!k) throw std::runtime_error("no fast kernel");
    run_fast(*k, p.inputs);
  });
  expect_trap_with("reference", [&] { reference(c, p); });
}

onnx::AttributeProto ints(const std::string& n, std::vector<int64_t> v) { return attr_ints(n, v); }

// ---- Conv ----

TEST(FastKernelConv, AttributeCombinations) {
  struct C {
    std::string what;
    Shape x, w;
    std::vector<onnx::AttributeProto> attrs;
    bool bias;
  };
  std::vector<C> cases = {
      {"3x3 pad1 bias", {1, 8, 10, 10}, {16, 8, 3, 3}, {ints("pads", {1, 1, 1, 1})}, true},
      {"3x3 no pad no bias", {2, 3, 9, 7}, {5, 3, 3, 3}, {}, false},
      {"stride2", {1, 8, 11, 11}, {16, 8, 3, 3}, {ints("strides", {2, 2}), ints("pads", {1, 1, 1, 1})}, true},
      {"strides 2x3 asym pads", {1, 4, 12, 13}, {6, 4, 3, 2}, {ints("strides", {2, 3}), ints("pads", {0, 2, 1, 0})}, true},
      {"dilation 2", {1, 4, 12, 12}, {8, 4, 3, 3}, {ints("dilations", {2, 2}), ints("pads", {2, 2, 2, 2})}, true},
      {"dilation 2x3 stride 2", {1, 4, 15, 16}, {8, 4, 3, 3}, {ints("dilations", {2, 3}), ints("strides", {2, 2})}, false},
      {"group 2", {1, 8, 9, 9}, {12, 4, 3, 3}, {attr_int("group", 2), ints("pads", {1, 1, 1, 1})}, true},
      {"group 4 M=8", {2, 8, 7, 7}, {8, 2, 1, 1}, {attr_int("group", 4)}, true},
      {"depthwise", {1, 16, 14, 14}, {16, 1, 3, 3}, {attr_int("group", 16), ints("pads", {1, 1, 1, 1})}, true},
      {"depthwise stride 2",
       {1, 32, 14, 14},
       {32, 1, 3, 3},
       {attr_int("group", 32), ints("pads", {1, 1, 1, 1}), ints("strides", {2, 2})},
       true},
      {"depthwise multiplier 2", {1, 8, 10, 10}, {16, 1, 3, 3}, {attr_int("group", 8)}, false},
      {"SAME_UPPER stride 2",
       {1, 4, 10, 11},
       {8, 4, 4, 3},
       {attr_string("auto_pad", "SAME_UPPER"), ints("strides", {2, 2})},
       true},
      {"SAME_LOWER stride 2",
       {1, 4, 10, 11},
       {8, 4, 4, 3},
       {attr_string("auto_pad", "SAME_LOWER"), ints("strides", {2, 2})},
       true},
      {"SAME_UPPER dilated",
       {1, 4, 9, 9},
       {8, 4, 3, 3},
       {attr_string("auto_pad", "SAME_UPPER"), ints("dilations", {2, 2})},
       true},
      {"VALID", {1, 4, 9, 8}, {8, 4, 3, 3}, {attr_string("auto_pad", "VALID"), ints("strides", {2, 1})}, true},
      {"NOTSET explicit", {1, 4, 9, 8}, {8, 4, 3, 3}, {attr_string("auto_pad", "NOTSET"), ints("pads", {1, 0, 0, 2})}, true},
      {"kernel_shape given", {1, 3, 8, 8}, {4, 3, 2, 2}, {ints("kernel_shape", {2, 2})}, true},
      {"1x1 projection (plain layout)", {1, 96, 8, 8}, {24, 96, 1, 1}, {}, true},
      {"1x1 expansion", {1, 24, 8, 8}, {96, 24, 1, 1}, {}, true},
      {"7x7/2 stem", {1, 3, 32, 32}, {16, 3, 7, 7}, {ints("strides", {2, 2}), ints("pads", {3, 3, 3, 3})}, true},
      {"pad larger than kernel", {1, 2, 5, 5}, {3, 2, 2, 2}, {ints("pads", {3, 3, 3, 3})}, true},
      {"1-D", {2, 4, 20}, {6, 4, 5}, {ints("pads", {2, 1}), ints("strides", {2})}, true},
      {"3-D", {1, 3, 6, 7, 5}, {4, 3, 3, 3, 2}, {ints("pads", {1, 1, 0, 1, 1, 1})}, true},
  };
  for (const auto& k : cases) {
    for (int variant = 0; variant < 4; ++variant) {
      Case c;
      c.op = "Conv";
      c.opset = variant == 3 ? 1 : 11;
      c.shapes = {k.x, k.w};
      if (k.bias) c.shapes.push_back({k.w[0]});
      c.attrs = k.attrs;
      c.dynamic = variant == 1;
      if (variant == 2) c.constant = {};  // W and B as run-time inputs
      check(c, k.what + " variant " + std::to_string(variant));
    }
  }
}

TEST(FastKernelConv, FusedActivationsAndSum) {
  std::vector<std::pair<Shape, Shape>> shapes = {{{1, 8, 10, 10}, {16, 8, 3, 3}},
                                                 {{1, 16, 9, 9}, {16, 1, 3, 3}},
                                                 {{1, 64, 6, 6}, {16, 64, 1, 1}}};
  for (const auto& [x, w] : shapes) {
    for (int f = 0; f < 6; ++f) {
      Case c;
      c.op = "Conv";
      c.shapes = {x, w, {w[0]}};
      c.attrs = {ints("pads", {1, 1, 1, 1})};
      if (w[1] == 1) c.attrs.push_back(attr_int("group", x[1]));
      if (w[2] == 1) c.attrs = {};
      c.act = f % 3 == 0 ? "" : f % 3 == 1 ? "Relu" : "Clip";
      c.lo = -0.5f;
      c.hi = 0.7f;
      c.sum = f >= 3;
      check(c, "fused act='" + c.act + "' sum=" + std::to_string(c.sum) + " w=" + shape_str(w));
      c.dynamic = true;
      check(c, "dynamic fused act='" + c.act + "' sum=" + std::to_string(c.sum) + " w=" + shape_str(w));
    }
  }
  // Sum without bias: the sum is the last input, the bias slot is left out.
  Case c;
  c.op = "Conv";
  c.shapes = {{1, 4, 6, 6}, {8, 4, 3, 3}};
  c.sum = true;
  c.act = "Relu";
  check(c, "sum without bias");
}

// The activations beyond Relu and Clip, as oneDNN post-ops, with and without a fused sum.
TEST(FastKernelConv, MoreFusedActivations) {
  struct Act {
    const char* name;
    float alpha, beta;
  };
  for (const Act& a :
       {Act{"Sigmoid", 0, 0}, Act{"Tanh", 0, 0}, Act{"LeakyRelu", 0.1f, 0}, Act{"Elu", 0.7f, 0}, Act{"HardSigmoid", 0.2f, 0.5f},
        Act{"HardSigmoid", 0.6f, 0.25f}, Act{"HardSwish", 0, 0}, Act{"Swish", 0, 0}, Act{"DecomposedHardSwish", 0, 0},
        Act{"XHardSigmoid", 1.0f / 6, 0.5f}, Act{"XHardSigmoid", 0.2f, 0.5f}})
    for (bool sum : {false, true})
      for (bool dynamic : {false, true}) {
        Case c;
        c.op = "Conv";
        c.shapes = {{1, 8, 10, 10}, {16, 8, 3, 3}, {16}};
        c.attrs = {ints("pads", {1, 1, 1, 1})};
        c.act = a.name;
        c.alpha = a.alpha;
        c.beta = a.beta;
        c.sum = sum;
        c.dynamic = dynamic;
        check(c, std::string("fused ") + a.name + " alpha=" + std::to_string(a.alpha) + " sum=" + std::to_string(sum) +
                     " dynamic=" + std::to_string(dynamic));
      }
}

TEST(FastKernelConv, NaNsStayNaNThroughFusedActivations) {
  for (std::string act : {"Relu", "Clip", "Sigmoid", "LeakyRelu", "HardSwish", "Swish", "DecomposedHardSwish", "XHardSigmoid"}) {
    for (bool sum : {false, true}) {
      Case c;
      c.op = "Conv";
      c.shapes = {{1, 8, 8, 8}, {16, 8, 3, 3}, {16}};
      c.attrs = {ints("pads", {1, 1, 1, 1})};
      c.act = act;
      c.lo = 0;
      c.alpha = 0.1f;
      c.beta = act == "XHardSigmoid" ? 0.5f : 0.0f;
      c.hi = 6;
      c.sum = sum;
      c.nan_at = 27;
      check(c, "NaN with " + act);
    }
  }
}

// oneDNN's hardswish post-op (x·clip(x + 3, 0, 6)/6) differs from the nodes Add → Clip → Mul → Div
// by rounding only, even where the clip bounds bind; x·HardSigmoid(x) with beta ≠ 1/2 or alpha ≤ 0
// has no post-op form and is declined; non-finite data takes the exact loop, bit for bit.
TEST(FastKernelConv, FusedHardSwishForms) {
  for (float scale : {1.0f, 8.0f})  // 8: many outputs beyond ±3, where the clip binds
    for (const char* act : {"DecomposedHardSwish", "XHardSigmoid"}) {
      Case c;
      c.op = "Conv";
      c.shapes = {{1, 8, 10, 10}, {16, 8, 3, 3}, {16}};
      c.attrs = {ints("pads", {1, 1, 1, 1})};
      c.act = act;
      c.alpha = 1.0f / (6.0f * scale);
      c.beta = 0.5f;
      std::mt19937 rng(5);
      Prepared p;
      auto k = prepare(c, p, rng);
      ASSERT_TRUE(k) << act;
      for (auto& v : p.inputs[0].values<float>()) v *= scale;
      expect_close(run_fast(*k, p.inputs), reference(c, p), std::string(act) + " scale " + std::to_string(scale));
      p.inputs[0].data<float>()[0] = std::numeric_limits<float>::infinity();
      Tensor got = run_fast(*k, p.inputs), want = reference(c, p);
      expect_close(got, want, std::string(act) + " with inf");
      // The exact loop on the Conv's own result: equal bits to the nodes run on that same result.
      Case plain = c;
      plain.act = "";
      Tensor y = reference(plain, p);
      Tensor fused_once = y;
      fast::Activation a;
      FastKernelRequest r;
      r.fused_activation = act;
      r.alpha = c.alpha;
      r.beta = c.beta;
      ASSERT_TRUE(fast::read_activation(r, a));
      a.apply(fused_once.data<float>(), fused_once.size());
      Tensor nodes = reference_activation(c, y);
      ASSERT_EQ(std::memcmp(fused_once.raw(), nodes.raw(), static_cast<size_t>(y.size()) * sizeof(float)), 0) << act;
    }
  for (float alpha : {0.2f, -0.2f, 0.0f}) {
    Case c;
    c.op = "Conv";
    c.shapes = {{1, 8, 10, 10}, {16, 8, 3, 3}, {16}};
    c.act = "XHardSigmoid";
    c.alpha = alpha;
    c.beta = alpha == 0.2f ? 0.4f : 0.5f;
    std::mt19937 rng(5);
    Prepared p;
    EXPECT_FALSE(prepare(c, p, rng)) << "alpha " << alpha << " beta " << c.beta;
  }
}

TEST(FastKernelConv, SafeFromSeveralThreads) {
  std::mt19937 rng(7);
  Case c;
  c.op = "Conv";
  c.shapes = {{1, 16, 12, 12}, {32, 16, 3, 3}, {32}};
  c.attrs = {ints("pads", {1, 1, 1, 1})};
  c.dynamic = true;
  Prepared p;
  auto k = prepare(c, p, rng);
  ASSERT_TRUE(k);
  Tensor want = reference(c, p);
  std::vector<Tensor> results(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 10; ++i) results[t] = run_fast(*k, p.inputs);
    });
  for (auto& t : threads) t.join();
  for (const auto& r : results) expect_close(r, want, "threaded");
}

TEST(FastKernelConv, TrapsOnInputsThatDoNotFit) {
  std::mt19937 rng(3);
  Case c;
  c.op = "Conv";
  c.shapes = {{1, 8, 10, 10}, {16, 8, 3, 3}, {16}};
  c.dynamic = true;
  Prepared p;
  auto k = prepare(c, p, rng);
  ASSERT_TRUE(k);
  std::vector<Tensor> in = p.inputs;
  in[0] = Tensor(DType::Float, {1, 6, 10, 10});  // channel mismatch
  EXPECT_THROW(k->output_shapes(pointers(in)), Trap);
  in[0] = Tensor(DType::Float, {8, 10, 10});  // wrong rank
  EXPECT_THROW(k->output_shapes(pointers(in)), Trap);
  in[0] = Tensor(DType::Float, {1, 8, 2, 2});  // window does not fit
  EXPECT_THROW(k->output_shapes(pointers(in)), Trap);
  in[0] = Tensor(DType::Double, {1, 8, 10, 10});
  EXPECT_THROW(k->output_shapes(pointers(in)), Trap);
}

TEST(FastKernelConv, DeclinesWhatItCannotServeExactly) {
  Node n;
  n.op_type = "Conv";
  n.inputs = {"x", "w"};
  n.outputs = {"y"};
  Tensor w(DType::Double, {4, 3, 3, 3});
  FastKernelRequest r;
  r.node = &n;
  r.version = 11;
  r.constants = {{"w", &w}};
  r.input_types = {kernels_type_of(DType::Double, {1, 3, 8, 8}), kernels_type_of(DType::Double, {4, 3, 3, 3})};
  EXPECT_EQ(make_fast_kernel(r), nullptr) << "float64 Conv";
  Tensor wf(DType::Float, {4, 3, 3, 3});
  r.constants = {{"w", &wf}};
  r.input_types = {kernels_type_of(DType::Float, {1, 3, 8, 8}), kernels_type_of(DType::Float, {4, 3, 3, 3})};
  EXPECT_NE(make_fast_kernel(r), nullptr);
  r.fused_activation = "Softsign";
  EXPECT_EQ(make_fast_kernel(r), nullptr) << "unknown fused activation";
  r.fused_activation = "";
  n.attributes.push_back(ir_attr(attr_string("auto_pad", "BOGUS")));
  EXPECT_EQ(make_fast_kernel(r), nullptr) << "bad auto_pad";
}

// ---- Gemm / MatMul ----

TEST(FastKernelGemm, AttributeCombinations) {
  struct C {
    std::string what;
    Shape a, b, c;  // c {-2}: no C
    std::vector<onnx::AttributeProto> attrs;
    int64_t opset;
  };
  std::vector<C> cases = {
      {"plain", {5, 7}, {7, 3}, {-2}, {}, 13},
      {"transA", {7, 5}, {7, 3}, {5, 3}, {attr_int("transA", 1)}, 13},
      {"transB", {5, 7}, {3, 7}, {3}, {attr_int("transB", 1)}, 13},
      {"transA transB alpha beta",
       {7, 5},
       {3, 7},
       {5, 1},
       {attr_int("transA", 1), attr_int("transB", 1), attr_float("alpha", 0.5f), attr_float("beta", 2.0f)},
       11},
      {"C scalar", {4, 6}, {6, 8}, {}, {attr_float("beta", -1.5f)}, 13},
      {"C [1,1]", {4, 6}, {6, 8}, {1, 1}, {}, 9},
      {"C [1,N]", {4, 6}, {6, 8}, {1, 8}, {attr_float("alpha", 3.0f)}, 7},
      {"C [M,1]", {4, 6}, {6, 8}, {4, 1}, {}, 13},
      {"legacy broadcast", {4, 6}, {6, 8}, {8}, {attr_int("broadcast", 1)}, 6},
      {"legacy full C", {4, 6}, {6, 8}, {4, 8}, {}, 6},
      {"fc 1x512->1000", {1, 512}, {1000, 512}, {1000}, {attr_int("transB", 1)}, 13},
      {"larger", {64, 300}, {300, 129}, {129}, {}, 13},
  };
  for (const auto& k : cases) {
    for (int variant = 0; variant < 3; ++variant) {
      Case c;
      c.op = "Gemm";
      c.opset = k.opset;
      c.shapes = {k.a, k.b};
      if (k.c != Shape{-2}) c.shapes.push_back(k.c);
      c.attrs = k.attrs;
      c.dynamic = variant == 1;
      if (variant == 2) c.constant = {};
      check(c, "Gemm " + k.what + " variant " + std::to_string(variant));
    }
  }
}

TEST(FastKernelGemm, TrapsAndDeclines) {
  std::mt19937 rng(5);
  Case c;
  c.op = "Gemm";
  c.opset = 13;
  c.shapes = {{4, 6}, {6, 8}, {8}};
  c.dynamic = true;
  c.constant = {};
  Prepared p;
  auto k = prepare(c, p, rng);
  ASSERT_TRUE(k);
  std::vector<Tensor> in = p.inputs;
  in[0] = Tensor(DType::Float, {4, 5});
  EXPECT_THROW(k->output_shapes(pointers(in)), Trap) << "inner dimension";
  in[0] = Tensor(DType::Float, {4, 6});
  in[2] = Tensor(DType::Float, {3});
  EXPECT_THROW(k->output_shapes(pointers(in)), Trap) << "C broadcast";
  in[2] = Tensor(DType::Float, {2, 4, 8});
  EXPECT_THROW(k->output_shapes(pointers(in)), Trap) << "C rank";
  // Legacy Gemm with broadcast=0 needs a full C.
  Case l = c;
  l.opset = 6;
  Prepared q;
  auto kl = prepare(l, q, rng);
  ASSERT_TRUE(kl);
  EXPECT_THROW(kl->output_shapes(pointers(q.inputs)), Trap);
}

TEST(FastKernelMatMul, Shapes) {
  std::vector<std::pair<Shape, Shape>> cases = {{{5, 7}, {7, 3}},          {{2, 3, 5, 7}, {7, 4}}, {{3, 5, 7}, {3, 7, 2}},
                                                {{2, 1, 5, 7}, {3, 7, 2}}, {{5, 7}, {2, 7, 3}},    {{1, 256}, {256, 1000}}};
  for (const auto& [a, b] : cases)
    for (int variant = 0; variant < 3; ++variant) {
      Case c;
      c.op = "MatMul";
      c.opset = 13;
      c.shapes = {a, b};
      c.dynamic = variant == 1;
      c.constant = variant == 2 ? std::set<size_t>{} : std::set<size_t>{1};
      check(c, "MatMul " + shape_str(a) + " x " + shape_str(b) + " variant " + std::to_string(variant));
    }
}

// A constant B that worth_packing() selects (a single-row A, a transposed B, rows 4 KiB apart) is
// copied into oneDNN's blocked layout once, when the kernel is prepared: the product still matches
// the reference, the same B at another address is read as it is, and a change to the constant's
// bytes after preparation does not reach the result (the packed copy is what runs).
TEST(FastKernelGemm, PackedConstantBIsCopiedOnceAndMatchesTheReference) {
  struct C {
    std::string op;
    Shape a, b;
    std::vector<onnx::AttributeProto> attrs;
  };
  std::vector<C> cases = {
      {"Gemm", {1, 96}, {40, 96}, {attr_int("transB", 1)}},
      {"Gemm", {6, 96}, {40, 96}, {attr_int("transB", 1), attr_float("alpha", 0.5f)}},
      {"MatMul", {1, 64}, {64, 48}, {}},
      {"MatMul", {2, 5, 64}, {64, 1024}, {}},
  };
  for (const auto& k : cases) {
    std::string what = k.op + " " + shape_str(k.a) + " x " + shape_str(k.b);
    std::mt19937 rng(11);
    Case c;
    c.op = k.op;
    c.opset = 13;
    c.shapes = {k.a, k.b};
    c.attrs = k.attrs;
    c.constant = {1};
    Prepared p;
    auto kernel = prepare(c, p, rng);
    ASSERT_TRUE(kernel) << what;
    Tensor want = reference(c, p);
    expect_close(run_fast(*kernel, p.inputs), want, what + " packed");
    std::vector<Tensor> elsewhere = {p.inputs[0], Tensor(DType::Float, p.inputs[1].shape())};
    std::copy_n(p.inputs[1].data<float>(), p.inputs[1].size(), elsewhere[1].data<float>());
    expect_close(run_fast(*kernel, elsewhere), want, what + " B at another address");
    for (auto& v : p.inputs[1].values<float>()) v = -v;
    expect_close(run_fast(*kernel, p.inputs), want, what + " packed at preparation");
    // Held (FastKernel::hold_input): the packed copy is B's only copy. The plain values come
    // back bit for bit, a Tensor::held in B's place runs the packed product, and a plain B is
    // still read as it is.
    ASSERT_FALSE(kernel->hold_input(0)) << what;
    ASSERT_TRUE(kernel->hold_input(1)) << what;
    EXPECT_EQ(kernel->plain_input(1), elsewhere[1]) << what;
    std::vector<Tensor> held = {p.inputs[0], Tensor::held(DType::Float, k.b)};
    expect_close(run_fast(*kernel, held), want, what + " held");
    expect_close(run_fast(*kernel, elsewhere), want, what + " held, a plain B given");
    EXPECT_THROW(held[1].data<float>(), InternalError) << what << ": a held tensor has no values to read";
  }
}

// ---- Pooling and BatchNormalization ----

TEST(FastKernelPool, MaxAndAverageVariants) {
  struct C {
    std::string what;
    Shape x;
    std::vector<onnx::AttributeProto> attrs;
  };
  std::vector<C> cases = {
      {"3x3/2 pad1", {1, 4, 11, 11}, {ints("kernel_shape", {3, 3}), ints("strides", {2, 2}), ints("pads", {1, 1, 1, 1})}},
      {"2x2", {2, 3, 8, 9}, {ints("kernel_shape", {2, 2})}},
      {"asym pads", {1, 2, 7, 8}, {ints("kernel_shape", {3, 2}), ints("pads", {2, 0, 1, 1})}},
      {"ceil_mode", {1, 2, 8, 8}, {ints("kernel_shape", {3, 3}), ints("strides", {2, 2}), attr_int("ceil_mode", 1)}},
      {"ceil_mode pads",
       {1, 2, 9, 10},
       {ints("kernel_shape", {3, 3}), ints("strides", {2, 2}), ints("pads", {1, 1, 1, 1}), attr_int("ceil_mode", 1)}},
      {"SAME_UPPER",
       {1, 2, 9, 10},
       {ints("kernel_shape", {3, 2}), ints("strides", {2, 3}), attr_string("auto_pad", "SAME_UPPER")}},
      {"SAME_LOWER",
       {1, 2, 9, 10},
       {ints("kernel_shape", {3, 2}), ints("strides", {2, 3}), attr_string("auto_pad", "SAME_LOWER")}},
      {"VALID", {1, 2, 9, 10}, {ints("kernel_shape", {3, 3}), ints("strides", {2, 2}), attr_string("auto_pad", "VALID")}},
      {"1-D", {2, 3, 15}, {ints("kernel_shape", {4}), ints("strides", {3}), ints("pads", {1, 2})}},
  };
  for (const auto& k : cases) {
    for (int opset : {1, 7, 10, 12}) {
      bool ceil = false;
      for (auto& a : k.attrs) ceil |= a.name() == "ceil_mode";
      if (ceil && opset < 10) continue;
      Case c;
      c.op = "MaxPool";
      c.opset = opset;
      c.shapes = {k.x};
      c.attrs = k.attrs;
      check(c, "MaxPool " + k.what + " opset " + std::to_string(opset));
      c.dynamic = true;
      c.nan_at = 5;
      check(c, "MaxPool NaN " + k.what);
      c.nan_at = -1;
      c.op = "AveragePool";
      for (int inc : {0, 1}) {
        if (opset < 7 && inc) continue;
        Case a = c;
        a.attrs.push_back(attr_int("count_include_pad", inc));
        if (opset < 7) a.attrs.pop_back();
        check(a, "AveragePool " + k.what + " count_include_pad=" + std::to_string(inc) + " opset " + std::to_string(opset));
      }
    }
  }
  // MaxPool dilations (opset 10+).
  Case d;
  d.op = "MaxPool";
  d.opset = 12;
  d.shapes = {{1, 2, 12, 12}};
  d.attrs = {ints("kernel_shape", {3, 3}), ints("dilations", {2, 2}), ints("pads", {1, 1, 1, 1})};
  check(d, "MaxPool dilated");
  // A window wholly in the padding has no maximum: the fast kernel traps as the reference does
  // (spec/ops/MaxPool.md).
  d.attrs = {ints("kernel_shape", {2, 2}), ints("pads", {3, 3, 0, 0})};
  expect_both_trap(d, "lies in the padding");
}

TEST(FastKernelPool, GlobalAverage) {
  for (Shape x : std::vector<Shape>{{1, 8, 7, 7}, {2, 3, 5}, {2, 4}, {1, 2, 3, 4, 5}}) {
    Case c;
    c.op = "GlobalAveragePool";
    c.opset = 1;
    c.shapes = {x};
    check(c, "GlobalAveragePool " + shape_str(x));
  }
}

TEST(FastKernelPool, Declines) {
  Node n;
  n.op_type = "MaxPool";
  n.inputs = {"x"};
  n.outputs = {"y", "i"};
  n.attributes.push_back(ir_attr(ints("kernel_shape", {2, 2})));
  FastKernelRequest r;
  r.node = &n;
  r.version = 12;
  r.input_types = {kernels_type_of(DType::Float, {1, 3, 8, 8})};
  EXPECT_EQ(make_fast_kernel(r), nullptr) << "MaxPool with Indices";
  n.outputs = {"y", ""};
  EXPECT_NE(make_fast_kernel(r), nullptr) << "MaxPool with the Indices output omitted";
  r.input_types = {kernels_type_of(DType::Double, {1, 3, 8, 8})};
  EXPECT_EQ(make_fast_kernel(r), nullptr) << "float64 MaxPool";
}

TEST(FastKernelBatchNorm, InferenceForms) {
  for (Shape x : std::vector<Shape>{{2, 6, 5, 4}, {3, 4}, {2, 3, 7}}) {
    for (int64_t opset : {7, 9, 14, 15}) {
      Case c;
      c.op = "BatchNormalization";
      c.opset = opset;
      int64_t ch = x[1];
      c.shapes = {x, {ch}, {ch}, {ch}, {ch}};
      c.constant = {1, 2, 3, 4};
      c.attrs = {attr_float("epsilon", 1e-3f)};
      // var must be non-negative: the random generator gives [-1, 1), so shift it in the test.
      std::mt19937 rng(11);
      Prepared p;
      auto k = prepare(c, p, rng);
      ASSERT_TRUE(k) << shape_str(x) << " opset " << opset;
      for (auto& v : p.inputs[4].values<float>()) v = std::fabs(v) + 0.1f;
      Tensor got = run_fast(*k, p.inputs);
      expect_close(got, reference(c, p), "BatchNormalization " + shape_str(x) + " opset " + std::to_string(opset));
    }
  }
  // Training outputs and spatial=0 are declined.
  Node n;
  n.op_type = "BatchNormalization";
  n.inputs = {"x", "s", "b", "m", "v"};
  n.outputs = {"y", "rm", "rv"};
  FastKernelRequest r;
  r.node = &n;
  r.version = 14;
  for (int i = 0; i < 5; ++i) r.input_types.push_back(kernels_type_of(DType::Float, i == 0 ? Shape{1, 2, 3} : Shape{2}));
  EXPECT_EQ(make_fast_kernel(r), nullptr);
  n.outputs = {"y"};
  EXPECT_NE(make_fast_kernel(r), nullptr);
  r.version = 7;
  n.attributes.push_back(ir_attr(attr_int("spatial", 0)));
  EXPECT_EQ(make_fast_kernel(r), nullptr);
}

}  // namespace
}  // namespace sonnx::testing
