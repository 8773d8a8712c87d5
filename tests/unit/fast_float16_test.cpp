// The fast unary and binary kernels on float16 tensors (optimized/kernels/unary.cpp,
// elementwise.cpp) against the reference kernels on the same float16 inputs, and a float16 model
// run by every optimized executor against the reference interpreter.
//
// Tolerance: 1 float16 ULP. The fast kernels widen each float16 element to float (exact), compute
// as their float32 kernels do and round the float result once to float16. The reference computes
// the unary functions in double and rounds once to float16, and Add/Sub/Mul/Div in float rounded
// to float16. The float32 kernels are within their own contract (fast_unary_test: bitwise, or
// 1 float ULP for the polynomials) of the reference's float results, and a float ULP is 2^13 times
// finer than a float16 one: rounded to float16 they agree, or, when the exact value lies within a
// float ULP of a float16 rounding boundary, land on its two sides, 1 float16 ULP apart (the
// reference rounds its double result once; rounding it to float first and then to float16 may
// differ there). Besides that contract the tests check what makes it hold, since a wrong rounding
// (truncating, rounding twice) also stays within 1 ULP: each float16 result must be bitwise the
// float32 kernel's result on the widened inputs rounded by float16_t (the reference's own
// conversion). The exact operators (Relu, Neg, Abs, Clip, Pow x^1 and x^2) must agree with the
// reference bitwise. NaN is compared as NaN whatever its payload.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <stdexcept>

#include "op_test_util.h"
#include "optimized/exec/make_executor.h"
#include "optimized/kernels/fast_kernel.h"
#include "optimized/kernels/half_convert.h"
#include "reference/infer/infer_types.h"
#include "reference/interp/interpreter.h"
#include "tensor_test_util.h"

