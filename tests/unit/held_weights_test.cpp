// Weights a fast kernel holds in its own layout (FastKernel::hold_input, CompileOptions::hold_weights):
// oneDNN's packed copy of a MatMul/Gemm weight, or its reordered Conv weight, replaces the plain one
// when that step alone reads it, and a Conv with a BatchNormalization folded in lets the originals
// go, so a model moved into an executor keeps its weights once; everything that must read the plain
// values (another executor's kernels, CompiledGraph::plain_value) gets them back bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <set>

#include "optimized/exec/make_executor.h"
#include "reference/infer/infer_types.h"
#include "reference/interp/interpreter.h"
#include "tensor_test_util.h"

namespace sonnx {
namespace {

using testing::float_type;
using testing::int_attr;
using testing::ir_node;

constexpr int64_t K = 64, N = 1024;  // N a multiple of 1024: worth packing (onednn_gemm.cpp)

// g = Gemm(MatMul(x, w), v, transB=1); s = MatMul(g, shared) + MatMul(-g, shared): w and v are
// read by one step each and packed; `shared` is read by two steps and stays plain. The MatMul and
// the Gemm run alone (everything else waits for them). `make_weight` makes each weight tensor.
template <class MakeWeight>
Model weights_model(const std::map<std::string, Tensor>& values, MakeWeight make_weight) {
  Model m = testing::empty_model(13);
  m.graph.inputs.push_back({"x", float_type({3, K})});
  for (const auto& [name, t] : values) m.graph.initializers.emplace_back(name, make_weight(t));
  for (Node n : {ir_node("MatMul", {"x", "w"}, {"h"}), ir_node("Gemm", {"h", "v"}, {"g"}, {int_attr("transB", 1)}),
                 ir_node("MatMul", {"g", "shared"}, {"s1"}), ir_node("Neg", {"g"}, {"x2"}),
                 ir_node("MatMul", {"x2", "shared"}, {"s2"}), ir_node("Add", {"s1", "s2"}, {"s"})}) {
    testing::add_node(m.graph, n);
  }
  m.graph.outputs.push_back({"g", float_type({3, K})});
  m.graph.outputs.push_back({"s", float_type({3, N})});
  add_inferred_types(m);
  return m;
}

std::map<std::string, Tensor> weight_values() {
  std::mt19937 rng(5);
  return {{"w", testing::random_float_tensor({K, N}, rng)},
          {"v", testing::random_float_tensor({K, N}, rng)},
          {"shared", testing::random_float_tensor({K, N}, rng)}};
}

NamedValues input(unsigned seed) {
  std::mt19937 rng(seed);
  return {{"x", Value(testing::random_float_tensor({3, K}, rng))}};
}

void expect_close(const Tensor& got, const Tensor& want, const std::string& what) {
  ASSERT_EQ(got.shape(), want.shape()) << what;
  auto g = got.values<float>();
  auto w = want.values<float>();
  int bad = 0;
  for (size_t i = 0; i < g.size(); ++i)
    if (!(std::isnan(g[i]) && std::isnan(w[i])) &&
        !(std::fabs(static_cast<double>(g[i]) - w[i]) <= 1e-4 + 1e-4 * std::fabs(static_cast<double>(w[i]))) && ++bad <= 3)
      ADD_FAILURE() << what << ": element " << i << " got " << g[i] << " want " << w[i];
  EXPECT_EQ(bad, 0) << what;
}

// Each weight shared over bytes whose owner the test watches.
struct Watched {
  std::map<std::string, std::weak_ptr<const void>> owners;
  Tensor operator()(const Tensor& t) {
    auto bytes = std::make_shared<std::vector<std::byte>>(t.raw(), t.raw() + t.byte_size());
    Tensor s = Tensor::shared(t.dtype(), t.shape(), bytes->data(), bytes);
    owners[std::to_string(owners.size())] = bytes;
    return s;
  }
};

Tensor as_is(const Tensor& t) { return t; }  // each weight as given

// The model compiled twice: its weights kept plain, and held by the kernels that can.
struct KeptAndHeld {
  std::shared_ptr<const CompiledModel> kept, held;
};
KeptAndHeld compile_both(const Model& m) {
  CompileOptions keep;
  keep.hold_weights = false;
  return {std::make_shared<const CompiledModel>(m, keep), std::make_shared<const CompiledModel>(m)};
}

const Tensor& initializer(const Model& m, const std::string& name) {
  for (const auto& [n, t] : m.graph.initializers)
    if (n == name) return t;
  throw std::runtime_error("no initializer " + name);
}

TEST(HeldWeights, APackedWeightReadByOneStepIsKeptOnlyInItsPackedForm) {
  auto values = weight_values();
  Model plain = weights_model(values, as_is);
  Watched watched;  // owners in the map's order: shared, v, w
  Model moved = weights_model(values, std::ref(watched));
  auto exec = make_optimized_executor(std::move(moved), "linear");
  EXPECT_TRUE(watched.owners.at("1").expired()) << "v: the Gemm's packed copy replaces it";
  EXPECT_TRUE(watched.owners.at("2").expired()) << "w: the MatMul's packed copy replaces it";
  EXPECT_FALSE(watched.owners.at("0").expired()) << "shared: two steps read it";
  const Model& compiled = exec->compiled()->model();
  EXPECT_TRUE(initializer(compiled, "w").is_held());
  EXPECT_TRUE(initializer(compiled, "v").is_held());
  EXPECT_FALSE(initializer(compiled, "shared").is_held());
  const CompiledGraph& g = exec->compiled()->root();
  for (const auto& [slot, v] : g.constants())
    EXPECT_EQ(v.tensor.is_held(), g.slot_name(slot) == "w" || g.slot_name(slot) == "v") << g.slot_name(slot);
  // The plain values come back bit for bit.
  for (const char* name : {"w", "v", "shared"}) EXPECT_EQ(g.plain_value(name), values.at(name)) << name;
  // The runs (the planning run, then runs in the arena) compute what the reference computes.
  for (unsigned seed : {1u, 2u, 3u}) {
    NamedValues want = Interpreter(plain).run(input(seed));
    NamedValues got = exec->run(input(seed));
    for (const auto& [name, v] : want) expect_close(got.at(name).tensor, v.tensor, name + " seed " + std::to_string(seed));
  }
}

TEST(HeldWeights, HoldingChangesNoBitOfTheResult) {
  auto values = weight_values();
  auto [kept, held] = compile_both(weights_model(values, as_is));
  EXPECT_FALSE(initializer(kept->model(), "w").is_held());
  ASSERT_TRUE(initializer(held->model(), "w").is_held());
  auto a = make_optimized_executor(kept, "linear");
  auto b = make_optimized_executor(held, "linear");
  auto c = make_optimized_executor(held, "dataflow");
  for (unsigned seed : {4u, 5u}) {
    NamedValues want = a->run(input(seed));
    EXPECT_EQ(b->run(input(seed)), want) << "linear, seed " << seed;
    EXPECT_EQ(c->run(input(seed)), want) << "dataflow, seed " << seed;
  }
}

// The parallel executor's wide kernels (for the steps that run alone) are another compiled model's:
// over a model whose kernels hold weights, the frame gives them the plain values.
TEST(HeldWeights, KernelsOfAnotherCompiledModelGetThePlainValues) {
  auto values = weight_values();
  Model plain = weights_model(values, as_is);
  auto held = std::make_shared<const CompiledModel>(plain);
  ASSERT_TRUE(initializer(held->model(), "w").is_held());
  ExecutorOptions two;
  two.threads = 2;
  auto exec = make_optimized_executor(held, "parallel", two);
  for (unsigned seed : {6u, 7u}) {
    NamedValues want = Interpreter(plain).run(input(seed));
    NamedValues got = exec->run(input(seed));
    for (const auto& [name, v] : want) expect_close(got.at(name).tensor, v.tensor, name + " seed " + std::to_string(seed));
  }
}

// An initializer that is also a graph input is only the input's default: no kernel takes it as a
// constant (packs, reorders or holds it), and a tensor given at run time is what the step reads.
TEST(HeldWeights, AnInitializerThatIsAGraphInputIsNoConstantOfTheKernels) {
  auto values = weight_values();
  Model m = weights_model(values, as_is);
  m.graph.inputs.push_back({"w", float_type({K, N})});
  // A convolution whose weight is such an input too, with a BatchNormalization the compiler would
  // otherwise fold into that weight: y2 = BatchNormalization(Conv(x4, cw)).
  std::mt19937 rng(9);
  m.graph.inputs.push_back({"x4", float_type({1, 4, 6, 6})});
  m.graph.inputs.push_back({"cw", float_type({8, 4, 3, 3})});
  m.graph.initializers.emplace_back("cw", testing::random_float_tensor({8, 4, 3, 3}, rng));
  for (const char* p : {"scale", "bias", "mean"}) m.graph.initializers.emplace_back(p, testing::random_float_tensor({8}, rng));
  m.graph.initializers.emplace_back("var", testing::random_float_tensor({8}, rng, 0.5f, 2.0f));
  for (Node n :
       {ir_node("Conv", {"x4", "cw"}, {"c"}), ir_node("BatchNormalization", {"c", "scale", "bias", "mean", "var"}, {"y2"})}) {
    testing::add_node(m.graph, n);
  }
  m.graph.outputs.push_back({"y2", float_type({1, 8, 4, 4})});
  add_inferred_types(m);
  auto exec = make_optimized_executor(m, "linear");
  EXPECT_FALSE(initializer(exec->compiled()->model(), "w").is_held());
  for (int run = 0; run < 3; ++run) {
    NamedValues in = input(8);
    in["x4"] = Value(testing::random_float_tensor({1, 4, 6, 6}, rng));
    if (run > 0) {
      in["w"] = Value(testing::random_float_tensor({K, N}, rng));
      in["cw"] = Value(testing::random_float_tensor({8, 4, 3, 3}, rng));
    }
    NamedValues want = Interpreter(m).run(in);
    NamedValues got = exec->run(in);
    for (const auto& [name, v] : want)
      expect_close(got.at(name).tensor, v.tensor, name + (run ? " given w and cw" : " default w and cw"));
  }
}

// y = Conv(Relu(BatchNormalization(Conv(x, cw, cb))), dw, group=16): the first Conv's weight and bias
// and the normalization's parameters are folded into new ones, and the second is depthwise.
Model conv_model(const std::map<std::string, Tensor>& values, const std::function<Tensor(const Tensor&)>& make_weight) {
  Model m = testing::empty_model(13);
  m.graph.inputs.push_back({"x", float_type({1, 4, 10, 10})});
  for (const auto& [name, t] : values) m.graph.initializers.emplace_back(name, make_weight(t));
  for (Node n :
       {ir_node("Conv", {"x", "cw", "cb"}, {"c"}), ir_node("BatchNormalization", {"c", "scale", "bias", "mean", "var"}, {"n"}),
        ir_node("Relu", {"n"}, {"r"}), ir_node("Conv", {"r", "dw"}, {"y"}, {int_attr("group", 16)})})
    testing::add_node(m.graph, n);
  m.graph.outputs.push_back({"y", float_type({1, 16, 6, 6})});
  add_inferred_types(m);
  return m;
}

std::map<std::string, Tensor> conv_values() {
  std::mt19937 rng(11);
  std::map<std::string, Tensor> v = {{"cw", testing::random_float_tensor({16, 4, 3, 3}, rng)},
                                     {"dw", testing::random_float_tensor({16, 1, 3, 3}, rng)},
                                     {"var", testing::random_float_tensor({16}, rng, 0.5f, 2.0f)}};
  for (const char* p : {"cb", "scale", "bias", "mean"}) v[p] = testing::random_float_tensor({16}, rng);
  return v;
}

NamedValues conv_input(unsigned seed, bool with_nan = false) {
  std::mt19937 rng(seed);
  Tensor x = testing::random_float_tensor({1, 4, 10, 10}, rng);
  if (with_nan) x.data<float>()[17] = std::nanf("");
  return {{"x", Value(x)}};
}

TEST(HeldWeights, AConvKeepsOnlyItsReorderedWeightsAndAFoldLetsTheOriginalsGo) {
  auto values = conv_values();
  Watched watched;
  auto exec = make_optimized_executor(conv_model(values, std::ref(watched)), "linear");
  // The Conv's weight and bias are folded, the depthwise weight is held; the normalization's
  // parameters (16 floats each) stay.
  std::set<std::string> go = {"cw", "cb", "dw"};
  ASSERT_EQ(watched.owners.size(), values.size());
  size_t i = 0;
  for (const auto& [name, t] : values) {  // Watched numbers them in this order
    EXPECT_EQ(watched.owners.at(std::to_string(i++)).expired(), go.count(name) > 0) << name;
    EXPECT_EQ(initializer(exec->compiled()->model(), name).is_held(), go.count(name) > 0) << name;
  }
  const CompiledGraph& g = exec->compiled()->root();
  EXPECT_TRUE(g.plain_value("c::folded_W").defined());
  EXPECT_EQ(g.plain_value("dw"), values.at("dw")) << "the depthwise weight comes back bit for bit";
  Model plain = conv_model(values, as_is);
  for (unsigned seed : {1u, 2u}) {
    NamedValues want = Interpreter(plain).run(conv_input(seed));
    expect_close(exec->run(conv_input(seed)).at("y").tensor, want.at("y").tensor, "seed " + std::to_string(seed));
  }
}

// Held against kept: the same folded weights bit for bit, and the same results on every executor,
// also when a NaN makes the Conv build its primitive without the fused activation (from the held copy).
TEST(HeldWeights, AHeldConvWeightChangesNoBitOfTheResult) {
  auto values = conv_values();
  auto [kept, held] = compile_both(conv_model(values, as_is));
  EXPECT_FALSE(initializer(kept->model(), "cw").is_held());
  ASSERT_TRUE(initializer(held->model(), "cw").is_held());
  for (const char* name : {"c::folded_W", "c::folded_B", "dw"})
    EXPECT_EQ(held->root().plain_value(name), kept->root().plain_value(name)) << name;
  ExecutorOptions two;
  two.threads = 2;
  auto a = make_optimized_executor(kept, "linear");
  for (const char* name : {"linear", "dataflow", "parallel"}) {
    auto b = make_optimized_executor(held, name, std::string(name) == "parallel" ? two : ExecutorOptions{});
    for (unsigned seed : {3u, 4u}) {
      NamedValues want = a->run(conv_input(seed, seed == 4));
      NamedValues got = b->run(conv_input(seed, seed == 4));
      if (std::string(name) == "parallel")  // its wide kernels split the work another way
        expect_close(got.at("y").tensor, want.at("y").tensor, std::string(name) + " seed " + std::to_string(seed));
      else EXPECT_EQ(got, want) << name << ", seed " << seed;
    }
  }
}

}  // namespace
}  // namespace sonnx
