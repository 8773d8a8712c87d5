// Random float16 elementwise chains (RapidCheck): X of a random shape through unary operators and
// Add/Sub/Mul/Div with a broadcasting second input, a float16 constant or an earlier value of the
// chain, every value a graph output. Each optimized executor must run every step on a fast kernel,
// and each step's result must be within 1 float16 ULP of the reference kernel applied to that
// step's inputs as the executor computed them (so one step's rounding does not count against the
// next; the tolerance is argued in tests/unit/fast_float16_test.cpp).
// The random graph generator (conformance/fuzz) makes float16 values only by a Cast and reads them
// only by the Cast back, and its tolerances and the shapes of every recipe's graph are made for
// float32: this is its float16 counterpart for the elementwise kernels.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "optimized/exec/make_executor.h"
#include "reference/infer/infer_types.h"
#include "reference/interp/interpreter.h"
#include "tests/unit/tensor_test_util.h"

namespace sonnx {
namespace {

using testing::float_attr;
using testing::half_type;
using testing::half_ulp_distance;

constexpr int64_t kOpset = 20;  // Gelu's first version

// Float16 values: mostly in [-4, 4], now and then a special one (±0, ±inf, NaN, a subnormal,
// ±65504) or any bit pattern.
Tensor random_halves(const Shape& shape, std::mt19937& rng) {
  static const uint16_t specials[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x83ff, 0x7bff, 0xfbff};
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  std::uniform_int_distribution<int> pick(0, 19), special(0, static_cast<int>(std::size(specials)) - 1), bits(0, 0xffff);
  Tensor t(DType::Float16, shape);
  for (float16_t& v : t.values<float16_t>()) {
    int p = pick(rng);
    if (p == 0) v.bits = specials[special(rng)];
    else if (p == 1) v.bits = static_cast<uint16_t>(bits(rng));
    else v = float16_t(u(rng));
  }
  return t;
}

// One step of a chain: `op` picks the operator, `arg` its attributes or second operand.
struct ChainStep {
  uint32_t op = 0, arg = 0;
};

struct Chain {
  Shape shape;
  uint32_t seed = 0;
  std::vector<ChainStep> steps;
};

// How RapidCheck prints a counterexample.
void showValue(const Chain& c, std::ostream& os) {
  os << "shape " << shape_str(c.shape) << " seed " << c.seed << " steps";
  for (const ChainStep& s : c.steps) os << " " << s.op << ":" << s.arg;
}

// The chain for a failure message: inputs, constants, nodes.
std::string describe(const Model& m) {
  std::ostringstream os;
  for (const ValueInfo& v : m.graph.inputs) {
    os << v.name << "[";
    for (const Dim& d : *v.type.shape) os << d.value.value_or(-1) << " ";
    os << "] ";
  }
  for (const auto& [name, t] : m.graph.initializers) os << name << "=" << t.as_double(0) << " ";
  for (const Node& n : m.graph.nodes) {
    os << "\n  " << n.outputs[0] << " = " << n.op_type << "(";
    for (size_t i = 0; i < n.inputs.size(); ++i) os << (i ? ", " : "") << n.inputs[i];
    os << ")";
    for (const Attribute& a : n.attributes) os << " " << a.name << "=" << a.f;
  }
  return os.str();
}

// Builds the chain's model and its input values.
class ChainBuilder {
 public:
  explicit ChainBuilder(const Chain& c) : chain_(c), rng_(c.seed) {
    m_.ir_version = 9;
    m_.opset_imports[""] = kOpset;
    m_.graph.path = "main";
    add_input("x", c.shape);
    values_.push_back("x");
    for (const ChainStep& s : c.steps) add_step(s);
    add_inferred_types(m_);  // fast kernels are chosen for known element types
  }
  Model& model() { return m_; }
  NamedValues& inputs() { return feed_; }

