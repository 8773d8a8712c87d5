// Enclosures of Sin, Cos, Softplus, HardSwish, Pow, AveragePool, ReduceSum, ReduceMean,
// ConvTranspose, the comparisons, ArgMax, Cast, CastLike, ScatterND, MaxPool's Indices and Resize
// (enclose/).
// Each on random inputs: the exact value (MPFR: exact at 2200 bits for sums of products, 300 bits
// for the transcendental functions) lies in the real enclosure, which is narrow (the bound each test
// states); the reference interpreter's float32 result lies in the admissible enclosure, and a value
// twice the allowance away does not. Booleans and indices are decided where the enclosures decide
// them and Undetermined elsewhere; what has no enclosure is refused by name.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <functional>
#include <random>

#include "enclose_test_util.h"
#include "enclose/elementary.h"
#include "enclose/enclose_ops.h"
#include "enclose/type_rounding.h"
#include "sonnx/errors.h"
#include "tensor_test_util.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_float;
using sonnx::testing::attr_int;
using sonnx::testing::attr_ints;
using sonnx::testing::attr_string;
using Attrs = std::vector<onnx::AttributeProto>;

constexpr double kU = 0x1p-53;  // the unit roundoff of double

// The float `steps` representable values above r.
double float_steps_up(double r, int steps) {
  float f = static_cast<float>(r);
  for (int i = 0; i < steps; ++i) f = std::nextafter(f, INFINITY);
  return f;
}

// e^y in place, y a double.
void pow_double(mpfr_ptr e, double y) {
  Exact p(y, 300);
  mpfr_pow(e, e, p.get(), MPFR_RNDN);
}

// f(x) at 300 bits.
using ExactFn = std::function<void(mpfr_ptr, double)>;

bool holds(const ExactFn& f, double x, Interval i) {
  Exact e(0, 300);
  f(e.get(), x);
  return e.inside(i);
}

const ExactFn kSin = [](mpfr_ptr e, double x) {
  mpfr_set_d(e, x, MPFR_RNDN);
  mpfr_sin(e, e, MPFR_RNDN);
};
const ExactFn kCos = [](mpfr_ptr e, double x) {
  mpfr_set_d(e, x, MPFR_RNDN);
  mpfr_cos(e, e, MPFR_RNDN);
};
const ExactFn kSoftplus = [](mpfr_ptr e, double x) {  // max(x, 0) + ln(1 + e^(−|x|)): e^x may leave MPFR's range
  mpfr_set_d(e, -std::fabs(x), MPFR_RNDN);
  mpfr_exp(e, e, MPFR_RNDN);
  mpfr_log1p(e, e, MPFR_RNDN);
  if (x > 0) mpfr_add_d(e, e, x, MPFR_RNDN);
};
const ExactFn kHardSwish = [](mpfr_ptr e, double x) {
  mpfr_set_d(e, x >= 3 ? x : x <= -3 ? 0.0 : x, MPFR_RNDN);
  if (x >= 3 || x <= -3) return;
  mpfr_add_ui(e, e, 3, MPFR_RNDN);
  mpfr_mul_d(e, e, x, MPFR_RNDN);  // x·(x + 3) is exact at 300 bits
  mpfr_div_ui(e, e, 6, MPFR_RNDN);
};

// ---- Sin, Cos, Softplus, Pow on intervals (elementary.h) ----

// At points: within 2 double ulps (one correctly rounded value down and one up).
TEST(EncloseOps, SinCosSoftplusHoldTheExactValueWithinTwoUlps) {
  struct Fn {
    const char* name;
    Interval (*bound)(Interval);
    ExactFn exact;
  };
  const Fn fns[] = {{"sin", sin, kSin}, {"cos", cos, kCos}, {"softplus", softplus, kSoftplus}};
  std::mt19937 rng(11);
  std::vector<double> xs = {0.0, 0x1.921fb6p0f, 0x1.921fb6p1f, -0x1.921fb6p0f, 1e30, -3.4e38, 88.0, -104.0, 0x1p-140};
  for (int t = 0; t < 3000; ++t) xs.push_back(random_float(rng));
  for (const Fn& f : fns)
    for (double x : xs) {
      Interval i = f.bound(Interval::point(x));
      ASSERT_TRUE(holds(f.exact, x, i)) << f.name << "(" << x << ")";
      if (magnitude(i) > 0x1p-1000) {  // e^x below the normal doubles: [0, the smallest subnormal]
        EXPECT_LE(ulps_of_double(i), 2.0) << f.name << "(" << x << ")";
      }
    }
}

// f(x) at 300 bits, rounded down or up to a double.
double rounded(const ExactFn& f, double x, mpfr_rnd_t direction) {
  Exact e(0, 300);
  f(e.get(), x);
  return mpfr_get_d(e.get(), direction);
}

// Over intervals: every value at a point inside, and ±1 exactly where the interval holds a maximum
// or minimum (decided here at 300 bits); otherwise the hull of the ends' values rounded outward:
// the enclosure is the tightest one in doubles.
TEST(EncloseOps, SinAndCosOverIntervalsHoldTheirExtremaExactlyWhereTheyLie) {
  std::mt19937 rng(12);
  std::uniform_real_distribution<double> width(0.0, 8.0), where(0.0, 1.0);
  Exact pi(0, 300);
  mpfr_const_pi(pi.get(), MPFR_RNDN);
  // Whether [a, b] holds phase + 2kπ for some integer k.
  auto holds_phase = [&](double a, double b, double phase_in_quarters) {
    Exact qa(a, 300), qb(b, 300), shift(phase_in_quarters, 300);
    for (Exact* q : {&qa, &qb}) {  // (x / (π/2) − phase) / 4
      mpfr_div(q->get(), q->get(), pi.get(), MPFR_RNDN);
      mpfr_mul_2ui(q->get(), q->get(), 1, MPFR_RNDN);
      mpfr_sub(q->get(), q->get(), shift.get(), MPFR_RNDN);
      mpfr_div_2ui(q->get(), q->get(), 2, MPFR_RNDN);
    }
    mpfr_ceil(qa.get(), qa.get());
    mpfr_floor(qb.get(), qb.get());
    return mpfr_lessequal_p(qa.get(), qb.get()) != 0;
  };
  for (int t = 0; t < 3000; ++t) {
    double a = std::fmod(random_float(rng), 1e4), b = a + width(rng) * (t % 2 ? 1.0 : 0.1);
    for (bool is_sin : {true, false}) {
      Interval i = is_sin ? sin(Interval{a, b}) : cos(Interval{a, b});
      const ExactFn& f = is_sin ? kSin : kCos;
      for (int s = 0; s < 10; ++s) {
        double x = a + (b - a) * where(rng);
        ASSERT_TRUE(holds(f, std::min(x, b), i)) << (is_sin ? "sin" : "cos") << " at " << x << " in [" << a << ", " << b << "]";
      }
      double max_phase = is_sin ? 1 : 0;  // in quarter turns
      double tight_hi = holds_phase(a, b, max_phase) ? 1.0 : std::max(rounded(f, a, MPFR_RNDU), rounded(f, b, MPFR_RNDU));
      double tight_lo = holds_phase(a, b, max_phase + 2) ? -1.0 : std::min(rounded(f, a, MPFR_RNDD), rounded(f, b, MPFR_RNDD));
      EXPECT_EQ(i.hi, tight_hi) << (is_sin ? "sin" : "cos") << " over [" << a << ", " << b << "]";
      EXPECT_EQ(i.lo, tight_lo) << (is_sin ? "sin" : "cos") << " over [" << a << ", " << b << "]";
    }
  }
  Interval wide = sin(Interval{0, 7});
  EXPECT_EQ(wide.lo, -1.0);
  EXPECT_EQ(wide.hi, 1.0);
  EXPECT_TRUE(cos(Interval::whole()).has_nan()) << "cos ∞ has no limit";
}

