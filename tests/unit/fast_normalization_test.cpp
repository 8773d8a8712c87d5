// The fast Softmax/LogSoftmax, ReduceSum/Mean/Max, LayerNormalization, InstanceNormalization and
// GroupNormalization kernels (optimized/kernels/softmax.cpp, reduce.cpp, normalization.cpp)
// against the reference kernels on random shapes of rank 2-4, every axis (negative ones too), with
// NaN and infinity in the data. The kernels do the reference's arithmetic in the same order, so
// the bound is 0 ULP: bitwise equal, any NaN matching any NaN; Softmax/LogSoftmax 1 ULP, as their
// exp is a vectorised polynomial (a result within ~1e-15 of a rounding boundary may round apart). Also: what they decline, and the decomposed layer
// normalization run as one step by the linear executor against the reference interpreter.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <set>

#include "op_test_util.h"
#include "optimized/exec/make_executor.h"
#include "optimized/kernels/fast_kernel.h"
#include "optimized/plan/compiled_model.h"
#include "tensor_test_util.h"

namespace sonnx::testing {
namespace {

constexpr float kNormNaN = std::numeric_limits<float>::quiet_NaN();

// Distance in units in the last place between two floats; NaN matches NaN only.
int64_t ulps(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : INT64_MAX;
  if (a == b) return 0;
  auto key = [](float f) {
    int32_t i;
    std::memcpy(&i, &f, sizeof i);
    return i < 0 ? static_cast<int64_t>(INT32_MIN) - i : static_cast<int64_t>(i);
  };
  return std::llabs(key(a) - key(b));
}

void expect_ulps(const Tensor& got, const Tensor& want, int64_t bound, const std::string& what) {
  ASSERT_EQ(got.shape(), want.shape()) << what;
  ASSERT_EQ(want.dtype(), DType::Float) << what;
  for (int64_t i = 0; i < want.size(); ++i)
    ASSERT_LE(ulps(got.data<float>()[i], want.data<float>()[i]), bound)
        << what << " [" << i << "]: " << got.data<float>()[i] << " vs " << want.data<float>()[i];
}

// Random values in [-3, 3]; with `specials`, a NaN, +inf and -inf at scattered places.
Tensor data(const Shape& s, std::mt19937& rng, bool specials) {
  Tensor t = random_float_tensor(s, rng, -3, 3);
  if (specials && t.size() > 8) {
    t.data<float>()[t.size() / 3] = kNormNaN;
    t.data<float>()[t.size() / 2] = kInf;
    t.data<float>()[t.size() - 2] = -kInf;
  }
  return t;
}

// One node, its request (declared float inputs, `constant` inputs given as constants) and the
// reference's attributes.
struct OneNode {
  Node node;
  FastKernelRequest req;
  std::vector<onnx::AttributeProto> attrs;
  std::vector<Tensor> inputs;
  int64_t opset;
  OneNode(const std::string& op, int64_t version, std::vector<Tensor> in, std::vector<onnx::AttributeProto> a = {},
          std::set<size_t> constant = {}, size_t outputs = 1)
      : attrs(std::move(a)), inputs(std::move(in)), opset(version) {
    node.op_type = op;
    node.name = "n";
    for (size_t i = 0; i < inputs.size(); ++i) {
      node.inputs.push_back(inputs[i].defined() ? "in" + std::to_string(i) : "");
      TypeInfo t = float_type(inputs[i].shape());
      t.elem = inputs[i].dtype();
      req.input_types.push_back(t);
      if (constant.count(i)) req.constants[node.inputs.back()] = &inputs[i];
    }
    for (size_t k = 0; k < outputs; ++k) node.outputs.push_back("out" + std::to_string(k));
    for (const auto& p : attrs) node.attributes.push_back(ir_attr(p));
    req.node = &node;
    req.version = version;
  }
  std::unique_ptr<FastKernel> kernel() const { return make_fast_kernel(req); }
  std::vector<Tensor> fast() const {
    auto k = kernel();
    EXPECT_NE(k, nullptr) << node.op_type;
    if (!k) return {};
    std::vector<const Tensor*> in;
    for (const auto& t : inputs) in.push_back(t.defined() ? &t : nullptr);
    std::vector<Tensor> out;
    for (const auto& s : k->output_shapes(in)) out.emplace_back(DType::Float, s);
    std::vector<Tensor*> ptrs;
    for (auto& t : out) ptrs.push_back(&t);
    k->run(in, ptrs);
    return out;
  }
  std::vector<Tensor> reference() const {
    std::vector<Value> in;
    for (const auto& t : inputs) in.push_back(t.defined() ? Value(t) : Value());
    std::vector<Tensor> out;
    for (auto& v : run_op(node.op_type, opset, in, attrs, node.outputs.size())) out.push_back(v.tensor);
    return out;
  }
  void check(int64_t bound, const std::string& what) const {
    std::vector<Tensor> got = fast(), want = reference();
    ASSERT_EQ(got.size(), want.size()) << what;
    for (size_t k = 0; k < got.size(); ++k) expect_ulps(got[k], want[k], bound, what + " output " + std::to_string(k));
  }
};

const std::vector<Shape> kShapes{{7, 33}, {3, 5, 17}, {2, 3, 4, 9}, {4, 1, 6}, {2, 0, 3}};

std::string describe(const Shape& s, const std::string& more) { return shape_str(s) + " " + more; }

TEST(FastSoftmax, MatchesTheReferenceOnEveryAxisAndVersion) {
  std::mt19937 rng(1);
  for (const char* op : {"Softmax", "LogSoftmax"})
    for (int64_t version : {11, 13})
      for (const Shape& s : kShapes)
        for (int64_t axis = -static_cast<int64_t>(s.size()); axis < static_cast<int64_t>(s.size()); ++axis)
          for (bool specials : {false, true}) {
            OneNode n(op, version, {data(s, rng, specials)}, {attr_int("axis", axis)});
            n.check(1, describe(s, std::string(op) + "-" + std::to_string(version) + " axis " + std::to_string(axis)));
          }
}

TEST(FastSoftmax, DefaultAxisAndLargeValues) {
  std::mt19937 rng(2);
  for (int64_t version : {11, 13}) {
    Tensor x = random_float_tensor({3, 4, 50}, rng, -100, 100);  // exp would overflow without the max
    x.data<float>()[5] = -kInf;
    OneNode a("Softmax", version, {x});
    a.check(1, "Softmax default axis");
    OneNode b("LogSoftmax", version, {x});
    b.check(1, "LogSoftmax default axis");
  }
  // A line of -inf alone is NaN (as the reference: -inf - -inf).
  Tensor all_minus_inf = Tensor::from_vector<float>({2, 3}, {-kInf, -kInf, -kInf, 1, 2, 3});
  OneNode c("Softmax", 13, {all_minus_inf});
  c.check(1, "all -inf");
}

// Many values over the whole range of exp, down to where it underflows.
TEST(FastSoftmax, WithinOneUlpOverTheWholeRangeOfExp) {
  std::mt19937 rng(12);
  for (float spread : {1.0f, 30.0f, 200.0f, 1000.0f}) {
    OneNode n("Softmax", 13, {random_float_tensor({64, 500}, rng, -spread, spread)});
    n.check(1, "spread " + std::to_string(spread));
    OneNode middle("Softmax", 13, {random_float_tensor({8, 300, 5}, rng, -spread, spread)}, {attr_int("axis", 1)});
    middle.check(1, "middle axis, spread " + std::to_string(spread));
  }
}

TEST(FastSoftmax, TrapsOnAnAxisOutOfRange) {
  Tensor x(DType::Float, {2, 3});
  OneNode n("Softmax", 13, {x}, {attr_int("axis", 2)});
  auto k = n.kernel();
  ASSERT_NE(k, nullptr);
  EXPECT_THROW(k->output_shapes({&x}), Trap);
}

struct ReduceCase {
  std::vector<int64_t> axes;
  bool keepdims;
};

TEST(FastReduce, MatchesTheReferenceWithAxesAsAttributeOrConstantInput) {
  std::mt19937 rng(3);
  const std::vector<std::vector<int64_t>> axes_sets{{}, {0}, {1}, {-1}, {0, 2}, {1, -1}, {-3, -1}, {0, 1, 2}};
  struct Op {
    const char* name;
    int64_t attr_version, input_version;
  };
  for (Op op : {Op{"ReduceSum", 11, 13}, Op{"ReduceMean", 13, 18}, Op{"ReduceMax", 13, 18}})
    for (const Shape& s : kShapes)
      for (const auto& axes : axes_sets) {
        auto r = static_cast<int64_t>(s.size());
        std::set<int64_t> seen;
        bool fits = true;
        for (int64_t a : axes) fits = fits && a < r && a >= -r && seen.insert(a < 0 ? a + r : a).second;
        if (!fits) continue;
        for (int keep : {0, 1})
          for (bool specials : {false, true}) {
            Tensor x = data(s, rng, specials);
            std::string what = describe(s, std::string(op.name) + " keepdims " + std::to_string(keep) + " axes " +
                                               std::to_string(axes.size()) +
                                               (axes.empty() ? "" : " first " + std::to_string(axes[0])));
            std::vector<onnx::AttributeProto> attrs{attr_int("keepdims", keep)};
            if (!axes.empty()) attrs.push_back(attr_ints("axes", axes));
            OneNode a(op.name, op.attr_version, {x}, attrs);
            a.check(0, what + " (attribute)");
            Tensor ax = Tensor::from_vector<int64_t>({static_cast<int64_t>(axes.size())}, axes);
            OneNode b(op.name, op.input_version, {x, ax}, {attr_int("keepdims", keep)}, {1});
            b.check(0, what + " (input)");
          }
      }
}

TEST(FastReduce, NoopWithEmptyAxesAndOmittedAxes) {
  std::mt19937 rng(4);
  Tensor x = data({3, 4, 5}, rng, true);
  for (const char* op : {"ReduceSum", "ReduceMean", "ReduceMax"}) {
    int64_t v = std::string(op) == "ReduceSum" ? 13 : 18;
    Tensor empty = Tensor::from_vector<int64_t>({0}, {});
    OneNode noop(op, v, {x, empty}, {attr_int("noop_with_empty_axes", 1)}, {1});
    noop.check(0, std::string(op) + " noop");
    OneNode all(op, v, {x, empty}, {}, {1});
    all.check(0, std::string(op) + " all axes");
    OneNode omitted(op, v, {x, Tensor()}, {attr_int("keepdims", 0)});
    omitted.check(0, std::string(op) + " omitted axes");
  }
}

TEST(FastReduce, EmptyGroups) {
  Tensor x(DType::Float, {2, 0, 3});
  for (const char* op : {"ReduceSum", "ReduceMean", "ReduceMax"}) {
    OneNode n(op, std::string(op) == "ReduceSum" ? 11 : 13, {x}, {attr_ints("axes", {1})});  // 0, NaN, -inf per group
    n.check(0, op);
  }
}

TEST(FastReduce, DeclinesAxesThatAreNotConstantAndOtherTypes) {
  Tensor x(DType::Float, {2, 3});
  Tensor ax = Tensor::from_vector<int64_t>({1}, {1});
  OneNode dynamic_axes("ReduceMean", 18, {x, ax});  // axes not a constant
  EXPECT_EQ(dynamic_axes.kernel(), nullptr);
  OneNode constant_axes("ReduceMean", 18, {x, ax}, {}, {1});
  EXPECT_NE(constant_axes.kernel(), nullptr);
  Tensor xi(DType::Int64, {2, 3});
  OneNode ints("ReduceSum", 11, {xi});
  EXPECT_EQ(ints.kernel(), nullptr);
  OneNode softmax_ints("Softmax", 13, {xi});
  EXPECT_EQ(softmax_ints.kernel(), nullptr);
}

TEST(FastReduce, TrapsOnARepeatedAxis) {
  Tensor x(DType::Float, {2, 3});
  OneNode n("ReduceSum", 11, {x}, {attr_ints("axes", {1, -1})});
  auto k = n.kernel();
  ASSERT_NE(k, nullptr);
  EXPECT_THROW(k->output_shapes({&x}), Trap);
}

TEST(FastLayerNorm, MatchesTheReferenceOnEveryAxisWithAndWithoutBias) {
  std::mt19937 rng(5);
  for (const Shape& s : kShapes) {
    auto r = static_cast<int64_t>(s.size());
    for (int64_t axis = -r; axis < r; ++axis) {
      size_t a = static_cast<size_t>(axis < 0 ? axis + r : axis);
      Shape tail(s.begin() + static_cast<std::ptrdiff_t>(a), s.end());
      Shape one_tail = tail;
      one_tail.insert(one_tail.begin(), 1);  // a leading 1 broadcasts too
      Shape last{s.back()};                  // varies along the last axis only
      for (const Shape& ps : {tail, one_tail, last})
        for (bool bias : {false, true})
          for (size_t outputs : {1, 3}) {
            if (ps.size() > s.size()) continue;
            std::vector<Tensor> in{data(s, rng, bias), random_float_tensor(ps, rng)};
            if (bias) in.push_back(random_float_tensor(ps, rng));
            OneNode n("LayerNormalization", 17, in, {attr_int("axis", axis), attr_float("epsilon", 1e-3f)}, {}, outputs);
            n.check(0, describe(s, "axis " + std::to_string(axis) + " scale " + shape_str(ps) + (bias ? " bias" : "") +
                                       " outputs " + std::to_string(outputs)));
          }
    }
  }
}

TEST(FastLayerNorm, ScaleVaryingAcrossRows) {
  std::mt19937 rng(6);
  OneNode n("LayerNormalization", 17, {data({4, 3, 8}, rng, false), random_float_tensor({4, 1, 8}, rng)}, {attr_int("axis", 2)});
  n.check(0, "scale per row");
}

TEST(FastLayerNorm, DeclinesBFloat16StatisticsAndTrapsOnScaleThatDoesNotBroadcast) {
  Tensor x(DType::Float, {2, 4}), scale(DType::Float, {4}), bad(DType::Float, {3});
  OneNode stash("LayerNormalization", 17, {x, scale}, {attr_int("stash_type", 16)}, {}, 3);
  EXPECT_EQ(stash.kernel(), nullptr);
  OneNode n("LayerNormalization", 17, {x, bad});
  auto k = n.kernel();
  ASSERT_NE(k, nullptr);
  EXPECT_THROW(k->output_shapes({&x, &bad}), Trap);
}

TEST(FastInstanceNorm, MatchesTheReference) {
  std::mt19937 rng(7);
  for (const Shape& s : {Shape{2, 3, 10}, Shape{1, 4, 5, 6}, Shape{3, 2}, Shape{2, 3, 2, 2, 3}})
    for (bool specials : {false, true}) {
      OneNode n("InstanceNormalization", 6,
                {data(s, rng, specials), random_float_tensor({s[1]}, rng), random_float_tensor({s[1]}, rng)},
                {attr_float("epsilon", 1e-4f)});
      n.check(0, describe(s, "InstanceNormalization"));
    }
}

TEST(FastGroupNorm, ScaleAndBiasPerGroupIn18AndPerChannelIn21) {
  std::mt19937 rng(8);
  for (const Shape& s : {Shape{2, 6, 10}, Shape{1, 4, 3, 5}, Shape{3, 6}})
    for (int64_t groups : {1, 2, 3})
      for (int64_t version : {18, 21}) {
        if (s[1] % groups) continue;
        int64_t params = version == 18 ? groups : s[1];
        OneNode n("GroupNormalization", version,
                  {data(s, rng, groups == 2), random_float_tensor({params}, rng), random_float_tensor({params}, rng)},
                  {attr_int("num_groups", groups)});
        n.check(0, describe(s, "groups " + std::to_string(groups) + " version " + std::to_string(version)));
      }
  Tensor x(DType::Float, {1, 4, 2}), p(DType::Float, {2});
  OneNode no_groups("GroupNormalization", 18, {x, p, p});
  EXPECT_EQ(no_groups.kernel(), nullptr);  // num_groups is required: the reference reports it
}

// ---- The decomposed layer normalization as one step -------------------------------------------

struct LayerNormModel {
  Model m;
  std::mt19937 rng{9};
  int nodes = 0;
  LayerNormModel(int64_t opset, const Shape& x_shape) {
    m = testing::empty_model(opset);
    m.graph.inputs.push_back({"X", float_type(x_shape)});
  }
  void node(const std::string& op, std::vector<std::string> in, const std::string& out, std::vector<Attribute> attrs = {}) {
    testing::add_node(m.graph, testing::ir_node(op, std::move(in), {out}, std::move(attrs)));
  }
  // A Constant node, as the PyTorch exporter writes epsilon and the exponent.
  std::string constant(const std::string& name, Tensor t) {
    Attribute a;
    a.name = "value";
    a.type = Attribute::Type::Tensor;
    a.t = std::move(t);
    node("Constant", {}, name, {a});
    return name;
  }
  std::vector<Attribute> mean_attrs(int64_t axis) {
    if (m.opset_imports[""] >= 18) return {};
    Attribute a;
    a.name = "axes";
    a.type = Attribute::Type::Ints;
    a.ints = {axis};
    return {a};
  }
  std::vector<std::string> mean_inputs(const std::string& x, int64_t axis) {
    if (m.opset_imports[""] < 18) return {x};
    return {x, constant(x + "_axes", Tensor::from_vector<int64_t>({1}, {axis}))};
  }
  // x -> normalized over `axis`, scaled and shifted when `affine`; returns the output name.
  std::string layer_norm(const std::string& x, const std::string& p, int64_t axis, int64_t d, bool affine) {
    node("ReduceMean", mean_inputs(x, axis), p + "_mean", mean_attrs(axis));
    node("Sub", {x, p + "_mean"}, p + "_d");
    node("Pow", {p + "_d", constant(p + "_two", Tensor::scalar<float>(2.0f))}, p + "_sq");
    node("ReduceMean", mean_inputs(p + "_sq", axis), p + "_var", mean_attrs(axis));
    node("Add", {p + "_var", constant(p + "_eps", Tensor::scalar<float>(1e-5f))}, p + "_ve");
    node("Sqrt", {p + "_ve"}, p + "_std");
    node("Div", {p + "_d", p + "_std"}, p + "_n");
    if (!affine) return p + "_n";
    m.graph.initializers.emplace_back(p + "_scale", random_float_tensor({d}, rng));
    m.graph.initializers.emplace_back(p + "_bias", random_float_tensor({d}, rng));
    node("Mul", {p + "_n", p + "_scale"}, p + "_s");
    node("Add", {p + "_bias", p + "_s"}, p + "_y");  // the bias first: the other order
    return p + "_y";
  }
  void output(const std::string& name, const Shape& s) { m.graph.outputs.push_back({name, float_type(s)}); }
};

// Runs the model on the linear executor and the reference interpreter; returns how many steps ran
// on the fused kernel.
int run_and_compare(const Model& m, const Shape& x_shape, const std::string& what) {
  std::mt19937 rng(10);
  NamedValues in;
  in["X"] = Value(data(x_shape, rng, true));
  NamedValues want = Interpreter(m).run(in);
  auto exec = make_optimized_executor(m, "linear");
  NamedValues got = exec->run(in);
  for (const auto& [name, w] : want) expect_ulps(got.at(name).tensor, w.tensor, 0, what + " " + name);
  auto it = exec->kernels_run().find("fast:layernorm-nodes");
  return it == exec->kernels_run().end() ? 0 : it->second;
}

TEST(FusedLayerNorm, RunsAsOneStepBitwiseAsTheNodes) {
  for (int64_t opset : {13, 18}) {
    Shape s{2, 5, 16};
    LayerNormModel b(opset, s);
    std::string y1 = b.layer_norm("X", "ln1", -1, 16, true);
    b.node("Relu", {y1}, "r");
    b.m.graph.value_info.push_back({"r", float_type(s)});     // as sonnx's model preparation infers it
    std::string y2 = b.layer_norm("r", "ln2", 2, 16, false);  // axis given as the last, no affine part
    b.output(y2, s);
    CompiledModel cm(b.m);
    int fused = 0;
    for (const auto& step : cm.root().steps()) fused += step.fused.size() >= 6;
    EXPECT_EQ(fused, 2) << "opset " << opset;
    EXPECT_EQ(run_and_compare(b.m, s, "opset " + std::to_string(opset)), 2);
  }
}

TEST(FusedLayerNorm, RunsTheNodesWhenTheAxisIsNotTheLast) {
  Shape s{3, 8, 4};
  LayerNormModel b(13, s);
  b.output(b.layer_norm("X", "ln", 1, 4, false), s);  // axis 1 of 3: the pattern matches, the kernel does not apply
  EXPECT_EQ(run_and_compare(b.m, s, "axis 1"), 0);
}

TEST(FusedLayerNorm, NotFusedWhenAnIntermediateIsReadElsewhere) {
  Shape s{2, 8};
  LayerNormModel b(13, s);
  std::string y = b.layer_norm("X", "ln", -1, 8, true);
  b.output(y, s);
  b.output("ln_d", s);  // the centred values are a graph output too
  CompiledModel cm(b.m);
  for (const auto& step : cm.root().steps()) EXPECT_LT(step.fused.size(), 6u);
  EXPECT_EQ(run_and_compare(b.m, s, "intermediate output"), 0);
}

}  // namespace
}  // namespace sonnx::testing