 private:
  void add_input(const std::string& name, const Shape& shape) {
    m_.graph.inputs.push_back({name, half_type(shape)});
    feed_[name] = Value(random_halves(shape, rng_));
  }
  std::string add_constant(float v) {
    std::string name = "k" + std::to_string(m_.graph.initializers.size());
    m_.graph.initializers.emplace_back(name, Tensor::scalar<float16_t>(float16_t(v)));
    return name;
  }
  void add_node(const std::string& op, std::vector<std::string> in, std::vector<Attribute> attrs = {}) {
    Node n;
    std::string y = "v" + std::to_string(m_.graph.nodes.size());
    n.name = y + "_node";
    n.op_type = op;
    n.inputs = std::move(in);
    n.outputs = {y};
    n.attributes = std::move(attrs);
    n.index = m_.graph.nodes.size();
    m_.graph.nodes.push_back(std::move(n));
    m_.graph.outputs.push_back({y, half_type(chain_.shape)});
    values_.push_back(y);
  }
  // A shape that broadcasts to the chain's: some dimensions 1, maybe fewer leading ones.
  Shape broadcast_shape(uint32_t arg) {
    Shape s;
    size_t drop = arg % (chain_.shape.size() + 1);
    for (size_t d = drop; d < chain_.shape.size(); ++d) s.push_back(((arg >> (d + 3)) & 1) ? 1 : chain_.shape[d]);
    return s;
  }
  void add_step(const ChainStep& s) {
    static const char* const unary[] = {"Relu", "Neg",  "Abs",        "Sigmoid",  "Tanh",      "Erf", "Exp",
                                        "Log",  "Sqrt", "Reciprocal", "Softplus", "HardSwish", "Gelu"};
    const std::string x = values_.back();
    if (s.op % 2) return add_binary(s.arg, x);  // half the steps
    const uint32_t n_unary = std::size(unary), kind = (s.op / 2) % (n_unary + 5);
    if (kind < n_unary) return add_node(unary[kind], {x});
    switch (kind - n_unary) {
      case 0: return add_node("LeakyRelu", {x}, {float_attr("alpha", 0.01f + static_cast<float>(s.arg % 50) / 100)});
      case 1: return add_node("Elu", {x}, {float_attr("alpha", 0.5f + static_cast<float>(s.arg % 4) / 4)});
      case 2: return add_node("HardSigmoid", {x});
      case 3: {
        float lo = -static_cast<float>(s.arg % 7) / 2;
        return add_node("Clip", {x, add_constant(lo), add_constant(lo + static_cast<float>(s.arg % 5))});
      }
      default: return add_node("Pow", {x, add_constant(static_cast<float>(s.arg % 7) / 2 - 1)});
    }
  }
  // Add/Sub/Mul/Div of x and another operand: a new input that broadcasts, a float16 constant or
  // an earlier value; on either side.
  void add_binary(uint32_t arg, const std::string& x) {
    static const char* const ops[] = {"Add", "Sub", "Mul", "Div"};
    std::string other;
    switch ((arg >> 2) % 3) {
      case 0:
        other = "in" + std::to_string(m_.graph.inputs.size());
        add_input(other, broadcast_shape(arg >> 4));
        break;
      case 1: other = add_constant(static_cast<float>(arg % 17) / 4 - 2); break;
      default: other = values_[(arg >> 4) % values_.size()]; break;
    }
    bool swap = (arg >> 12) & 1;
    add_node(ops[arg % 4], swap ? std::vector<std::string>{other, x} : std::vector<std::string>{x, other});
  }