TEST(EncloseOps, PowHoldsTheExactValueByTheCasesOfItsExponent) {
  std::mt19937 rng(13);
  std::uniform_real_distribution<float> mant(0.5f, 1.0f), exponent(-8.0f, 8.0f), base(-4.0f, 4.0f);
  std::uniform_int_distribution<int> binade(-10, 10), power(-5, 5);
  for (int t = 0; t < 3000; ++t) {
    // A positive base and any exponent: x^y = e^(y·ln x).
    double x = std::ldexp(static_cast<double>(mant(rng)), binade(rng)), y = exponent(rng);
    Interval i = pow(Interval::point(x), Interval::point(y));
    ExactFn to_the_y = [y](mpfr_ptr e, double v) {
      mpfr_set_d(e, v, MPFR_RNDN);
      pow_double(e, y);
    };
    ASSERT_TRUE(holds(to_the_y, x, i)) << x << "^" << y;
    EXPECT_LE(ulps_of_double(i), 2.0) << x << "^" << y;
    // Any base and an integer exponent.
    double xb = base(rng);
    int n = power(rng);
    Interval j = pow(Interval::point(xb), Interval::point(n));
    if (xb == 0 && n < 0) {
      EXPECT_TRUE(std::isinf(j.lo) && std::isinf(j.hi));
      continue;
    }
    ExactFn to_the_n = [n](mpfr_ptr e, double v) {
      mpfr_set_d(e, v, MPFR_RNDN);
      mpfr_pow_si(e, e, n, MPFR_RNDN);
    };
    ASSERT_TRUE(holds(to_the_n, xb, j)) << xb << "^" << n;
    if (j.hi != 0) {
      EXPECT_LE(ulps_of_double(j), 2.0) << xb << "^" << n;
    }
  }
  // By the sign of the base: x² over [−2, 1] is [0, 4]; x³ is increasing.
  Interval sq = pow(Interval{-2, 1}, Interval::point(2)), cube = pow(Interval{-2, 1}, Interval::point(3));
  EXPECT_EQ(sq.lo, 0.0);
  EXPECT_EQ(sq.hi, 4.0);
  EXPECT_EQ(cube.lo, -8.0);
  EXPECT_EQ(cube.hi, 1.0);
  EXPECT_TRUE(pow(Interval{-1, 2}, Interval::point(-1)).has_nan()) << "1/x where x may be 0";
  EXPECT_TRUE(pow(Interval{-1, 2}, Interval::point(0.5)).has_nan()) << "no real power of a negative base";
  EXPECT_EQ(pow(Interval{0, 4}, Interval{0.5, 1}).lo, 0.0);
  EXPECT_EQ(pow(Interval{0, 4}, Interval{0.5, 1}).hi, 4.0);
}

// ---- the unary operators as one-node models ----

// The real enclosure holds the exact value within `max_ulps` double ulps; the admissible one holds
// the reference interpreter's float result; with an ulps allowance k, the reference's result moved
// up 2k + 1 floats (twice the allowance and the rounding) lies outside it.
void check_unary_model(const std::string& op, int64_t opset, const std::vector<float>& x, const ExactFn& exact, double max_ulps,
                       double allowance_ulps) {
  OneNodeModel m = one_node_model(op, opset, {floats({static_cast<int64_t>(x.size())}, x)});
  Bounds real = enclose_output(m), admissible = enclose_output(m, Semantics::Admissible);
  ASSERT_EQ(real.type, DType::Float);
  Tensor r = reference_output(m);
  int rejected = 0;
  for (size_t k = 0; k < x.size(); ++k) {
    int64_t i = static_cast<int64_t>(k);
    Interval e = bound_at(real, i), a = bound_at(admissible, i);
    ASSERT_TRUE(holds(exact, x[k], e)) << op << "(" << x[k] << ")";
    if (magnitude(e) > 0x1p-1000) {  // not in the subnormal doubles, where an ulp is no relative width
      EXPECT_LE(ulps_of_double(e), max_ulps) << op << "(" << x[k] << ")";
    }
    ASSERT_TRUE(a.contains(r.as_double(i))) << op << "(" << x[k] << "): reference " << r.as_double(i) << " outside [" << a.lo
                                            << ", " << a.hi << "]";
    if (allowance_ulps > 0 && r.as_double(i) > 0.5) {
      EXPECT_LT(a.hi, float_steps_up(r.as_double(i), static_cast<int>(2 * allowance_ulps) + 1)) << op << "(" << x[k] << ")";
      ++rejected;
    }
  }
  if (allowance_ulps > 0) {
    EXPECT_GT(rejected, 0);
  }
}

TEST(EncloseOps, SinCosSoftplusModelsHoldTheExactAndTheReferenceResult) {
  std::mt19937 rng(14);
  std::vector<float> x = wide_floats(2000, rng);
  for (float& v : x) v = std::fmod(v, 1000.0f);  // softplus stays finite in float
  for (int64_t opset : {7, 22}) {
    check_unary_model("Sin", opset, x, kSin, 2, kElementaryUlps);
    check_unary_model("Cos", opset, x, kCos, 2, kElementaryUlps);
  }
  check_unary_model("Softplus", 1, x, kSoftplus, 2, kElementaryUlps);
  check_unary_model("Softplus", 22, x, kSoftplus, 2, kElementaryUlps);
}

// HardSwish's real enclosure at a point: x·(x + 3)/6 in three outward-rounded steps, within 8 double
// ulps. Its admissible bound is its own (not relative: about 3u near x = −3, where y is about 0).
TEST(EncloseOps, HardSwishModelHoldsTheExactAndTheReferenceResult) {
  std::mt19937 rng(15);
  std::vector<float> x = uniform_floats(3000, rng, -8, 8);
  for (float v : {-3.0f, 3.0f, -1.5f, 0.0f, -2.9999998f, 3.0000002f, 1e-40f}) x.push_back(v);
  for (int64_t opset : {14, 22}) check_unary_model("HardSwish", opset, x, kHardSwish, 8, 0);
  // Over intervals: (x + 2^54) − 2^54 is not exact in double, so its enclosure p is an interval
  // around x ([−2, 0] for x = −3/2, holding the minimum −3/8, which is then the lower bound); the
  // exact value at points all over p lies inside HardSwish's enclosure.
  std::vector<float> around = {-1.5f, -3.0f, 3.0f, -2.0f, 0.5f};
  NamedValues feed = {{"x", floats({5}, around)}, {"big", floats({5}, std::vector<float>(5, 0x1p54f))}};
  OneNodeModel m = graph_model(14,
                               {named_node("Add", {"x", "big"}, "s"), named_node("Sub", {"s", "big"}, "p"),
                                named_node("HardSwish", {"p"}, "y")},
                               feed, {"p", "y"});
  auto b = enclose_model(m.model, m.feed);
  const Bounds &p = b.at("p"), &y = b.at("y");
  EXPECT_EQ(y.lo.data<double>()[0], -0.375);
  for (int64_t i = 0; i < 5; ++i) {
    Interval in = bound_at(p, i);
    EXPECT_TRUE(in.contains(around[static_cast<size_t>(i)]));
    for (double f : {0.0, 0.1, 0.37, 0.5, 0.81, 1.0}) {
      double t = in.lo + (in.hi - in.lo) * f;
      EXPECT_TRUE(holds(kHardSwish, t, bound_at(y, i))) << "HardSwish(" << t << ")";
    }
  }
}

