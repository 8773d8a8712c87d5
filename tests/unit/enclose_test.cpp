// Guaranteed enclosures (enclose/): every interval holds the exact real result, checked
// against MPFR at a precision where the check itself is exact (sums of products of doubles) or
// 300 bits (elementary functions), and the intervals are narrow.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cfloat>
#include <random>

#include "reference/infer/infer_types.h"
#include "enclose/dot.h"
#include "enclose/elementary.h"
#include "enclose/encloser.h"
#include "reference/interp/interpreter.h"
#include "sonnx/errors.h"
#include "enclose_test_util.h"
#include "tensor_test_util.h"

namespace sonnx::enclose {
namespace {

TEST(Enclose, ArithmeticHoldsTheExactResult) {
  std::mt19937 rng(1);
  for (int t = 0; t < 20000; ++t) {
    double a = random_float(rng), b = random_float(rng);
    Exact sum(a), diff(a), prod(a), quot(a);
    mpfr_add_d(sum.get(), sum.get(), b, MPFR_RNDN);
    mpfr_sub_d(diff.get(), diff.get(), b, MPFR_RNDN);
    mpfr_mul_d(prod.get(), prod.get(), b, MPFR_RNDN);
    mpfr_div_d(quot.get(), quot.get(), b, MPFR_RNDN);  // not exact: 2200 bits against a 2-ulp interval
    Interval A = Interval::point(a), B = Interval::point(b);
    ASSERT_TRUE(sum.inside(A + B)) << a << " + " << b;
    ASSERT_TRUE(diff.inside(A - B)) << a << " - " << b;
    ASSERT_TRUE(prod.inside(A * B)) << a << " * " << b;
    ASSERT_TRUE(quot.inside(A / B)) << a << " / " << b;
    EXPECT_LE(ulps_of_double(A * B), 2.0);
  }
  EXPECT_TRUE((Interval{1, 2} / Interval{-1, 1}).has_nan()) << "a divisor that may be 0: undefined";
}

// The rounding error of +, × and ÷ is known exactly (TwoSum, FMA), so a result that is exact in
// double is a point and an inexact one is stepped on one side only: one double wide.
TEST(Enclose, ArithmeticExactInDoubleStaysAPoint) {
  Interval a = Interval::point(1.5), b = Interval::point(2.25);
  for (Interval r : {a + b, a - b, a * b, a / Interval::point(0.25)}) EXPECT_EQ(r.lo, r.hi) << r.lo;
  Interval third = Interval::point(1) / Interval::point(3);
  EXPECT_EQ(third.hi, up(third.lo));
  EXPECT_TRUE(third.lo < 1.0 / 3 || third.hi > 1.0 / 3);
  Interval tiny = Interval::point(1) + Interval::point(0x1p-80);  // 1 + 2^-80 lies above 1
  EXPECT_EQ(tiny.lo, 1.0);
  EXPECT_EQ(tiny.hi, up(1.0));
}

TEST(Enclose, ElementaryFunctionsHoldTheExactValueWithinTwoUlps) {
  struct Fn {
    const char* name;
    Interval (*bound)(Interval);
    int (*exact)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
  };
  const Fn fns[] = {{"exp", exp, mpfr_exp},
                    {"tanh", tanh, mpfr_tanh},
                    {"erf", erf, mpfr_erf},
                    {"log", log, mpfr_log},
                    {"sqrt", sqrt, mpfr_sqrt}};
  std::mt19937 rng(2);
  for (const Fn& f : fns)
    for (int t = 0; t < 3000; ++t) {
      double x = random_float(rng);
      if (f.exact == mpfr_log || f.exact == mpfr_sqrt) x = std::fabs(x) + 1e-30;
      if (f.exact == mpfr_exp) x = std::fmod(x, 700.0);
      mpfr_t e;
      mpfr_init2(e, 300);
      mpfr_set_d(e, x, MPFR_RNDN);
      f.exact(e, e, MPFR_RNDN);
      Interval i = f.bound(Interval::point(x));
      ASSERT_TRUE(mpfr_cmp_d(e, i.lo) >= 0 && mpfr_cmp_d(e, i.hi) <= 0) << f.name << "(" << x << ")";
      if (i.hi != 0) {
        EXPECT_LE(ulps_of_double(i), 2.0) << f.name << "(" << x << ")";
      }
      mpfr_clear(e);
    }
  EXPECT_TRUE(log(Interval{-1, 2}).has_nan()) << "no real logarithm below 0";
  EXPECT_EQ(log(Interval{0, 1}).lo, -INFINITY) << "log 0 = −∞, the limit";
  EXPECT_EQ(log(Interval{0, 1}).hi, 0.0);
}

TEST(Enclose, SigmoidHoldsTheExactValue) {
  std::mt19937 rng(3);
  for (int t = 0; t < 3000; ++t) {
    double x = std::fmod(random_float(rng), 700.0);
    mpfr_t e;
    mpfr_init2(e, 300);
    mpfr_set_d(e, -x, MPFR_RNDN);
    mpfr_exp(e, e, MPFR_RNDN);
    mpfr_add_ui(e, e, 1, MPFR_RNDN);
    mpfr_ui_div(e, 1, e, MPFR_RNDN);
    Interval i = sigmoid(Interval::point(x));
    ASSERT_TRUE(mpfr_cmp_d(e, i.lo) >= 0 && mpfr_cmp_d(e, i.hi) <= 0) << "sigmoid(" << x << ")";
    mpfr_clear(e);
  }
}

// Σ a_i·b_i + bias for points, and for any points chosen inside interval operands.
TEST(Enclose, DotProductsHoldEveryExactSum) {
  std::mt19937 rng(4);
  std::uniform_int_distribution<int> length(1, 2000);
  std::uniform_real_distribution<double> where(0.0, 1.0);
  for (int t = 0; t < 200; ++t) {
    int n = length(rng);
    double bias = random_float(rng);
    DotBound points, boxes;
    Exact exact_points(bias), exact_inside(bias);
    for (int i = 0; i < n; ++i) {
      double a = random_float(rng), b = random_float(rng), ra = std::fabs(a) * 1e-6 * where(rng);
      points.add(MidRad::of(Interval::point(a)), MidRad::of(Interval::point(b)));
      exact_points.add_product(a, b);
      Interval box{a - ra, a + ra};
      boxes.add(MidRad::of(box), MidRad::of(Interval::point(b)));
      exact_inside.add_product(box.lo + (box.hi - box.lo) * where(rng), b);  // a point of the box
    }
    Interval p = points.affine(1, MidRad::of(Interval::point(bias))), q = boxes.affine(1, MidRad::of(Interval::point(bias)));
    ASSERT_TRUE(exact_points.inside(p)) << "n " << n;
    ASSERT_TRUE(exact_inside.inside(q)) << "n " << n;
  }
}

// y = Softmax(Gemm(GlobalAveragePool(Relu(Conv(x, w, b))), fc, fb, transB=1)).
Model small_model(std::mt19937& rng) {
  using testing::ir_node;
  Model m = testing::empty_model(13);
  m.graph.inputs.push_back({"x", testing::float_type({1, 3, 8, 8})});
  m.graph.initializers.emplace_back("w", testing::random_float_tensor({4, 3, 3, 3}, rng));
  m.graph.initializers.emplace_back("b", testing::random_float_tensor({4}, rng));
  m.graph.initializers.emplace_back("fc", testing::random_float_tensor({5, 4}, rng));
  m.graph.initializers.emplace_back("fb", testing::random_float_tensor({5}, rng));
  for (Node n : {ir_node("Conv", {"x", "w", "b"}, {"c"}), ir_node("Relu", {"c"}, {"r"}),
                 ir_node("GlobalAveragePool", {"r"}, {"p"}), ir_node("Flatten", {"p"}, {"f"}),
                 ir_node("Gemm", {"f", "fc", "fb"}, {"g"}, {testing::int_attr("transB", 1)}), ir_node("Softmax", {"g"}, {"y"})})
    testing::add_node(m.graph, n);
  m.graph.outputs.push_back({"y", testing::float_type({1, 5})});
  add_inferred_types(m);
  return m;
}

// The reference computes in float; the exact result lies in the enclosure, which is a fraction of
// a float ULP wide, so the reference's result is within a few float ULPs of it.
TEST(Enclose, ASmallModelIsEnclosedTightlyAndTheReferenceLiesNextToIt) {
  std::mt19937 rng(5);
  Model m = small_model(rng);
  NamedValues in = {{"x", Value(testing::random_float_tensor({1, 3, 8, 8}, rng))}};
  std::map<std::string, Bounds> b = enclose_model(m, in);
  const Bounds& y = b.at("y");
  ASSERT_EQ(y.type, DType::Float);
  ASSERT_EQ(y.lo.shape(), (Shape{1, 5}));
  Tensor want = Interpreter(m).run(in).at("y").tensor;
  double sum_lo = 0, sum_hi = 0;
  for (int64_t i = 0; i < 5; ++i) {
    double lo = y.lo.data<double>()[i], hi = y.hi.data<double>()[i], r = want.data<float>()[i];
    float ulp = std::nextafter(static_cast<float>(hi), 1.0f) - static_cast<float>(hi);
    EXPECT_LT(hi - lo, 0.01 * ulp) << "element " << i << " is not tight";
    EXPECT_LE(std::max(lo - r, r - hi), 8 * ulp) << "element " << i;
    sum_lo += lo;
    sum_hi += hi;
  }
  EXPECT_LE(sum_lo, 1.0);  // softmax sums to 1 in exact arithmetic
  EXPECT_GE(sum_hi, 1.0);
}

TEST(Enclose, AnOperatorWithoutAnEnclosureIsRefusedByName) {
  std::mt19937 rng(6);
  Model m = testing::empty_model(13);
  m.graph.inputs.push_back({"x", testing::float_type({4})});
  testing::add_node(m.graph, testing::ir_node("RandomUniformLike", {"x"}, {"y"}));
  m.graph.outputs.push_back({"y", testing::float_type({4})});
  NamedValues in = {{"x", Value(testing::random_float_tensor({4}, rng))}};
  try {
    enclose_model(m, in);
    FAIL() << "a random operator has no enclosure";
  } catch (const Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("no enclosure for RandomUniformLike-1"), std::string::npos) << e.what();
  }
}

TEST(Enclose, InfinitiesAreExtendedRealsAndNaNIsUndefined) {
  Model m = testing::empty_model(13);
  m.graph.inputs.push_back({"x", testing::float_type({3})});
  testing::add_node(m.graph, testing::ir_node("Exp", {"x"}, {"e"}));
  testing::add_node(m.graph, testing::ir_node("Shape", {"x"}, {"s"}));
  m.graph.outputs.push_back({"e", testing::float_type({3})});
  TypeInfo i64;
  i64.kind = TypeInfo::Kind::Tensor;
  i64.elem = DType::Int64;
  m.graph.outputs.push_back({"s", i64});
  NamedValues in = {{"x", Value(Tensor::from_vector<float>({3}, {0.0f, std::nanf(""), INFINITY}))}};
  auto b = enclose_model(m, in);
  const Bounds& e = b.at("e");
  EXPECT_EQ(e.lo.data<double>()[0], 1.0);
  EXPECT_EQ(e.hi.data<double>()[0], 1.0);
  EXPECT_TRUE(std::isnan(e.lo.data<double>()[1]) && std::isnan(e.hi.data<double>()[1]))
      << "NaN denotes no real: e^NaN is undefined";
  EXPECT_EQ(e.lo.data<double>()[2], INFINITY) << "e^∞ = ∞, a point of the extended reals";
  EXPECT_EQ(e.hi.data<double>()[2], INFINITY);
  EXPECT_TRUE(b.at("s").exact());
  EXPECT_EQ(b.at("s").lo, testing::i64({3}));
}

TEST(Enclose, InfinitiesTakeTheirLimitsExactly) {
  const Interval minus_inf = Interval::point(-INFINITY), two = Interval::point(2);
  for (Interval r : {minus_inf + two, minus_inf - two, minus_inf * two, two * minus_inf, minus_inf / two}) {
    EXPECT_EQ(r.lo, -INFINITY);
    EXPECT_EQ(r.hi, -INFINITY);
  }
  Interval zero = two / minus_inf;
  EXPECT_EQ(zero.lo, 0.0);
  EXPECT_EQ(zero.hi, 0.0);
  EXPECT_EQ(exp(minus_inf).hi, 0.0);
  EXPECT_TRUE((minus_inf + Interval::point(INFINITY)).has_nan()) << "∞ − ∞ has no value";
  EXPECT_TRUE((minus_inf * Interval::point(0)).has_nan()) << "0·∞ has no value";
  Interval overflow = Interval::point(DBL_MAX) + Interval::point(DBL_MAX);
  EXPECT_EQ(overflow.lo, DBL_MAX) << "a finite real beyond the doubles: [DBL_MAX, +∞]";
  EXPECT_EQ(overflow.hi, INFINITY);
}

TEST(Enclose, SoftmaxUnderAMinusInfinityMaskGivesTheMaskedElementExactlyZero) {
  Model m = testing::empty_model(13);
  m.graph.inputs.push_back({"x", testing::float_type({3})});
  m.graph.inputs.push_back({"mask", testing::float_type({3})});
  testing::add_node(m.graph, testing::ir_node("Add", {"x", "mask"}, {"s"}));
  testing::add_node(m.graph, testing::ir_node("Softmax", {"s"}, {"y"}));
  m.graph.outputs.push_back({"y", testing::float_type({3})});
  NamedValues in = {{"x", Value(Tensor::from_vector<float>({3}, {0.5f, 0.25f, 2.0f}))},
                    {"mask", Value(Tensor::from_vector<float>({3}, {0.0f, 0.0f, -INFINITY}))}};
  for (Semantics s : {Semantics::Real, Semantics::Admissible}) {
    std::map<std::string, Bounds> out = enclose_model(m, in, s);
    const Bounds& y = out.at("y");
    EXPECT_EQ(y.lo.data<double>()[2], 0.0);
    EXPECT_EQ(y.hi.data<double>()[2], 0.0);
    Exact first(1.0, 200);  // 1 / (1 + e^(0.25 − 0.5))
    mpfr_t t;
    mpfr_init2(t, 200);
    mpfr_set_d(t, -0.25, MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDN);
    mpfr_add_ui(t, t, 1, MPFR_RNDN);
    mpfr_ui_div(first.get(), 1, t, MPFR_RNDN);
    mpfr_clear(t);
    EXPECT_TRUE(first.inside({y.lo.data<double>()[0], y.hi.data<double>()[0]}));
    if (s == Semantics::Real) {
      EXPECT_LE(ulps_of_double({y.lo.data<double>()[0], y.hi.data<double>()[0]}), 8.0);
    }
  }
}

}  // namespace
}  // namespace sonnx::enclose