  const Chain& chain_;
  std::mt19937 rng_;
  Model m_;
  NamedValues feed_;
  std::vector<std::string> values_;  // x and the steps' outputs, in order
};

// The reference kernel of node n on these inputs (a one-node model through the interpreter).
Tensor reference_step(const Node& n, const std::vector<Value>& inputs) {
  Model m;
  m.ir_version = 9;
  m.opset_imports[""] = kOpset;
  m.graph.path = "step";
  NamedValues feed;
  Node node = n;
  node.index = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    node.inputs[i] = "in" + std::to_string(i);
    TypeInfo t = half_type(inputs[i].tensor.shape());
    m.graph.inputs.push_back({node.inputs[i], t});
    feed[node.inputs[i]] = inputs[i];
  }
  node.outputs = {"out"};
  m.graph.nodes.push_back(node);
  TypeInfo out;
  out.kind = TypeInfo::Kind::Tensor;
  out.elem = DType::Float16;
  m.graph.outputs.push_back({"out", out});
  return Interpreter(m).run(feed).at("out").tensor;
}

// "" when got is within 1 ULP of want everywhere, else the first difference.
std::string within_one_ulp(const Tensor& got, const Tensor& want) {
  if (got.dtype() != DType::Float16 || got.shape() != want.shape())
    return "got " + std::string(dtype_name(got.dtype())) + shape_str(got.shape()) + ", want float16" + shape_str(want.shape());
  auto g = got.values<float16_t>();
  auto w = want.values<float16_t>();
  for (size_t i = 0; i < g.size(); ++i)
    if (half_ulp_distance(g[i].bits, w[i].bits) > 1)
      return "element " + std::to_string(i) + ": got " + std::to_string(static_cast<float>(g[i])) + ", want " +
             std::to_string(static_cast<float>(w[i]));
  return "";
}

rc::Gen<Chain> gen_chain() {
  auto step = rc::gen::build<ChainStep>(rc::gen::set(&ChainStep::op, rc::gen::arbitrary<uint32_t>()),
                                        rc::gen::set(&ChainStep::arg, rc::gen::arbitrary<uint32_t>()));
  auto shape = rc::gen::mapcat(rc::gen::inRange<size_t>(1, 5),
                               [](size_t rank) { return rc::gen::container<Shape>(rank, rc::gen::inRange<int64_t>(1, 7)); });
  auto steps = rc::gen::mapcat(rc::gen::inRange<size_t>(1, 9),
                               [step](size_t n) { return rc::gen::container<std::vector<ChainStep>>(n, step); });
  return rc::gen::build<Chain>(rc::gen::set(&Chain::shape, shape), rc::gen::set(&Chain::seed, rc::gen::arbitrary<uint32_t>()),
                               rc::gen::set(&Chain::steps, steps));
}

RC_GTEST_PROP(Float16Property, ElementwiseChainsRunOnFastKernelsWithinOneUlpPerStep, ()) {
  Chain c = *gen_chain();
  ChainBuilder b(c);
  const Model& m = b.model();
  RC_TAG(m.graph.nodes.size() <= 3 ? "1-3 steps" : "4-8 steps", m.graph.inputs.size() > 1 ? "broadcast input" : "one input");
  const NamedValues& in = b.inputs();
  std::map<std::string, Value> known(in.begin(), in.end());
  for (const auto& [name, t] : m.graph.initializers) known[name] = Value(t);
  for (const auto& name : optimized_executor_names()) {
    ExecutorOptions o;
    o.verify_arena_run = true;
    auto exec = make_optimized_executor(m, name, o);
    NamedValues got = exec->run(in);
    // Every step ran on a fast kernel.
    const auto& k = exec->kernels_run();
    int fast = (k.contains("fast:unary") ? k.at("fast:unary") : 0) + (k.contains("fast:binary") ? k.at("fast:binary") : 0);
    if (k.contains("reference") || fast != static_cast<int>(m.graph.nodes.size()))
      RC_FAIL(name + ": not every step ran on a fast kernel\n" + describe(m));
    for (const Node& n : m.graph.nodes) {
      std::vector<Value> args;
      for (const std::string& s : n.inputs) args.push_back(got.contains(s) ? got.at(s) : known.at(s));
      std::string diff = within_one_ulp(got.at(n.outputs[0]).tensor, reference_step(n, args));
      if (!diff.empty()) RC_FAIL(name + ", " + n.outputs[0] + " (" + n.op_type + "): " + diff + "\n" + describe(m));
    }
  }
}

}  // namespace
}  // namespace sonnx