TEST(EncloseOps, PowModelsHoldTheExactAndTheReferenceResult) {
  std::mt19937 rng(16);
  std::uniform_real_distribution<float> mant(0.5f, 1.0f), exponent(-6.0f, 6.0f);
  std::uniform_int_distribution<int> binade(-6, 6), power(-4, 4);
  size_t n = 2000;
  std::vector<float> x(n), y(n), xb(n);
  std::vector<int64_t> k(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = std::ldexp(mant(rng), binade(rng));
    y[i] = exponent(rng);
    xb[i] = std::ldexp(mant(rng), binade(rng)) * (i % 2 ? -1.0f : 1.0f);
    k[i] = power(rng);
  }
  Shape s = {static_cast<int64_t>(n)};
  for (int64_t opset : {7, 12, 13, 15}) {
    // A float exponent (of a positive base), and from version 12 an int64 exponent (of any base).
    std::vector<OneNodeModel> models;
    models.push_back(one_node_model("Pow", opset, {floats(s, x), floats(s, y)}));
    if (opset >= 12) models.push_back(one_node_model("Pow", opset, {floats(s, xb), Value(Tensor::from_vector<int64_t>(s, k))}));
    for (size_t which = 0; which < models.size(); ++which) {
      const OneNodeModel& m = models[which];
      Bounds real = enclose_output(m), admissible = enclose_output(m, Semantics::Admissible);
      Tensor r = reference_output(m);
      for (size_t j = 0; j < n; ++j) {
        int64_t i = static_cast<int64_t>(j);
        double base = which ? xb[j] : x[j];
        ExactFn f = [&](mpfr_ptr e, double v) {
          mpfr_set_d(e, v, MPFR_RNDN);
          if (which) mpfr_pow_si(e, e, static_cast<long>(k[j]), MPFR_RNDN);
          else pow_double(e, y[j]);
        };
        ASSERT_TRUE(holds(f, base, bound_at(real, i))) << "Pow-" << opset << " element " << j;
        EXPECT_LE(ulps_of_double(bound_at(real, i)), 2.0);
        ASSERT_TRUE(bound_at(admissible, i).contains(r.as_double(i))) << "Pow-" << opset << " element " << j;
      }
    }
  }
}

// ---- the sums: AveragePool, ReduceSum, ReduceMean, ConvTranspose ----

// An operator linear in its float input in0 (the others fixed): y_o = Σ over taps(o) of x_i, divided
// by divisor(o). Read off the reference on float64 one-hot inputs: e_i gives 1/divisor(o) (rounded
// to double, so the divisor is the rounding of its reciprocal) where i is a tap of o, 0 elsewhere.
struct Average {
  std::vector<std::vector<int64_t>> taps;
  std::vector<double> divisor;
};

Average probe_average(const std::string& op, int64_t opset, const Shape& xs, std::vector<Value> others, const Attrs& attrs) {
  std::vector<Value> inputs = {Value(Tensor(DType::Double, xs))};
  inputs.insert(inputs.end(), others.begin(), others.end());
  OneNodeModel m = one_node_model(op, opset, inputs, attrs);
  Average a;
  for (int64_t i = 0; i < shape_size(xs); ++i) {
    Tensor e(DType::Double, xs);
    e.data<double>()[i] = 1;
    m.feed["in0"] = Value(e);
    Tensor y = reference_output(m);
    a.taps.resize(static_cast<size_t>(y.size()));
    a.divisor.resize(a.taps.size(), 1);
    for (int64_t o = 0; o < y.size(); ++o) {
      double w = y.data<double>()[o];
      if (w == 0) continue;
      a.taps[static_cast<size_t>(o)].push_back(i);
      a.divisor[static_cast<size_t>(o)] = std::round(1 / w);
    }
  }
  return a;
}

// Checks the enclosures of an averaging operator on random float x: the exact average in the real
// enclosure, at most 2·(n + 16)·2^-53·Σ|x_i|/divisor wide (γ_(n+9) of dot.h each side, and the
// outward steps of the sum and the division);
// the reference's float result in the admissible one, which lies within γ_(n+9) in float, and whose
// bound moved twice that far is rejected. Returns how many output elements it checked: none where
// the reference refuses the configuration (then so must the encloser).
int64_t check_average(const std::string& op, int64_t opset, const Shape& xs, std::vector<Value> others, const Attrs& attrs,
                      std::mt19937& rng) {
  std::vector<float> x = wide_floats(static_cast<size_t>(shape_size(xs)), rng);
  std::vector<Value> inputs = {floats(xs, x)};
  inputs.insert(inputs.end(), others.begin(), others.end());
  OneNodeModel m = one_node_model(op, opset, inputs, attrs);
  Tensor r;
  try {
    r = reference_output(m);
  } catch (const Trap&) {
    EXPECT_THROW(enclose_output(m), Trap) << op << "-" << opset << ": the reference traps, so must the encloser";
    return 0;
  }
  Average avg = probe_average(op, opset, xs, others, attrs);
  Bounds real = enclose_output(m), admissible = enclose_output(m, Semantics::Admissible);
  EXPECT_EQ(real.type, DType::Float);
  if (real.lo.shape() != r.shape()) {
    ADD_FAILURE() << op << "-" << opset << ": shape " << shape_str(real.lo.shape()) << ", the reference's "
                  << shape_str(r.shape());
    return 0;
  }
  FloatFormat f = float_format(DType::Float);
  for (int64_t o = 0; o < r.size(); ++o) {
    const std::vector<int64_t>& taps = avg.taps[static_cast<size_t>(o)];
    double d = avg.divisor[static_cast<size_t>(o)], magnitude = 0;
    Exact exact;
    for (int64_t i : taps) {
      mpfr_add_d(exact.get(), exact.get(), x[static_cast<size_t>(i)], MPFR_RNDN);  // exact at 2200 bits
      magnitude += std::fabs(x[static_cast<size_t>(i)]);
    }
    mpfr_div_d(exact.get(), exact.get(), d, MPFR_RNDN);
    Interval e = bound_at(real, o), a = bound_at(admissible, o);
    double n = static_cast<double>(taps.size()), spread = magnitude / d;
    EXPECT_TRUE(exact.inside(e)) << op << "-" << opset << " element " << o;
    EXPECT_LE(e.width(), 2 * (n + 16) * kU * spread + 1e-300) << op << "-" << opset << " element " << o;
    EXPECT_TRUE(a.contains(r.as_double(o))) << op << "-" << opset << " element " << o << ": reference " << r.as_double(o);
    double allowance = 1.01 * gamma(n + 9, f.unit_roundoff()) * spread + (n + 9) * f.smallest_subnormal();
    EXPECT_LE(a.hi, e.hi + allowance + 2 * f.ulp(e.hi)) << "admissible looser than its allowance";
    double far = std::nextafter(static_cast<float>(f.round_up(e.hi + 2 * allowance)), INFINITY);
    EXPECT_FALSE(a.contains(far)) << op << "-" << opset << " element " << o << ": a value twice the allowance away";
  }
  return r.size();
}

