// The fast unary kernel (optimized/kernels/unary.cpp) against the reference kernels: for each
// operator and attribute set, random inputs mixed with NaN, ±inf, ±0, subnormals and large
// magnitudes, and for the operators on the kernel's own e^x and erf a sweep over the float range.
// The exact operators must agree bitwise (NaN payloads aside); the others within kMaxUlp units in
// the last place (most compute as the reference does, in double rounded once; Exp, Sigmoid, Tanh
// and Erf are 1 ULP off at worst, for values within ~1e-14 of a rounding boundary). Requests it
// cannot serve give null.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "op_test_util.h"
#include "optimized/kernels/fast_kernel.h"
#include "tensor_test_util.h"

namespace sonnx::testing {
namespace {

constexpr int64_t kMaxUlp = 1;

// Random values over many binades plus every special value the functions treat apart.
Tensor mixed_input(const Shape& s, std::mt19937& rng) {
  static const float specials[] = {kNaN,   kInf,  -kInf,  0.0f,   -0.0f,   1e-40f, -1e-40f, 3e38f, -3e38f, 1e30f,
                                   -1e30f, 88.8f, -88.8f, 104.0f, -104.0f, 3.0f,   -3.0f,   0.5f,  -0.5f,  1.0f,
                                   -1.0f,  2.5f,  -2.5f,  20.0f,  -20.0f,  1e-8f,  -1e-8f,  10.0f, -10.0f, 6.0f};
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-30, 12), pick(0, 3);
  Tensor t(DType::Float, s);
  auto v = t.values<float>();
  for (size_t i = 0; i < v.size(); ++i) {
    if (i < std::size(specials)) v[i] = specials[i];
    else if (pick(rng) == 0) v[i] = std::ldexp(u(rng), exponent(rng));
    else v[i] = 8.0f * u(rng);
  }
  return t;
}

// Distance in representable floats (−0 and +0 are one point); 0 when both are NaN.
int64_t ulp_distance(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : std::numeric_limits<int64_t>::max();
  auto ordered = [](float f) {
    int64_t bits = std::bit_cast<int32_t>(f);
    return bits < 0 ? -(bits & 0x7fffffff) : bits;
  };
  return std::abs(ordered(a) - ordered(b));
}

struct UnaryCase {
  std::string op;
  int64_t opset;
  bool exact;
  std::vector<onnx::AttributeProto> attrs;  // for the reference
  std::vector<Attribute> ir_attrs;          // the same for the fast kernel's node
  std::vector<Value> extra;                 // inputs after X, given to the kernel as constants
};

// Runs the case through the fast kernel and the reference on x and compares.
void check(const UnaryCase& c, const Tensor& x) {
  Node n;
  n.op_type = c.op;
  n.name = "n";
  n.inputs = {"x"};
  n.outputs = {"y"};
  n.attributes = c.ir_attrs;
  FastKernelRequest req;
  req.node = &n;
  req.version = c.opset;
  req.input_types = {float_type(x.shape())};
  for (size_t i = 0; i < c.extra.size(); ++i) {
    if (c.extra[i].kind == Value::Kind::None) {
      n.inputs.push_back("");
      req.input_types.emplace_back();
      continue;
    }
    n.inputs.push_back("c" + std::to_string(i));
    req.constants[n.inputs.back()] = &c.extra[i].tensor;
    req.input_types.push_back(float_type(c.extra[i].tensor.shape()));
  }
  std::string what = c.op + "-" + std::to_string(c.opset) + " " + shape_str(x.shape());
  auto k = make_fast_kernel(req);
  ASSERT_NE(k, nullptr) << what;
  EXPECT_EQ(k->name(), "fast:unary");
  std::vector<const Tensor*> in = {&x};
  for (const auto& e : c.extra) in.push_back(e.kind == Value::Kind::None ? nullptr : &e.tensor);
  Tensor y(DType::Float, k->output_shapes(in).at(0));
  k->run(in, {&y});
  std::vector<Value> ref_in = {Value(x)};
  ref_in.insert(ref_in.end(), c.extra.begin(), c.extra.end());
  Tensor want = run_op(c.op, c.opset, ref_in, c.attrs).at(0).tensor;
  ASSERT_EQ(y.shape(), want.shape()) << what;
  auto g = y.values<float>();
  auto w = want.values<float>();
  int bad = 0;
  for (size_t i = 0; i < g.size(); ++i) {
    bool same = c.exact ? (std::isnan(g[i]) ? std::isnan(w[i]) : std::bit_cast<uint32_t>(g[i]) == std::bit_cast<uint32_t>(w[i]))
                        : ulp_distance(g[i], w[i]) <= kMaxUlp;
    if (!same && ++bad <= 5)
      ADD_FAILURE() << what << ": x=" << x.values<float>()[i % x.size()] << " got " << g[i] << " want " << w[i];
  }
  EXPECT_EQ(bad, 0) << what;
}

std::vector<UnaryCase> all_cases() {
  auto scalar = [](float v) { return Value(Tensor::scalar<float>(v)); };
  std::vector<UnaryCase> cases = {
      {"Relu", 14, true, {}, {}, {}},
      {"Neg", 13, true, {}, {}, {}},
      {"Abs", 13, true, {}, {}, {}},
      {"LeakyRelu", 16, true, {}, {}, {}},
      {"LeakyRelu", 16, true, {attr_float("alpha", 0.3f)}, {float_attr("alpha", 0.3f)}, {}},
      {"Clip", 6, true, {}, {}, {}},
      {"Clip",
       6,
       true,
       {attr_float("min", -1.5f), attr_float("max", 2.0f)},
       {float_attr("min", -1.5f), float_attr("max", 2.0f)},
       {}},
      {"Clip", 13, true, {}, {}, {}},
      {"Clip", 13, true, {}, {}, {scalar(0.0f), scalar(6.0f)}},
      {"Clip", 13, true, {}, {}, {scalar(-0.25f)}},
      {"Clip", 13, true, {}, {}, {Value(), scalar(1.0f)}},
      {"Clip", 13, true, {}, {}, {scalar(2.0f), scalar(-1.0f)}},  // min > max: every element is max
      {"Sigmoid", 13, false, {}, {}, {}},
      {"Tanh", 13, false, {}, {}, {}},
      {"Erf", 13, false, {}, {}, {}},
      {"Gelu", 20, false, {}, {}, {}},
      {"Gelu", 20, false, {attr_string("approximate", "tanh")}, {}, {}},
      {"HardSwish", 14, false, {}, {}, {}},
      {"HardSigmoid", 6, false, {}, {}, {}},
      {"HardSigmoid",
       6,
       false,
       {attr_float("alpha", 0.125f), attr_float("beta", 0.25f)},
       {float_attr("alpha", 0.125f), float_attr("beta", 0.25f)},
       {}},
      {"Elu", 6, false, {}, {}, {}},
      {"Elu", 6, false, {attr_float("alpha", 0.5f)}, {float_attr("alpha", 0.5f)}, {}},
      {"Exp", 13, false, {}, {}, {}},
      {"Log", 13, false, {}, {}, {}},
      {"Sqrt", 13, false, {}, {}, {}},
      {"Reciprocal", 13, false, {}, {}, {}},
      {"Softplus", 1, false, {}, {}, {}},
      {"Pow", 15, true, {}, {}, {scalar(2.0f)}},
      {"Pow", 15, true, {}, {}, {scalar(1.0f)}},
      {"Pow", 15, false, {}, {}, {scalar(0.5f)}},
      {"Pow", 15, false, {}, {}, {scalar(3.0f)}},
      {"Pow", 15, false, {}, {}, {scalar(-1.5f)}},
      {"Pow", 15, false, {}, {}, {scalar(0.0f)}},
  };
  // Gelu's approximate attribute for the kernel's node.
  for (auto& c : cases)
    for (const auto& a : c.attrs)
      if (a.name() == "approximate") {
        Attribute s;
        s.name = a.name();
        s.type = Attribute::Type::String;
        s.s = a.s();
        c.ir_attrs.push_back(s);
      }
  return cases;
}

TEST(FastUnary, MatchesTheReferenceOnSpecialAndRandomValues) {
  std::mt19937 rng(11);
  Tensor x = mixed_input({3, 5, 67}, rng);
  for (const auto& c : all_cases()) check(c, x);
}

TEST(FastUnary, LargeTensorsSplitOverThreadsAlike) {
  std::mt19937 rng(12);
  Tensor x = mixed_input({2, 3, 200, 201}, rng);  // several OpenMP blocks
  for (const auto& c : all_cases())
    if (c.op == "Sigmoid" || c.op == "HardSwish" || c.op == "Clip" || c.op == "Pow") check(c, x);
}

// Every 1021st float bit pattern (about 4 million values over all binades, both signs, NaNs).
TEST(FastUnary, ThePolynomialsOverTheWholeFloatRange) {
  Tensor x(DType::Float, {static_cast<int64_t>((uint64_t{1} << 32) / 1021 + 1)});
  auto v = x.values<float>();
  for (size_t i = 0; i < v.size(); ++i) v[i] = std::bit_cast<float>(static_cast<uint32_t>(i * 1021));
  for (const char* op : {"Exp", "Sigmoid", "Tanh", "Erf"}) check({op, 13, false, {}, {}, {}}, x);
  // And densely where erf's series is used.
  Tensor d(DType::Float, {200001});
  for (int64_t i = 0; i < d.size(); ++i) d.data<float>()[i] = -4.5f + 9.0f * static_cast<float>(i) / 200000;
  check({"Erf", 13, false, {}, {}, {}}, d);
}

TEST(FastUnary, ScalarsEmptyTensorsAndABroadcastingExponent) {
  std::mt19937 rng(13);
  for (const Shape& s : {Shape{}, Shape{0, 4}, Shape{1}})
    for (const auto& c : all_cases())
      if (c.op == "Tanh" || c.op == "Relu") check(c, mixed_input(s, rng));
  // A [1, 1, 1] exponent gives a rank-3 result for a rank-1 base.
  Tensor e(DType::Float, {1, 1, 1});
  e.data<float>()[0] = 2.0f;
  check({"Pow", 15, true, {}, {}, {Value(e)}}, mixed_input({40}, rng));
}

TEST(FastUnary, DeclinesWhatItCannotServe) {
  Node n;
  n.op_type = "Relu";
  n.inputs = {"x"};
  n.outputs = {"y"};
  FastKernelRequest r;
  r.node = &n;
  r.version = 14;
  r.input_types = {float_type({4})};
  EXPECT_NE(make_fast_kernel(r), nullptr);
  TypeInfo i64 = float_type({4});
  i64.elem = DType::Int64;
  r.input_types = {i64};
  EXPECT_EQ(make_fast_kernel(r), nullptr) << "int64 Relu";
  r.input_types = {};
  EXPECT_EQ(make_fast_kernel(r), nullptr) << "unknown input type";

  // Pow: only a constant float scalar exponent.
  n.op_type = "Pow";
  n.inputs = {"x", "e"};
  r.version = 15;
  r.input_types = {float_type({4}), float_type({})};
  EXPECT_EQ(make_fast_kernel(r), nullptr) << "run-time exponent";
  Tensor e2(DType::Float, {2});
  r.constants = {{"e", &e2}};
  EXPECT_EQ(make_fast_kernel(r), nullptr) << "exponent with two elements";
  Tensor ed = Tensor::scalar<double>(2.0);
  r.constants = {{"e", &ed}};
  EXPECT_EQ(make_fast_kernel(r), nullptr) << "double exponent";
  Tensor ef = Tensor::scalar<float>(2.0f);
  r.constants = {{"e", &ef}};
  EXPECT_NE(make_fast_kernel(r), nullptr);

  // Clip: bounds must be constants; Gelu: a known approximation.
  n.op_type = "Clip";
  n.inputs = {"x", "lo"};
  r.version = 13;
  r.constants = {};
  r.input_types = {float_type({4}), float_type({})};
  EXPECT_EQ(make_fast_kernel(r), nullptr) << "run-time Clip bound";
  n.op_type = "Gelu";
  n.inputs = {"x"};
  r.version = 20;
  Attribute bogus;
  bogus.name = "approximate";
  bogus.type = Attribute::Type::String;
  bogus.s = "bogus";
  n.attributes = {bogus};
  EXPECT_EQ(make_fast_kernel(r), nullptr) << "Gelu approximate=bogus";
  n.attributes = {float_attr("approximate", 1.0f)};
  EXPECT_EQ(make_fast_kernel(r), nullptr) << "Gelu approximate of the wrong type";
}

}  // namespace
}  // namespace sonnx::testing