namespace sonnx::testing {
namespace {

constexpr uint16_t kHalfNaN = 0x7e00, kHalfInf = 0x7c00, kHalfMax = 0x7bff;  // 65504

float16_t half_bits(uint16_t b) {
  float16_t h;
  h.bits = b;
  return h;
}

Tensor half_scalar(float v) { return Tensor::scalar<float16_t>(float16_t(v)); }

// Every float16 bit pattern (both zeros, every subnormal, 65504, ±inf, NaNs), in a [256, 256] tensor.
Tensor every_half() {
  Tensor t(DType::Float16, {256, 256});
  auto v = t.values<float16_t>();
  for (size_t i = 0; i < v.size(); ++i) v[i] = half_bits(static_cast<uint16_t>(i));
  return t;
}

// Binary operands: the special values first, then a mix of random bit patterns (every binade,
// NaN and inf included) and moderate values, so sums and products overflow, cancel and underflow.
Tensor mixed_halves(const Shape& s, std::mt19937& rng) {
  static const uint16_t specials[] = {kHalfNaN, kHalfInf, 0xfc00, 0x0000, 0x8000, 0x0001, 0x8001, 0x03ff,
                                      0x0400,   kHalfMax, 0xfbff, 0x3c00, 0xbc00, 0x7bfe, 0x3555};
  std::uniform_int_distribution<int> bits(0, 0xffff), pick(0, 2);
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  Tensor t(DType::Float16, s);
  auto v = t.values<float16_t>();
  for (size_t i = 0; i < v.size(); ++i) {
    if (i < std::size(specials) && v.size() > 2 * std::size(specials)) v[i] = half_bits(specials[i]);
    else if (pick(rng) == 0) v[i] = half_bits(static_cast<uint16_t>(bits(rng)));
    else v[i] = float16_t(u(rng));
  }
  return t;
}

// got against want (both float16 of one shape): within `max_ulp` (0: bitwise, NaN as NaN).
void expect_agreement(const Tensor& got, const Tensor& want, int64_t max_ulp, const std::string& what,
                      const Tensor* x = nullptr) {
  ASSERT_EQ(got.dtype(), DType::Float16) << what;
  ASSERT_EQ(want.dtype(), DType::Float16) << what;
  ASSERT_EQ(got.shape(), want.shape()) << what;
  auto g = got.values<float16_t>();
  auto w = want.values<float16_t>();
  int64_t bad = 0;
  for (size_t i = 0; i < g.size(); ++i) {
    int64_t d = half_ulp_distance(g[i].bits, w[i].bits);
    bool same = d == 0 && (half_is_nan(g[i].bits) || g[i].bits == w[i].bits);
    if (!same && d > max_ulp && ++bad <= 5)
      ADD_FAILURE() << what << ": element " << i
                    << (x ? ", x=" + std::to_string(static_cast<float>(x->values<float16_t>()[i % x->size()])) : "") << " got "
                    << static_cast<float>(g[i]) << " (0x" << std::hex << g[i].bits << ") want " << static_cast<float>(w[i])
                    << " (0x" << w[i].bits << std::dec << ")";
  }
  EXPECT_EQ(bad, 0) << what;
}

// A float16 tensor widened to float, and a float tensor rounded to float16, by float16_t.
Tensor widened(const Tensor& h) {
  Tensor f(DType::Float, h.shape());
  for (int64_t i = 0; i < h.size(); ++i) f.data<float>()[i] = static_cast<float>(h.data<float16_t>()[i]);
  return f;
}
Tensor rounded(const Tensor& f) {
  Tensor h(DType::Float16, f.shape());
  for (int64_t i = 0; i < f.size(); ++i) h.data<float16_t>()[i] = float16_t(f.data<float>()[i]);
  return h;
}

// ---- conversions ----

TEST(FastFloat16, ConversionsRoundAsFloat16T) {
  // Every float16 widens exactly (NaN stays NaN), over a run whose length is not a multiple of
  // the vector width.
  Tensor all = every_half();
  std::vector<float> wide(static_cast<size_t>(all.size()) + 1, -1.0f);
  fast::half_to_float(all.data<float16_t>(), wide.data(), all.size() - 3);
  for (int64_t i = 0; i < all.size() - 3; ++i) {
    float want = static_cast<float>(all.data<float16_t>()[i]);
    if (std::isnan(want)) EXPECT_TRUE(std::isnan(wide[static_cast<size_t>(i)])) << i;
    else ASSERT_EQ(std::bit_cast<uint32_t>(wide[static_cast<size_t>(i)]), std::bit_cast<uint32_t>(want)) << i;
  }
  EXPECT_EQ(wide[static_cast<size_t>(all.size() - 3)], -1.0f) << "wrote past the end";
  // Every 997th float bit pattern narrows as float16_t does: ties to even, subnormal halves,
  // overflow to ±inf, values below half the smallest subnormal to ±0.
  std::vector<float> f;
  for (uint64_t b = 0; b < (uint64_t{1} << 32); b += 997) f.push_back(std::bit_cast<float>(static_cast<uint32_t>(b)));
  for (float v : {65504.0f, 65519.99f, 65520.0f, 0x1p-25f, 0x1.000002p-25f, 0x1.8p-24f, 1.0f + 0x1p-11f, 1.0f + 0x3p-11f})
    for (float s : {1.0f, -1.0f}) f.push_back(s * v);
  std::vector<float16_t> narrow(f.size());
  fast::float_to_half(f.data(), narrow.data(), static_cast<int64_t>(f.size()));
  int bad = 0;
  for (size_t i = 0; i < f.size(); ++i) {
    uint16_t want = float16_t(f[i]).bits;
    bool same = half_is_nan(want) ? half_is_nan(narrow[i].bits) : narrow[i].bits == want;
    if (!same && ++bad <= 5) ADD_FAILURE() << f[i] << " gave 0x" << std::hex << narrow[i].bits << " want 0x" << want;
  }
  EXPECT_EQ(bad, 0);
}

// ---- unary ----

struct F16UnaryCase {
  std::string op;
  int64_t opset;
  bool exact;
  std::vector<onnx::AttributeProto> attrs;  // for the reference
  std::vector<Attribute> ir_attrs;          // the same for the fast kernel's node
  std::vector<Value> extra;                 // inputs after X, given to the kernel as constants
};

// The node and request of a case on a float16 X of shape `s`; the request's constants point into
// the case, which must outlive it.
struct UnaryRequest {
  Node node;
  FastKernelRequest req;
  UnaryRequest(const F16UnaryCase& c, const Shape& s, DType elem = DType::Float16) {
    node.op_type = c.op;
    node.name = "node";
    node.inputs = {"x"};
    node.outputs = {"y"};
    node.attributes = c.ir_attrs;
    req.node = &node;
    req.version = c.opset;
    req.input_types = {elem == DType::Float16 ? half_type(s) : float_type(s)};
    for (size_t i = 0; i < c.extra.size(); ++i) {
      if (c.extra[i].kind == Value::Kind::None) {
        node.inputs.push_back("");
        req.input_types.emplace_back();
        continue;
      }
      node.inputs.push_back("c" + std::to_string(i));
      req.constants[node.inputs.back()] = &c.extra[i].tensor;
      req.input_types.push_back(type_of(c.extra[i].tensor));
    }
  }
};

// The float32 kernel of the case's node on x widened (a float16 constant widened too), rounded
// to float16.
Tensor float32_kernel_rounded(F16UnaryCase c, const Tensor& x) {
  for (Value& e : c.extra)
    if (e.kind != Value::Kind::None && e.tensor.dtype() == DType::Float16) e = Value(widened(e.tensor));
  UnaryRequest r(c, x.shape(), DType::Float);
  auto k = make_fast_kernel(r.req);
  if (!k) throw std::logic_error("no float32 kernel for " + c.op);
  Tensor x32 = widened(x);
  std::vector<const Tensor*> in = {&x32};
  for (const auto& e : c.extra) in.push_back(e.kind == Value::Kind::None ? nullptr : &e.tensor);
  Tensor y(DType::Float, k->output_shapes(in).at(0));
  k->run(in, {&y});
  return rounded(y);
}

// Runs the case through the fast kernel and the reference on x and compares: the exact
// operators bitwise, the others within 1 ULP and bitwise the float32 kernel's result rounded.
void f16_check(const F16UnaryCase& c, const Tensor& x) {
  UnaryRequest r(c, x.shape());
  std::string what = c.op + "-" + std::to_string(c.opset) + " " + shape_str(x.shape());
  if (!c.extra.empty() && c.extra[0].kind != Value::Kind::None)
    what += " with " + std::string(dtype_name(c.extra[0].tensor.dtype())) + " " + std::to_string(c.extra[0].tensor.as_double(0));
  auto k = make_fast_kernel(r.req);
  ASSERT_NE(k, nullptr) << what;
  EXPECT_EQ(k->name(), "fast:unary");
  EXPECT_TRUE(k->takes_float16()) << what;
  std::vector<const Tensor*> in = {&x};
  for (const auto& e : c.extra) in.push_back(e.kind == Value::Kind::None ? nullptr : &e.tensor);
  Shape shape = k->output_shapes(in).at(0);
  EXPECT_EQ(k->output_bytes(in, {}, 0), shape_size(shape) * 2) << what;
  Tensor y(k->output_dtype(in, 0), shape);
  k->run(in, {&y});
  std::vector<Value> ref_in = {Value(x)};
  ref_in.insert(ref_in.end(), c.extra.begin(), c.extra.end());
  Tensor want = run_op(c.op, c.opset, ref_in, c.attrs).at(0).tensor;
  expect_agreement(y, want, c.exact ? 0 : 1, what, &x);
  // (Clip's float32 kernel has other default bounds: the exact operators are compared bitwise.)
  if (!c.exact) expect_agreement(y, float32_kernel_rounded(c, x), 0, what + " against the float32 kernel", &x);
}

std::vector<F16UnaryCase> f16_all_cases() {
  auto h = [](float v) { return Value(half_scalar(v)); };
  auto f = [](float v) { return Value(Tensor::scalar<float>(v)); };
  std::vector<F16UnaryCase> cases = {
      {"Relu", 14, true, {}, {}, {}},
      {"Neg", 13, true, {}, {}, {}},
      {"Abs", 13, true, {}, {}, {}},
      {"LeakyRelu", 16, false, {}, {}, {}},  // alpha·x rounds to float, then to float16
      {"LeakyRelu", 16, false, {attr_float("alpha", 0.3f)}, {float_attr("alpha", 0.3f)}, {}},
      // Before 11 the float bounds are rounded to float16: the defaults (float's lowest and max)
      // become ±inf, 0.1 the nearest float16 and 1e5 +inf.
      {"Clip", 6, true, {}, {}, {}},
      {"Clip",
       6,
       true,
       {attr_float("min", -1.5f), attr_float("max", 2.0f)},
       {float_attr("min", -1.5f), float_attr("max", 2.0f)},
       {}},
      {"Clip",
       6,
       true,
       {attr_float("min", 0.1f), attr_float("max", 1e5f)},
       {float_attr("min", 0.1f), float_attr("max", 1e5f)},
       {}},
      {"Clip", 13, true, {}, {}, {}},  // omitted bounds are ±65504: inf is clipped
      {"Clip", 13, true, {}, {}, {h(0.0f), h(6.0f)}},
      {"Clip", 13, true, {}, {}, {h(-0.25f)}},
      {"Clip", 13, true, {}, {}, {Value(), h(1.0f)}},
      {"Clip", 13, true, {}, {}, {h(2.0f), h(-1.0f)}},  // min > max: every element is max
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
      // x·x is exact in float for a float16 x, so x^2 rounds once: bitwise.
      {"Pow", 15, true, {}, {}, {h(2.0f)}},
      {"Pow", 15, true, {}, {}, {h(1.0f)}},
      {"Pow", 15, false, {}, {}, {h(0.5f)}},
      {"Pow", 15, false, {}, {}, {h(3.0f)}},
      {"Pow", 15, false, {}, {}, {h(-1.5f)}},
      {"Pow", 15, false, {}, {}, {h(0.0f)}},
      {"Pow", 15, false, {}, {}, {f(2.5f)}},  // a float exponent (version 12 on)
      {"Pow", 15, true, {}, {}, {f(2.0f)}},
      {"Pow", 7, false, {}, {}, {h(-0.5f)}},
  };
  for (auto& c : cases)  // Gelu's approximate attribute for the kernel's node
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

TEST(FastFloat16, UnaryCasesCoverEveryOperatorOfTheKernel) {
  std::set<std::string> ops;
  for (const auto& c : f16_all_cases()) ops.insert(c.op);
  for (const char* op : {"Relu", "Neg", "Abs", "Sigmoid", "Tanh", "Erf", "Exp", "Log", "Sqrt", "Reciprocal", "Softplus",
                         "HardSwish", "LeakyRelu", "Elu", "HardSigmoid", "Gelu", "Clip", "Pow"})
    EXPECT_TRUE(ops.contains(op)) << op;
}

TEST(FastFloat16, UnaryMatchesTheReferenceOnEveryHalf) {
  Tensor x = every_half();
  for (const auto& c : f16_all_cases()) f16_check(c, x);
}

// Longer than a thread's block (several OpenMP blocks and a partial last chunk), scalars, empty
// tensors and an exponent that broadcasts the result to a higher rank.
TEST(FastFloat16, UnaryOnLongScalarAndEmptyTensors) {
  Tensor x(DType::Float16, {3, 65536 + 41});
  auto v = x.values<float16_t>();
  for (size_t i = 0; i < v.size(); ++i) v[i] = half_bits(static_cast<uint16_t>(i * 40503));
  for (const auto& c : f16_all_cases())
    if (c.op == "Sigmoid" || c.op == "Clip" || c.op == "Log" || c.op == "Pow") f16_check(c, x);
  std::mt19937 rng(7);
  for (const Shape& s : {Shape{}, Shape{0, 4}, Shape{1}, Shape{17}})
    for (const auto& c : f16_all_cases())
      if (c.op == "Tanh" || c.op == "Relu" || c.op == "Exp") f16_check(c, mixed_halves(s, rng));
  Tensor e(DType::Float16, {1, 1, 1});
  e.data<float16_t>()[0] = float16_t(2.0f);
  f16_check({"Pow", 15, true, {}, {}, {Value(e)}}, mixed_halves({40}, rng));
}

TEST(FastFloat16, UnaryDeclinesWhatTheReferenceRejectsAndKeepsFloat32Kernels) {
  auto h = [](float v) { return Value(half_scalar(v)); };
  auto f = [](float v) { return Value(Tensor::scalar<float>(v)); };
  // A float exponent before version 12 and a float Clip bound: the reference traps on them.
  for (const F16UnaryCase& c :
       {F16UnaryCase{"Pow", 7, false, {}, {}, {f(2.0f)}}, F16UnaryCase{"Clip", 13, true, {}, {}, {f(0.0f)}},
        F16UnaryCase{"Pow", 15, false, {}, {}, {Value(Tensor::scalar<double>(2.0))}}}) {
    UnaryRequest r(c, {4});
    EXPECT_EQ(make_fast_kernel(r.req), nullptr) << c.op << "-" << c.opset;
  }
  UnaryRequest r({"Relu", 14, true, {}, {}, {}}, {4});
  auto k = make_fast_kernel(r.req);
  ASSERT_NE(k, nullptr);
  Tensor x16 = half_scalar(1.0f), x32 = Tensor::scalar<float>(1.0f);
  EXPECT_EQ(k->output_dtype({&x16}, 0), DType::Float16);
  EXPECT_FALSE(k->can_produce_blocked_output()) << "blocked layouts are float32 only";
  EXPECT_THROW(k->output_shapes({&x32}), InternalError) << "a float16 kernel given float32";
  // The float32 kernel of the same node is unchanged: float32 only, float output.
  r.req.input_types = {float_type({4})};
  auto k32 = make_fast_kernel(r.req);
  ASSERT_NE(k32, nullptr);
  EXPECT_FALSE(k32->takes_float16());
  EXPECT_EQ(k32->output_dtype({&x32}, 0), DType::Float);
  EXPECT_TRUE(k32->can_produce_blocked_output());
  const F16UnaryCase half_bound{"Clip", 13, true, {}, {}, {h(0.0f)}};  // the request points into it
  UnaryRequest clip(half_bound, {4});
  clip.req.input_types = {float_type({4}), float_type({})};
  EXPECT_EQ(make_fast_kernel(clip.req), nullptr) << "float32 Clip with a float16 bound";
}

// ---- binary ----

struct F16BinaryRequest {
  Node node;
  FastKernelRequest req;
  F16BinaryRequest(const std::string& op, int64_t version, const TypeInfo& a, const TypeInfo& b) {
    node.op_type = op;
    node.name = "node";
    node.inputs = {"a", "b"};
    node.outputs = {"y"};
    req.node = &node;
    req.version = version;
    req.input_types = {a, b};
  }
};

void check_binary(const std::string& op, const Tensor& a, const Tensor& b) {
  F16BinaryRequest r(op, 14, type_of(a), type_of(b));
  std::string what = op + " " + shape_str(a.shape()) + " " + shape_str(b.shape());
  auto k = make_fast_kernel(r.req);
  ASSERT_NE(k, nullptr) << what;
  EXPECT_EQ(k->name(), "fast:binary");
  EXPECT_TRUE(k->takes_float16()) << what;
  Shape shape = k->output_shapes({&a, &b}).at(0);
  EXPECT_EQ(k->output_bytes({&a, &b}, {nullptr, nullptr}, 0), shape_size(shape) * 2) << what;
  Tensor y(k->output_dtype({&a, &b}, 0), shape);
  k->run({&a, &b}, {&y});
  Tensor want = run_op(op, 14, {Value(a), Value(b)}, {})[0].tensor;
  expect_agreement(y, want, 1, what);
  // The float32 kernel on the widened operands, rounded.
  Tensor a32 = widened(a), b32 = widened(b);
  F16BinaryRequest r32(op, 14, type_of(a32), type_of(b32));
  auto k32 = make_fast_kernel(r32.req);
  ASSERT_NE(k32, nullptr) << what;
  Tensor y32(DType::Float, shape);
  k32->run({&a32, &b32}, {&y32});
  expect_agreement(y, rounded(y32), 0, what + " against the float32 kernel");
}

TEST(FastFloat16, BinaryMatchesTheReferenceOnEveryBroadcastPattern) {
  std::mt19937 rng(5);
  const std::vector<std::pair<Shape, Shape>> patterns{
      {{2, 3, 4, 5}, {2, 3, 4, 5}},
      {{2, 3, 4, 5}, {1, 3, 1, 1}},
      {{1, 3, 1, 1}, {2, 3, 4, 5}},
      {{2, 3, 4, 5}, {}},
      {{}, {2, 3}},
      {{3, 1, 5}, {1, 4, 1}},
      {{4, 5}, {2, 3, 4, 5}},
      {{5}, {2, 1, 5}},
      {{2, 1}, {1, 7}},
      {{1, 1}, {1, 1}},
      {{0, 3}, {1, 3}},
      {{6, 1, 1, 8}, {1, 2, 3, 1}},
      {{2, 1000}, {1, 1000}},  // rows of several conversion chunks
      // Long enough to be split over threads: one long row, rows, rows starting mid-odometer.
      {{2, 40, 30, 30}, {2, 40, 30, 30}},
      {{20001}, {}},
      {{2, 40, 30, 30}, {1, 40, 1, 1}},
      {{3, 1, 9001}, {1, 4, 1}}};
  for (const char* op : {"Add", "Sub", "Mul", "Div"})
    for (const auto& [sa, sb] : patterns) check_binary(op, mixed_halves(sa, rng), mixed_halves(sb, rng));
}

// Every float16 against scalars that make sums and products overflow to inf, land on 65504,
// cancel to ±0 and underflow to subnormals; and each scalar on the left.
TEST(FastFloat16, BinaryOfEveryHalfWithSpecialScalars) {
  Tensor all = every_half();
  for (uint16_t s : {kHalfMax, uint16_t{0x7bfe}, uint16_t{0x3c00}, uint16_t{0xbc00}, uint16_t{0x8000}, uint16_t{0x0001},
                     uint16_t{0x03ff}, uint16_t{0x2e66}, uint16_t{0x4248}, kHalfInf, kHalfNaN, uint16_t{0x0c00}}) {
    Tensor b = Tensor::scalar<float16_t>(half_bits(s));
    for (const char* op : {"Add", "Sub", "Mul", "Div"}) {
      check_binary(op, all, b);
      check_binary(op, b, all);
    }
  }
}

TEST(FastFloat16, BinaryTrapsOnMixedTypesAsTheReference) {
  for (const char* op : {"Add", "Sub", "Mul", "Div"}) {
    Tensor a = half_scalar(1.0f), b = Tensor::scalar<float>(2.0f);
    F16BinaryRequest mixed(op, 14, type_of(a), type_of(b));
    EXPECT_EQ(make_fast_kernel(mixed.req), nullptr) << op << ": declared float16 and float";
    // Declared float16 both, given float16 and float: the executor checks the first input only.
    F16BinaryRequest r(op, 14, type_of(a), type_of(a));
    auto k = make_fast_kernel(r.req);
    ASSERT_NE(k, nullptr) << op;
    std::string fast_error, reference_error;
    try {
      k->output_shapes({&a, &b});
    } catch (const Trap& e) {
      fast_error = e.what();
    }
    try {
      run_op(op, 14, {Value(a), Value(b)}, {});
    } catch (const Trap& e) {
      reference_error = e.what();
    }
    ASSERT_FALSE(fast_error.empty()) << op << " did not trap";
    EXPECT_NE(reference_error.find(fast_error), std::string::npos) << op << ": " << fast_error << " vs " << reference_error;
  }
}

TEST(FastFloat16, BinaryFloat32KernelsAreUnchanged) {
  F16BinaryRequest r("Mul", 14, float_type({4}), float_type({4}));
  auto k = make_fast_kernel(r.req);
  ASSERT_NE(k, nullptr);
  EXPECT_FALSE(k->takes_float16());
  EXPECT_TRUE(k->can_produce_blocked_output());
  Tensor a = Tensor::scalar<float>(1.0f);
  EXPECT_EQ(k->output_dtype({&a, &a}, 0), DType::Float);
  F16BinaryRequest h("Mul", 14, half_type({4}), half_type({4}));
  auto k16 = make_fast_kernel(h.req);
  ASSERT_NE(k16, nullptr);
  EXPECT_FALSE(k16->can_produce_blocked_output()) << "blocked layouts are float32 only";
}

// ---- an executor ----

// y = Sigmoid(Relu(x) + bias) on float16, bias per channel; long enough to split over threads.
Model float16_chain_model() {
  Model m = testing::empty_model(14);
  m.graph.inputs.push_back({"x", half_type({2, 3, 128, 128})});
  std::mt19937 rng(3);
  m.graph.initializers.emplace_back("bias", mixed_halves({1, 3, 1, 1}, rng));
  for (Node n : {testing::ir_node("Relu", {"x"}, {"r"}), testing::ir_node("Add", {"r", "bias"}, {"a"}),
                 testing::ir_node("Sigmoid", {"a"}, {"y"})}) {
    testing::add_node(m.graph, n);
  }
  m.graph.outputs.push_back({"y", half_type({2, 3, 128, 128})});
  add_inferred_types(m);  // fast kernels are chosen for known element types
  return m;
}

TEST(FastFloat16, EveryExecutorRunsAFloat16ChainOnFastKernels) {
  Model m = float16_chain_model();
  for (const auto& name : optimized_executor_names())
    for (int threads : {1, 2}) {
      ExecutorOptions o;
      o.threads = threads;
      auto exec = make_optimized_executor(m, name, o);
      std::string what = name + " threads=" + std::to_string(threads);
      // The first run plans; the next runs in the arena, on other inputs.
      for (unsigned seed : {1u, 2u}) {
        std::mt19937 rng(seed);
        NamedValues in;
        in["x"] = Value(mixed_halves({2, 3, 128, 128}, rng));
        NamedValues want = Interpreter(m).run(in);
        NamedValues got = exec->run(in);
        expect_agreement(got.at("y").tensor, want.at("y").tensor, 1, what);
      }
      const auto& k = exec->kernels_run();
      EXPECT_FALSE(k.contains("reference")) << what;
      EXPECT_EQ(k.contains("fast:unary") ? k.at("fast:unary") : 0, 2) << what;
      EXPECT_EQ(k.contains("fast:binary") ? k.at("fast:binary") : 0, 1) << what;
    }
}

}  // namespace
}  // namespace sonnx::testing