TEST(EncloseOps, AveragePoolHoldsTheExactMeanUnderEveryAttribute) {
  std::mt19937 rng(21);
  std::uniform_int_distribution<int> kernel(1, 3), stride(1, 2), pad(0, 2), coin(0, 1), pads_kind(0, 3);
  const char* auto_pads[] = {"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"};
  const int64_t opsets[] = {7, 10, 11, 19, 22};
  int64_t configurations = 0, elements = 0;
  for (int t = 0; t < 60; ++t) {
    int64_t opset = opsets[t % 5];
    std::vector<int64_t> k = {kernel(rng), kernel(rng)}, s = {stride(rng), stride(rng)};
    Attrs attrs = {attr_ints("kernel_shape", k), attr_ints("strides", s)};
    std::string auto_pad = auto_pads[pads_kind(rng)];
    if (auto_pad == "NOTSET")
      attrs.push_back(attr_ints("pads", {std::min<int64_t>(pad(rng), k[0] - 1), std::min<int64_t>(pad(rng), k[1] - 1),
                                         std::min<int64_t>(pad(rng), k[0] - 1), std::min<int64_t>(pad(rng), k[1] - 1)}));
    else attrs.push_back(attr_string("auto_pad", auto_pad));
    attrs.push_back(attr_int("count_include_pad", coin(rng)));
    if (opset >= 10) attrs.push_back(attr_int("ceil_mode", coin(rng)));
    if (opset >= 19) attrs.push_back(attr_ints("dilations", {stride(rng), stride(rng)}));
    int64_t n = check_average("AveragePool", opset, {1, 2, 5, 6}, {}, attrs, rng);
    configurations += n > 0;
    elements += n;
  }
  EXPECT_GE(configurations, 30);
  EXPECT_GE(elements, 500);
  EXPECT_EQ(check_average("AveragePool", 1, {1, 1, 7}, {}, {attr_ints("kernel_shape", {3}), attr_ints("pads", {1, 1})}, rng), 7);
}

TEST(EncloseOps, ReduceSumAndReduceMeanHoldTheExactResultOverAnyAxes) {
  std::mt19937 rng(22);
  std::uniform_int_distribution<int> dim(1, 4), rank(1, 3), coin(0, 1);
  struct Version {
    const char* op;
    int64_t opset;
    bool axes_input;
  };
  const Version versions[] = {{"ReduceSum", 1, false},  {"ReduceSum", 11, false},  {"ReduceSum", 13, true},
                              {"ReduceMean", 1, false}, {"ReduceMean", 13, false}, {"ReduceMean", 18, true}};
  int64_t elements = 0;
  for (int t = 0; t < 120; ++t) {
    const Version& v = versions[t % 6];
    Shape xs;
    for (int r = rank(rng); r > 0; --r) xs.push_back(dim(rng));
    std::vector<int64_t> axes;
    for (int64_t a = 0; a < static_cast<int64_t>(xs.size()); ++a)
      if (coin(rng)) axes.push_back(coin(rng) ? a : a - static_cast<int64_t>(xs.size()));  // negative axes too
    Attrs attrs = {attr_int("keepdims", coin(rng))};
    std::vector<Value> others;
    if (!v.axes_input && !axes.empty()) attrs.push_back(attr_ints("axes", axes));
    if (v.axes_input) {
      attrs.push_back(attr_int("noop_with_empty_axes", coin(rng)));
      if (!axes.empty() || coin(rng))
        others.push_back(Value(Tensor::from_vector<int64_t>({static_cast<int64_t>(axes.size())}, axes)));
    }
    int64_t n = check_average(v.op, v.opset, xs, others, attrs, rng);
    EXPECT_GT(n, 0) << v.op << "-" << v.opset;
    elements += n;
  }
  EXPECT_GE(elements, 200);
}

// ConvTranspose as sums: for each output element the (x index, w index) pairs it adds, read off the
// reference on float64 one-hot X and W (the output is 1 exactly where the pair meets).
std::vector<std::vector<std::pair<int64_t, int64_t>>> probe_conv_transpose(int64_t opset, const Shape& xs, const Shape& ws,
                                                                           const Attrs& attrs) {
  OneNodeModel m = one_node_model("ConvTranspose", opset, {Value(Tensor(DType::Double, xs)), Value(Tensor(DType::Double, ws))},
                                  attrs);
  std::vector<std::vector<std::pair<int64_t, int64_t>>> pairs;
  for (int64_t i = 0; i < shape_size(xs); ++i)
    for (int64_t k = 0; k < shape_size(ws); ++k) {
      Tensor ex(DType::Double, xs), ew(DType::Double, ws);
      ex.data<double>()[i] = 1;
      ew.data<double>()[k] = 1;
      m.feed["in0"] = Value(ex);
      m.feed["in1"] = Value(ew);
      Tensor y = reference_output(m);
      pairs.resize(static_cast<size_t>(y.size()));
      for (int64_t o = 0; o < y.size(); ++o)
        if (y.data<double>()[o] != 0) pairs[static_cast<size_t>(o)].push_back({i, k});
    }
  return pairs;
}

// The exact Σ x·w + b in the real enclosure, at most 2·(n + 16)·2^-53·Σ|terms| wide; the reference's
// float result in the admissible one.
TEST(EncloseOps, ConvTransposeHoldsTheExactSumUnderEveryAttribute) {
  std::mt19937 rng(23);
  std::uniform_int_distribution<int> small(1, 2), coin(0, 1), pads_kind(0, 4);
  const char* auto_pads[] = {"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"};
  const int64_t opsets[] = {1, 11, 22};
  int checked = 0;
  for (int t = 0; t < 24; ++t) {
    int64_t opset = opsets[t % 3], group = small(rng), C = 2, Mg = small(rng);
    Shape xs = {1, C, 3, 3}, ws = {C, Mg, small(rng), small(rng) + 1};
    std::vector<int64_t> s = {small(rng), small(rng)};
    Attrs attrs = {attr_int("group", group), attr_ints("strides", s), attr_ints("dilations", {small(rng), small(rng)}),
                   attr_ints("output_padding", {s[0] - 1, coin(rng) * (s[1] - 1)})};
    int kind = pads_kind(rng);
    if (kind < 4) attrs.push_back(attr_string("auto_pad", auto_pads[kind]));
    if (kind == 0) attrs.push_back(attr_ints("pads", {coin(rng), coin(rng), coin(rng), 0}));
    if (kind == 4) attrs.push_back(attr_ints("output_shape", {5 + coin(rng), 6}));
    std::vector<float> x = wide_floats(18, rng), w = wide_floats(static_cast<size_t>(shape_size(ws)), rng),
                       b = wide_floats(static_cast<size_t>(Mg * group), rng);
    OneNodeModel m = one_node_model("ConvTranspose", opset, {floats(xs, x), floats(ws, w), floats({Mg * group}, b)}, attrs);
    Tensor r;
    try {
      r = reference_output(m);
    } catch (const Trap&) {
      EXPECT_THROW(enclose_output(m), Trap);
      continue;
    }
    ++checked;
    auto pairs = probe_conv_transpose(opset, xs, ws, attrs);
    Bounds real = enclose_output(m), admissible = enclose_output(m, Semantics::Admissible);
    ASSERT_EQ(real.lo.shape(), r.shape());
    int64_t out_plane = r.size() / r.dim(1);
    for (int64_t o = 0; o < r.size(); ++o) {
      double bias = b[static_cast<size_t>((o / out_plane) % r.dim(1))], magnitude = std::fabs(bias);
      Exact exact(bias);
      for (auto [i, k] : pairs[static_cast<size_t>(o)]) {
        exact.add_product(x[static_cast<size_t>(i)], w[static_cast<size_t>(k)]);
        magnitude += std::fabs(static_cast<double>(x[static_cast<size_t>(i)]) * w[static_cast<size_t>(k)]);
      }
      Interval e = bound_at(real, o);
      double n = static_cast<double>(pairs[static_cast<size_t>(o)].size()) + 1;
      EXPECT_TRUE(exact.inside(e)) << "ConvTranspose-" << opset << " element " << o;
      EXPECT_LE(e.width(), 2 * (n + 16) * kU * magnitude + 1e-300) << "ConvTranspose-" << opset << " element " << o;
      EXPECT_TRUE(bound_at(admissible, o).contains(r.as_double(o))) << "ConvTranspose-" << opset << " element " << o;
    }
  }
  EXPECT_GE(checked, 12);
}

// ---- comparisons and ArgMax ----

// Expects enclose_model to throw Undetermined naming the node and saying that this input leaves
// the output open.
void expect_undetermined(const OneNodeModel& m, const std::string& output, const std::string& node,
                         Semantics s = Semantics::Real) {
  try {
    enclose_model(m.model, m.feed, s).at(output);
    ADD_FAILURE() << node << " should be undetermined";
  } catch (const Undetermined& e) {
    std::string what = e.what();
    EXPECT_NE(what.find(node), std::string::npos) << what;
    EXPECT_NE(what.find("at this input"), std::string::npos) << what;
  }
}

TEST(EncloseOps, ComparisonsOfPointsAreTheReferencesResults) {
  std::mt19937 rng(31);
  std::uniform_int_distribution<int> quarter(-8, 8);
  std::vector<float> a(2000), b(2000);
  for (size_t i = 0; i < a.size(); ++i) a[i] = quarter(rng) / 4.0f, b[i] = quarter(rng) / 4.0f;  // many ties
  struct Version {
    const char* op;
    int64_t opset;
  };
  const Version versions[] = {
      {"Equal", 11},          {"Equal", 13},       {"Equal", 19},      {"Greater", 7}, {"Greater", 9},
      {"Greater", 13},        {"Less", 7},         {"Less", 9},        {"Less", 13},   {"GreaterOrEqual", 12},
      {"GreaterOrEqual", 16}, {"LessOrEqual", 12}, {"LessOrEqual", 16}};
  for (const Version& v : versions) {
    OneNodeModel m = one_node_model(v.op, v.opset, {floats({2000}, a), floats({1, 2000}, b)});  // broadcast too
    Bounds out = enclose_output(m, Semantics::Admissible);
    ASSERT_TRUE(out.exact());
    EXPECT_EQ(out.lo, reference_output(m)) << v.op << "-" << v.opset;
  }
  // Integer inputs still go through the reference.
  OneNodeModel ints = one_node_model("Greater", 13, {Value(testing::i64({1, 5})), Value(testing::i64({3, 3}))});
  EXPECT_EQ(enclose_output(ints).lo, reference_output(ints));
}

// Greater(Sin(x), c) with c the float nearest sin(x): decided under the real semantics (the
// enclosure of sin x is a double ulp wide, and c ≠ sin x), by the exact comparison; open under the
// admissible one (an implementation's float sine may lie on either side of c). Greater(s, s) and
// Equal(s, s) of an interval are open.
TEST(EncloseOps, ComparisonsOfIntervalsAreDecidedExactlyWhereTheyDoNotOverlap) {
  std::mt19937 rng(32);
  std::vector<float> x = uniform_floats(500, rng, -10, 10), c(x.size());
  for (size_t i = 0; i < x.size(); ++i) c[i] = static_cast<float>(std::sin(static_cast<double>(x[i])));
  NamedValues feed = {{"x", floats({500}, x)}, {"c", floats({500}, c)}};
  OneNodeModel m = graph_model(13,
                               {named_node("Sin", {"x"}, "s"), named_node("Greater", {"s", "c"}, "gt"),
                                named_node("LessOrEqual", {"s", "c"}, "le")},
                               feed, {"gt", "le"});
  auto out = enclose_model(m.model, m.feed);
  for (int64_t i = 0; i < 500; ++i) {
    Exact e(0, 300);
    kSin(e.get(), x[static_cast<size_t>(i)]);
    bool greater = mpfr_cmp_d(e.get(), c[static_cast<size_t>(i)]) > 0;
    EXPECT_EQ(out.at("gt").lo.data<bool>()[i], greater)
        << "sin(" << x[static_cast<size_t>(i)] << ") > " << c[static_cast<size_t>(i)];
    EXPECT_EQ(out.at("le").lo.data<bool>()[i], !greater);
  }
  expect_undetermined(m, "gt", "gt_node", Semantics::Admissible);
  OneNodeModel same = graph_model(13, {named_node("Sin", {"x"}, "s"), named_node("Greater", {"s", "s"}, "gt")},
                                  {{"x", floats({500}, x)}}, {"gt"});
  expect_undetermined(same, "gt", "gt_node");
  OneNodeModel equal = graph_model(19, {named_node("Sin", {"x"}, "s"), named_node("Equal", {"s", "s"}, "eq")},
                                   {{"x", floats({500}, x)}}, {"eq"});
  expect_undetermined(equal, "eq", "eq_node");
  OneNodeModel points = one_node_model("Equal", 19, {floats({500}, x), floats({500}, x)});
  for (int64_t i = 0; i < 500; ++i) EXPECT_TRUE(enclose_output(points).lo.data<bool>()[i]) << "the same point is equal";
}

TEST(EncloseOps, ArgMaxIsDecidedWhereOneElementAlwaysWins) {
  std::mt19937 rng(33);
  std::uniform_int_distribution<int> level(0, 4), axis_pick(0, 2), coin(0, 1);
  const int64_t opsets[] = {1, 11, 12, 13};
  for (int t = 0; t < 40; ++t) {
    int64_t opset = opsets[t % 4];
    std::vector<float> x(6 * 7);
    for (float& v : x) v = static_cast<float>(level(rng));  // ties everywhere
    Attrs attrs = {attr_int("axis", axis_pick(rng) - 1), attr_int("keepdims", coin(rng))};
    if (opset >= 12) attrs.push_back(attr_int("select_last_index", coin(rng)));
    OneNodeModel m = one_node_model("ArgMax", opset, {floats({6, 7}, x)}, attrs);
    Bounds out = enclose_output(m);
    ASSERT_TRUE(out.exact());
    EXPECT_EQ(out.lo, reference_output(m)) << "ArgMax-" << opset;
  }
  // Through Sin: distinct maxima are decided; two equal maxima of an interval are not.
  std::vector<float> x = uniform_floats(40, rng, -1.5f, 1.5f);
  NamedValues feed = {{"x", floats({4, 10}, x)}};
  OneNodeModel decided = graph_model(13,
                                     {named_node("Sin", {"x"}, "s"), named_node("ArgMax", {"s"}, "am", {attr_int("axis", 1)})},
                                     feed, {"am"});
  Tensor want = Interpreter(decided.model).run(decided.feed).at("am").tensor;
  EXPECT_EQ(enclose_model(decided.model, decided.feed).at("am").lo, want);
  x[3] = x[7] = 1.5f;  // row 0 has its largest sine twice
  OneNodeModel tie = graph_model(13, {named_node("Sin", {"x"}, "s"), named_node("ArgMax", {"s"}, "am", {attr_int("axis", 1)})},
                                 {{"x", floats({4, 10}, x)}}, {"am"});
  expect_undetermined(tie, "am", "am_node");
}

// ---- Cast, CastLike, ScatterND, Resize: through the reference on the bounds ----

TEST(EncloseOps, CastRoundsIntoTheTargetTypeAndCarriesIt) {
  std::mt19937 rng(41);
  std::vector<float> x = wide_floats(2000, rng);
  x.push_back(70000.0f);  // beyond float16
  Shape s = {static_cast<int64_t>(x.size())};
  for (int64_t opset : {6, 13, 19, 21, 23, 24, 25})
    for (DType to : {DType::Float16, DType::BFloat16, DType::Double, DType::Float, DType::Int32, DType::Int64, DType::UInt8}) {
      if (to == DType::BFloat16 && opset < 13) continue;
      OneNodeModel m = one_node_model("Cast", opset, {floats(s, x)}, {attr_int("to", static_cast<int64_t>(to))});
      Bounds b = enclose_output(m, Semantics::Admissible);
      Tensor r = reference_output(m);
      ASSERT_EQ(b.type, to) << "Cast-" << opset;
      if (b.exact()) {
        EXPECT_EQ(b.lo, r) << "Cast-" << opset << " to " << dtype_name(to);
        continue;
      }
      for (int64_t i = 0; i < r.size(); ++i) {
        double v = r.as_double(i);
        Interval e = bound_at(b, i);
        bool as_reference = std::isfinite(v) ? e.lo == v && e.hi == v
                                             : std::isinf(e.lo) && std::isinf(e.hi);  // inf bounds nothing
        EXPECT_TRUE(as_reference) << "Cast to " << dtype_name(to) << " of " << x[static_cast<size_t>(i)];
      }
    }
  // Of an interval: Cast(Sin(x)) to float16 holds sin(x) rounded to nearest in float16.
  std::vector<float> y = uniform_floats(1000, rng, 0.01f, 3.0f);
  OneNodeModel m = graph_model(13,
                               {named_node("Sin", {"x"}, "s"),
                                named_node("Cast", {"s"}, "h", {attr_int("to", static_cast<int64_t>(DType::Float16))})},
                               {{"x", floats({1000}, y)}}, {"h"});
  Bounds h = enclose_model(m.model, m.feed).at("h");
  ASSERT_EQ(h.type, DType::Float16);
  for (int64_t i = 0; i < 1000; ++i) {
    Exact e(0, 300);
    kSin(e.get(), y[static_cast<size_t>(i)]);
    mpfr_t half;  // sin in [0.0099, 1]: a normal float16, rounded to 11 bits
    mpfr_init2(half, 11);
    mpfr_set(half, e.get(), MPFR_RNDN);
    Interval b = bound_at(h, i);
    EXPECT_TRUE(b.contains(mpfr_get_d(half, MPFR_RNDN))) << "sin(" << y[static_cast<size_t>(i)] << ")";
    EXPECT_LE(b.width(), float_format(DType::Float16).ulp(b.hi)) << "one float16 or two neighbours";
    mpfr_clear(half);
  }
  // The reference's float16 result (sin in float, then the cast) lies in the admissible enclosure.
  Bounds admissible = enclose_model(m.model, m.feed, Semantics::Admissible).at("h");
  Tensor r = Interpreter(m.model).run(m.feed).at("h").tensor;
  for (int64_t i = 0; i < 1000; ++i)
    EXPECT_TRUE(bound_at(admissible, i).contains(r.as_double(i))) << "sin(" << y[static_cast<size_t>(i)] << ")";
  // CastLike takes the type of its second input (a float input, not its float64 bounds).
  for (int64_t opset : {15, 19, 21, 23, 24, 25})
    for (DType to : {DType::Float16, DType::Double, DType::Int32}) {
      OneNodeModel like = one_node_model("CastLike", opset, {floats(s, x), Value(Tensor(to, {1}))});
      Bounds b = enclose_output(like, Semantics::Admissible);
      Tensor want = reference_output(like);
      ASSERT_EQ(b.type, to) << "CastLike-" << opset;
      for (int64_t i = 0; i < want.size(); ++i) {
        double v = want.as_double(i);
        Interval e = b.exact() ? Interval::point(b.lo.as_double(i)) : bound_at(b, i);
        EXPECT_TRUE(std::isfinite(v) ? e.lo == v && e.hi == v : std::isinf(e.lo) && std::isinf(e.hi))
            << "CastLike-" << opset << " of " << x[static_cast<size_t>(i)];
      }
    }
  OneNodeModel like_float = graph_model(15, {named_node("Sin", {"x"}, "s"), named_node("CastLike", {"x", "s"}, "c")},
                                        {{"x", floats(s, x)}}, {"c"});
  EXPECT_EQ(enclose_model(like_float.model, like_float.feed).at("c").type, DType::Float)
      << "the type of a float input with float64 bounds";
}

TEST(EncloseOps, CastToAnIntegerIsUndeterminedWhereTheBoundsTruncateApart) {
  // (1/3)·3 is enclosed around 1 (1/3 is not a double): truncated to 0 or 1.
  OneNodeModel m = graph_model(13,
                               {named_node("Div", {"x", "three"}, "q"), named_node("Mul", {"q", "three"}, "s"),
                                named_node("Cast", {"s"}, "i", {attr_int("to", static_cast<int64_t>(DType::Int32))})},
                               {{"x", floats({1}, {1.0f})}, {"three", floats({1}, {3.0f})}}, {"i"});
  expect_undetermined(m, "i", "i_node");
  // Into bool: decided where the enclosure excludes 0 or is the point 0.
  OneNodeModel to_bool = one_node_model("Cast", 13, {floats({2}, {0.5f, 0.0f})},
                                        {attr_int("to", static_cast<int64_t>(DType::Bool))});
  Bounds b = enclose_output(to_bool);
  ASSERT_EQ(b.type, DType::Bool);
  EXPECT_EQ(b.lo.as_double(0), 1.0);
  EXPECT_EQ(b.lo.as_double(1), 0.0);
}

TEST(EncloseOps, ScatterNDMovesTheBoundsAndBoundsItsSumsAndProducts) {
  std::mt19937 rng(42);
  std::vector<float> data = wide_floats(20, rng), updates = wide_floats(8, rng);
  Value indices(Tensor::from_vector<int64_t>({2, 1}, {3, 1}));
  for (auto [opset, reduction] :
       std::vector<std::pair<int64_t, std::string>>{{11, ""}, {13, ""}, {16, "none"}, {18, "none"}, {18, "max"}, {18, "min"}}) {
    Attrs attrs;
    if (!reduction.empty()) attrs.push_back(attr_string("reduction", reduction));
    OneNodeModel m = one_node_model("ScatterND", opset, {floats({5, 4}, data), indices, floats({2, 4}, updates)}, attrs);
    Bounds b = enclose_output(m, Semantics::Admissible);
    Tensor r = reference_output(m);
    ASSERT_EQ(b.type, DType::Float);
    for (int64_t i = 0; i < r.size(); ++i)
      EXPECT_TRUE(bound_at(b, i).lo == r.as_double(i) && bound_at(b, i).hi == r.as_double(i))
          << "ScatterND-" << opset << " " << reduction;
  }
  // Of intervals: each element of ScatterND(Sin(data), indices, Sin(updates)) holds the exact sine
  // of the element ScatterND(data, indices, updates) puts there.
  OneNodeModel points = one_node_model("ScatterND", 16, {floats({5, 4}, data), indices, floats({2, 4}, updates)});
  Tensor moved = reference_output(points);
  OneNodeModel m = graph_model(16,
                               {named_node("Sin", {"d"}, "sd"), named_node("Sin", {"u"}, "su"),
                                named_node("ScatterND", {"sd", "i", "su"}, "y")},
                               {{"d", floats({5, 4}, data)}, {"i", indices}, {"u", floats({2, 4}, updates)}}, {"y"});
  Bounds y = enclose_model(m.model, m.feed).at("y");
  for (int64_t i = 0; i < y.lo.size(); ++i) EXPECT_TRUE(holds(kSin, moved.as_double(i), bound_at(y, i))) << "element " << i;
  // Reduction add and mul, row 3 updated twice: the exact sum (product) of data and the updates
  // landing on each element lies in the real enclosure, a point where nothing lands; the
  // reference's float result lies in the admissible one.
  std::vector<int64_t> rows = {3, 1, 3};
  std::vector<float> more = wide_floats(12, rng);
  for (std::string reduction : {"add", "mul"}) {
    OneNodeModel m = one_node_model("ScatterND", 18,
                                    {floats({5, 4}, data), Value(Tensor::from_vector<int64_t>({3, 1}, rows)),
                                     floats({3, 4}, more)},
                                    {attr_string("reduction", reduction)});
    Bounds real = enclose_output(m), admissible = enclose_output(m, Semantics::Admissible);
    Tensor r = reference_output(m);
    for (int64_t e = 0; e < 20; ++e) {
      Exact want(data[static_cast<size_t>(e)]);
      int landed = 0;
      for (size_t t = 0; t < rows.size(); ++t) {
        if (rows[t] != e / 4) continue;
        double u = more[t * 4 + static_cast<size_t>(e % 4)];
        if (reduction == "add") want.add_product(u, 1.0);
        else mpfr_mul_d(want.get(), want.get(), u, MPFR_RNDN);  // exact: three floats' product has 72 bits
        ++landed;
      }
      Interval b = bound_at(real, e);
      EXPECT_TRUE(want.inside(b)) << reduction << " element " << e;
      if (landed == 0) EXPECT_EQ(b.lo, b.hi) << "untouched element " << e;
      else EXPECT_LE(width_in_ulps(b, DType::Float), 1.0) << reduction << " element " << e;  // a float's worth at most
      EXPECT_TRUE(bound_at(admissible, e).contains(r.as_double(e))) << reduction << " element " << e;
    }
  }
}

// ---- Cast into the small types, MaxPool's Indices, Pow of an integer base ----

TEST(EncloseOps, CastIntoTheSmallFloatsRoundsAsTheReferenceAndCarriesTheType) {
  std::mt19937 rng(44);
  std::vector<float> x = uniform_floats(500, rng, -500.0f, 500.0f);  // beyond e4m3fn's 448 and float4's 6
  x.push_back(0.0f);
  Shape s = {static_cast<int64_t>(x.size())};
  const std::pair<DType, int64_t> types[] = {{DType::Float8E4M3FN, 19},   {DType::Float8E4M3FNUZ, 19}, {DType::Float8E5M2, 19},
                                             {DType::Float8E5M2FNUZ, 19}, {DType::Float4E2M1, 23},     {DType::Float8E8M0, 24}};
  for (auto [to, opset] : types)
    for (int64_t saturate : {0, 1}) {
      Attrs attrs = {attr_int("to", static_cast<int64_t>(to))};
      if (to != DType::Float4E2M1) attrs.push_back(attr_int("saturate", saturate));
      OneNodeModel m = one_node_model("Cast", opset, {floats(s, x)}, attrs);
      Bounds b = enclose_output(m, Semantics::Admissible);
      Tensor r = reference_output(m);
      ASSERT_EQ(b.type, to) << dtype_name(to);
      ASSERT_FALSE(b.exact()) << dtype_name(to) << " values are bounds";
      for (int64_t i = 0; i < r.size(); ++i) {
        double v = r.as_double(i);
        Interval e = bound_at(b, i);
        if (std::isnan(v) || (to == DType::Float8E8M0 && x[static_cast<size_t>(i)] < 0))
          EXPECT_TRUE(e.has_nan()) << dtype_name(to) << " of " << x[static_cast<size_t>(i)];
        else
          EXPECT_TRUE(e.lo == v && e.hi == v)
              << dtype_name(to) << " saturate " << saturate << " of " << x[static_cast<size_t>(i)] << ": " << v;
      }
    }
  // Of an interval: Cast(Sin(y)) to float8e4m3fn holds sin(y) rounded to nearest at 4 bits (sin(y)
  // in [0.14, 1]: normal in e4m3fn), at most one e4m3fn ulp wide.
  std::vector<float> y = uniform_floats(300, rng, 0.2f, 3.0f);
  OneNodeModel m = graph_model(19,
                               {named_node("Sin", {"y"}, "s"),
                                named_node("Cast", {"s"}, "q", {attr_int("to", static_cast<int64_t>(DType::Float8E4M3FN))})},
                               {{"y", floats({300}, y)}}, {"q"});
  Bounds q = enclose_model(m.model, m.feed).at("q");
  Tensor r = Interpreter(m.model).run(m.feed).at("q").tensor;
  for (int64_t i = 0; i < 300; ++i) {
    Exact e(0, 300);
    kSin(e.get(), y[static_cast<size_t>(i)]);
    mpfr_t rounded;
    mpfr_init2(rounded, 4);
    mpfr_set(rounded, e.get(), MPFR_RNDN);
    Interval b = bound_at(q, i);
    EXPECT_TRUE(b.contains(mpfr_get_d(rounded, MPFR_RNDN))) << "sin(" << y[static_cast<size_t>(i)] << ")";
    EXPECT_TRUE(b.contains(r.as_double(i))) << "the reference's e4m3fn";
    EXPECT_LE(b.width(), float_format(DType::Float8E4M3FN).ulp(b.hi)) << "one value or two neighbours";
    mpfr_clear(rounded);
  }
}

TEST(EncloseOps, CastIntoInt4IsDecidedByTheRoundingNotByTheWrappedBits) {
  // Points: the reference's result, 9 and -9 wrapped.
  OneNodeModel points = one_node_model("Cast", 21, {floats({4}, {9.0f, -9.0f, 2.5f, -0.4f})},
                                       {attr_int("to", static_cast<int64_t>(DType::Int4))});
  Bounds b = enclose_output(points);
  ASSERT_TRUE(b.exact());
  EXPECT_EQ(b.lo, reference_output(points));
  // (1/3)·3 is enclosed around 1 and rounds to 1 (a truncation would leave 0 or 1 open); (1/3)·1.5
  // is enclosed around 1/2, which rounds to 0 or 1.
  auto model = [](float factor) {
    return graph_model(21,
                       {named_node("Div", {"x", "three"}, "q"), named_node("Mul", {"q", "f"}, "s"),
                        named_node("Cast", {"s"}, "i", {attr_int("to", static_cast<int64_t>(DType::Int4))})},
                       {{"x", floats({1}, {1.0f})}, {"three", floats({1}, {3.0f})}, {"f", floats({1}, {factor})}}, {"i"});
  };
  OneNodeModel one = model(3.0f);
  EXPECT_EQ(enclose_model(one.model, one.feed).at("i").lo.as_double(0), 1.0);
  expect_undetermined(model(1.5f), "i", "i_node");
}

TEST(EncloseOps, MaxPoolIndicesAreThoseOfAKnownInputOnly) {
  std::mt19937 rng(45);
  std::uniform_int_distribution<int> level(0, 3);
  std::vector<float> x(2 * 3 * 6 * 6);
  for (float& v : x) v = static_cast<float>(level(rng));  // ties in most windows
  Attrs attrs = {attr_ints("kernel_shape", {3, 3}), attr_ints("strides", {2, 2}), attr_ints("pads", {1, 1, 1, 1})};
  for (int64_t storage_order : {0, 1}) {
    Attrs a = attrs;
    a.push_back(attr_int("storage_order", storage_order));
    OneNodeModel m = one_node_model("MaxPool", 22, {floats({2, 3, 6, 6}, x)}, a, 2);
    Bounds indices = enclose_output(m, Semantics::Admissible, 1);
    ASSERT_TRUE(indices.exact());
    EXPECT_EQ(indices.lo, reference_output(m, 1)) << "storage_order " << storage_order;
  }
  OneNodeModel through_sin = graph_model(22,
                                         {named_node("Sin", {"x"}, "s"),
                                          [&] {
                                            onnx::NodeProto n = named_node("MaxPool", {"s"}, "y", attrs);
                                            n.add_output("ind");
                                            return n;
                                          }()},
                                         {{"x", floats({2, 3, 6, 6}, x)}}, {"y", "ind"});
  expect_undetermined(through_sin, "ind", "y_node");
}

TEST(EncloseOps, PowOfAnIntegerBaseIsTheTruncatedRealPowerWhereItIsDecided) {
  Value base(Tensor::from_vector<int32_t>({5}, {1, 2, 3, 5, 7}));
  OneNodeModel m = one_node_model("Pow", 15, {base, floats({5}, {4.0f, 5.0f, 6.0f, 0.5f, 1.5f})});
  Bounds real = enclose_output(m);
  ASSERT_TRUE(real.exact());
  EXPECT_EQ(real.lo, Tensor::from_vector<int32_t>({5}, {1, 32, 729, 2, 18}));  // 7^1.5 = 18.52
  // An implementation's float power may fall just below an exact integer power: not decided under
  // the admissible semantics; 5^0.5 and 7^1.5 are far from an integer and stay decided.
  expect_undetermined(m, "out0", "node", Semantics::Admissible);
  OneNodeModel far = one_node_model("Pow", 15, {Value(Tensor::from_vector<int64_t>({2}, {5, 7})), floats({2}, {0.5f, 1.5f})});
  EXPECT_EQ(enclose_output(far, Semantics::Admissible).lo, Tensor::from_vector<int64_t>({2}, {2, 18}));
  // (-2)^0.5 is no real number (the reference's NaN, converted to 0).
  OneNodeModel negative = one_node_model("Pow", 15, {Value(Tensor::from_vector<int32_t>({1}, {-2})), floats({1}, {0.5f})});
  expect_undetermined(negative, "out0", "node");
}

TEST(EncloseOps, ResizeNearestMovesTheBoundsAndEnclosesInterpolation) {
  std::mt19937 rng(43);
  std::vector<float> x = wide_floats(12, rng);
  Value scales = floats({4}, {1, 1, 2, 1.5f});
  struct Case {
    int64_t opset;
    std::vector<Value> inputs;
    Attrs attrs;
  };
  std::vector<Case> cases = {
      {10, {floats({1, 1, 3, 4}, x), scales}, {}},
      {11, {floats({1, 1, 3, 4}, x), floats({0}, {}), scales}, {attr_string("nearest_mode", "floor")}},
      {13, {floats({1, 1, 3, 4}, x), Value(), scales}, {attr_string("coordinate_transformation_mode", "asymmetric")}},
      {18, {floats({1, 1, 3, 4}, x), Value(), Value(), Value(testing::i64({1, 1, 5, 7}))}, {}},
      {19, {floats({1, 1, 3, 4}, x), Value(), scales}, {attr_string("coordinate_transformation_mode", "half_pixel_symmetric")}},
      {19,
       {floats({1, 1, 3, 4}, x), floats({8}, {0, 0, 0.1f, 0.2f, 1, 1, 0.8f, 1.3f}), scales},
       {attr_string("coordinate_transformation_mode", "tf_crop_and_resize"), attr_float("extrapolation_value", 0.1f)}}};
  for (const Case& c : cases) {
    OneNodeModel m = one_node_model("Resize", c.opset, c.inputs, c.attrs);
    Bounds b = enclose_output(m, Semantics::Admissible);
    Tensor r = reference_output(m);
    ASSERT_EQ(b.type, DType::Float);
    ASSERT_EQ(b.lo.shape(), r.shape());
    for (int64_t i = 0; i < r.size(); ++i) EXPECT_TRUE(bound_at(b, i).contains(r.as_double(i))) << "Resize-" << c.opset;
    Bounds real = enclose_output(m);
    for (int64_t i = 0; i < r.size(); ++i)
      EXPECT_LE(real.hi.data<double>()[i] - real.lo.data<double>()[i], 1e-7 * std::fabs(r.as_double(i)));
  }
  // Linear interpolation has its enclosure too (enclose_resize.cpp; tests/unit/enclose_resample_test.cpp).
  OneNodeModel linear = one_node_model("Resize", 19, {floats({1, 1, 3, 4}, x), Value(), scales},
                                       {attr_string("mode", "linear")});
  Bounds lb = enclose_output(linear, Semantics::Admissible);
  Tensor lr = reference_output(linear);
  ASSERT_EQ(lb.lo.shape(), lr.shape());
  for (int64_t i = 0; i < lr.size(); ++i) EXPECT_TRUE(bound_at(lb, i).contains(lr.as_double(i))) << "Resize-19 linear";
}

}  // namespace
}  // namespace sonnx::enclose
