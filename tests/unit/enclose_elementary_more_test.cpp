// Enclosures of Acos, Asin, Atan, Acosh, Asinh, Atanh, Cosh, Sinh, Tan, Reciprocal and PRelu
// (enclose/enclose_elementary_more.cpp, enclose/elementary.h). On a sweep of float points (domain
// edges, 0 and −0, subnormals, negatives, huge values, infinities): the value MPFR computes at 200
// bits lies in the real enclosure, which is at most two doubles wide; outside a function's domain
// the element is undefined, where the reference gives NaN; the reference's float result lies in the
// admissible enclosure and a float 16 steps from it does not (4 ulps either side, and the rounding
// outward, span fewer). On intervals: the value at points
// inside lies in the enclosure of the interval, cosh's minimum 1 included; Tan is undefined where
// the interval holds a pole.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "enclose_test_util.h"
#include "enclose/elementary.h"

namespace sonnx::enclose {
namespace {
using sonnx::testing::kInf;

constexpr float kSubnormal = 1e-40f;  // below float's smallest normal 1.18e-38

using MpfrFn = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

int mpfr_reciprocal(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t rnd) { return mpfr_ui_div(r, 1, x, rnd); }

struct Function {
  const char* op;
  std::vector<int64_t> opsets;  // one per version
  MpfrFn f;
  std::vector<float> defined;    // points of the domain
  std::vector<float> undefined;  // points without a value (or, for Tan, ±∞: no limit)
};

const std::vector<Function>& functions() {
  static const std::vector<Function> all = {
      {"Acos",
       {7, 22},
       mpfr_acos,
       {-1, -0.99999994f, -0.5f, -kSubnormal, -0.0f, 0, kSubnormal, 1e-7f, 0.3f, 0.70710677f, 0.99999994f, 1},
       {1.0000001f, 2, -3, kInf, -kInf}},
      {"Asin",
       {7, 22},
       mpfr_asin,
       {-1, -0.99999994f, -0.5f, -kSubnormal, -0.0f, 0, kSubnormal, 1e-7f, 0.3f, 0.70710677f, 0.99999994f, 1},
       {-1.0000001f, 1.5f, kInf}},
      {"Atan",
       {7, 22},
       mpfr_atan,
       {-kInf, -3e38f, -1e10f, -1, -kSubnormal, -0.0f, 0, kSubnormal, 1e-3f, 0.5f, 1, 2, 1e7f, 3e38f, kInf},
       {}},
      {"Acosh", {9, 22}, mpfr_acosh, {1, 1.0000001f, 1.5f, 2, 10, 1e10f, 3e38f, kInf}, {0.99999994f, 0, -1, -kInf}},
      {"Asinh",
       {9, 22},
       mpfr_asinh,
       {-kInf, -3e38f, -100, -1, -kSubnormal, 0, kSubnormal, 1e-5f, 0.5f, 1, 1e20f, 3e38f, kInf},
       {}},
      {"Atanh",
       {9, 22},
       mpfr_atanh,
       {-1, -0.99999994f, -0.5f, -kSubnormal, 0, kSubnormal, 1e-6f, 0.5f, 0.99999994f, 1},
       {1.0000001f, -2, kInf}},
      {"Cosh",
       {9, 22},
       mpfr_cosh,
       {-kInf, -100, -89.5f, -1, -kSubnormal, -0.0f, 0, kSubnormal, 1e-4f, 1, 10, 89.4f, 100, 3e38f, kInf},
       {}},
      {"Sinh",
       {9, 22},
       mpfr_sinh,
       {-kInf, -100, -89.5f, -1, -kSubnormal, -0.0f, 0, kSubnormal, 1e-4f, 1, 10, 89.4f, 100, 3e38f, kInf},
       {}},
      // Next to π/2, π and 3π/2 (none of them a float), and huge arguments (MPFR reduces exactly).
      {"Tan",
       {7, 22},
       mpfr_tan,
       {-1e30f, -4.712389f, -1.5707964f, -1, -kSubnormal, 0, kSubnormal, 0.5f, 1.5707963f, 3.1415927f, 1e10f, 3e38f},
       {kInf, -kInf}},
      // 1/x: overflowing float for a subnormal x, subnormal for a huge one, 0 at ±∞; no value at ±0.
      {"Reciprocal",
       {1, 6, 13},
       mpfr_reciprocal,
       {-3e38f, -7, -kSubnormal, -1, 3, 0.1f, 1e-45f, 3e38f, kInf, -kInf},
       {0, -0.0f}},
  };
  return all;
}

// f(x) at 200 bits.
struct Exact200 {
  Exact value;
  Exact200(MpfrFn f, double x) : value(x, 200) { f(value.get(), value.get(), MPFR_RNDN); }
};

double float_steps(double x, int steps) {
  auto f = static_cast<float>(x);
  for (int i = 0; i < std::abs(steps); ++i) f = std::nextafter(f, steps > 0 ? kInf : -kInf);
  return f;
}

TEST(EncloseElementaryMore, RealEnclosureHoldsTheValueAtEveryPointOfTheSweep) {
  for (const Function& fn : functions())
    for (int64_t opset : fn.opsets) {
      SCOPED_TRACE(std::string(fn.op) + " at opset " + std::to_string(opset));
      std::vector<float> x = fn.defined;
      x.insert(x.end(), fn.undefined.begin(), fn.undefined.end());
      OneNodeModel m = one_node_model(fn.op, opset, {floats({static_cast<int64_t>(x.size())}, x)});
      Bounds b = enclose_output(m);
      ASSERT_EQ(b.type, DType::Float);
      for (size_t i = 0; i < x.size(); ++i) {
        SCOPED_TRACE("x = " + std::to_string(x[i]));
        Interval e = bound_at(b, static_cast<int64_t>(i));
        if (i >= fn.defined.size()) {
          EXPECT_TRUE(e.has_nan()) << "[" << e.lo << ", " << e.hi << "] where there is no value";
          continue;
        }
        Exact200 v(fn.f, x[i]);
        EXPECT_TRUE(v.value.inside(e)) << "outside [" << e.lo << ", " << e.hi << "]";
        if (std::isfinite(e.lo) && std::isfinite(e.hi) && e.lo != 0 && e.hi != 0 && (e.lo > 0) == (e.hi > 0)) {
          EXPECT_LE(ulps_of_double(e), 2.0) << "[" << e.lo << ", " << e.hi << "]";
        }
      }
    }
}

TEST(EncloseElementaryMore, ReferenceIsAdmissibleAndAFloatSixteenStepsAwayIsNot) {
  int checked = 0;
  for (const Function& fn : functions()) {
    SCOPED_TRACE(fn.op);
    std::vector<float> x = fn.defined;
    x.insert(x.end(), fn.undefined.begin(), fn.undefined.end());
    OneNodeModel m = one_node_model(fn.op, fn.opsets.back(), {floats({static_cast<int64_t>(x.size())}, x)});
    Bounds b = enclose_output(m, Semantics::Admissible);
    Tensor r = reference_output(m);
    for (size_t i = 0; i < x.size(); ++i) {
      SCOPED_TRACE("x = " + std::to_string(x[i]));
      auto k = static_cast<int64_t>(i);
      Interval e = bound_at(b, k);
      double ours = r.as_double(k);
      if (i >= fn.defined.size()) {
        EXPECT_TRUE(e.has_nan());
        if (std::string(fn.op) != "Reciprocal") {  // 1 / ±0 = ±∞ in IEEE 754, no real number
          EXPECT_TRUE(std::isnan(ours)) << "the reference has a value: " << ours;
        }
        continue;
      }
      EXPECT_TRUE(e.contains(ours)) << ours << " outside [" << e.lo << ", " << e.hi << "]";
      if (!std::isfinite(ours)) continue;
      for (int steps : {16, -16}) {
        double wrong = float_steps(ours, steps);
        if (std::isfinite(wrong)) {
          EXPECT_FALSE(e.contains(wrong)) << wrong << " inside [" << e.lo << ", " << e.hi << "]";
        }
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
}

// Through a division by 3 (not exact): intervals around x / 3 (+ 2 for Acosh, whose domain starts
// at 1) that are not points.
TEST(EncloseElementaryMore, ComputedArgumentsAreEnclosedTooAndTheReferenceIsAdmissible) {
  std::vector<float> x;
  for (int i = -29; i <= 29; ++i) x.push_back(static_cast<float>(i) / 10.0f);
  for (const Function& fn : functions()) {
    SCOPED_TRACE(fn.op);
    const bool acosh = std::string(fn.op) == "Acosh";
    OneNodeModel m = graph_model(fn.opsets.back(),
                                 {named_node("Div", {"x", "three"}, "q"), named_node("Add", {"q", "shift"}, "a"),
                                  named_node(fn.op, {"a"}, "y")},
                                 {{"x", floats({static_cast<int64_t>(x.size())}, x)},
                                  {"three", floats({1}, {3.0f})},
                                  {"shift", floats({1}, {acosh ? 2.0f : 0.0f})}},
                                 {"y"});
    Bounds real = enclose_model(m.model, m.feed).at("y");
    Bounds admissible = enclose_model(m.model, m.feed, Semantics::Admissible).at("y");
    Tensor r = Interpreter(m.model).run(m.feed).at("y").tensor;
    int wide = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      auto k = static_cast<int64_t>(i);
      Interval e = bound_at(real, k);
      if (e.has_nan()) {  // only 1 / 0
        EXPECT_TRUE(std::string(fn.op) == "Reciprocal" && x[i] == 0) << "x = " << x[i];
        continue;
      }
      Exact v(x[i], 200);
      mpfr_div_ui(v.get(), v.get(), 3, MPFR_RNDN);
      if (acosh) mpfr_add_ui(v.get(), v.get(), 2, MPFR_RNDN);
      fn.f(v.get(), v.get(), MPFR_RNDN);
      EXPECT_TRUE(v.inside(e)) << "x = " << x[i];
      EXPECT_TRUE(bound_at(admissible, k).contains(r.as_double(k))) << "x = " << x[i];
      wide += e.lo < e.hi;
    }
    EXPECT_GT(wide, 40) << "the arguments are intervals";
  }
}

// ---- on intervals, through elementary.h ----

// f's value at the ends of [a, b] and at three points between lies in f([a, b]).
void expect_holds_samples(MpfrFn f, Interval (*g)(Interval), double a, double b) {
  Interval e = g({a, b});
  ASSERT_FALSE(e.has_nan()) << "[" << a << ", " << b << "]";
  for (double t : {0.0, 0.25, 0.5, 0.75, 1.0}) {
    double x = a + (b - a) * t;
    Exact200 v(f, x);
    EXPECT_TRUE(v.value.inside(e)) << "at " << x << " of [" << a << ", " << b << "]: [" << e.lo << ", " << e.hi << "]";
  }
}

TEST(EncloseElementaryMore, IntervalsHoldEveryPointsValue) {
  expect_holds_samples(mpfr_acos, acos, -0.5, 0.25);  // decreasing
  expect_holds_samples(mpfr_acos, acos, -1, 1);
  expect_holds_samples(mpfr_asin, asin, -1, 0.75);
  expect_holds_samples(mpfr_atan, atan, -1e6, 3);
  expect_holds_samples(mpfr_acosh, acosh, 1, 7.5);
  expect_holds_samples(mpfr_asinh, asinh, -20, 0.125);
  expect_holds_samples(mpfr_atanh, atanh, -0.875, 0.5);
  expect_holds_samples(mpfr_sinh, sinh, -3, 700);
  expect_holds_samples(mpfr_cosh, cosh, -2, 3);  // its minimum 1 at 0 inside
  expect_holds_samples(mpfr_cosh, cosh, -5, -1);
  expect_holds_samples(mpfr_tan, tan, 1.6, 3.0);      // between π/2 and 3π/2
  expect_holds_samples(mpfr_tan, tan, 100.0, 101.0);  // 32π ≈ 100.53 inside; the poles at 31.5π and 32.5π outside
  Interval c = cosh({-2, 3});
  EXPECT_EQ(c.lo, 1.0) << "cosh's minimum";
  EXPECT_TRUE(c.contains(std::cosh(3.0)));
  EXPECT_FALSE(c.contains(10.1)) << "cosh 3 ≈ 10.07";
  EXPECT_EQ(atanh({0.5, 1}).hi, std::numeric_limits<double>::infinity()) << "atanh 1 = +∞";
}

TEST(EncloseElementaryMore, IntervalsThatMayLeaveTheDomainOrHoldAPoleAreUndefined) {
  EXPECT_TRUE(asin({0.5, 1.5}).has_nan());
  EXPECT_TRUE(acos({-1.0000001, 0}).has_nan());
  EXPECT_TRUE(acosh({0.5, 2}).has_nan());
  EXPECT_TRUE(atanh({0.9, 1.1}).has_nan());
  EXPECT_TRUE(tan({1.5, 1.6}).has_nan()) << "π/2";
  EXPECT_TRUE(tan({4, 5}).has_nan()) << "3π/2";
  EXPECT_TRUE(tan({-5, -4}).has_nan()) << "−3π/2";
  EXPECT_TRUE(tan({0, 1e6}).has_nan());
  EXPECT_TRUE(tan({0, std::numeric_limits<double>::infinity()}).has_nan()) << "no limit at ∞";
  EXPECT_FALSE(tan({-1.5, 1.5}).has_nan()) << "no pole in (−π/2, π/2)";
  EXPECT_FALSE(tan({2.0, 4.7}).has_nan()) << "3π/2 ≈ 4.7124";
}

// ---- PRelu ----

TEST(EncloseElementaryMore, PReluOfPointsIsTheExactProductAndBroadcastsAsTheReference) {
  // Version 7 on: the slope broadcasts to X; the products are exact in float.
  Value x = floats({2, 3}, {-2, -0.5f, 0, 3, -1, 4});
  for (int64_t opset : {7, 9, 16}) {
    Bounds b = enclose_output(one_node_model("PRelu", opset, {x, floats({3}, {0.25f, 0.5f, 2})}));
    const double want[] = {-0.5, -0.25, 0, 3, -0.5, 4};
    for (int64_t i = 0; i < 6; ++i) {
      EXPECT_EQ(bound_at(b, i).lo, want[i]) << "PRelu-" << opset << " element " << i;
      EXPECT_EQ(bound_at(b, i).hi, want[i]) << "PRelu-" << opset << " element " << i;
    }
  }
  // Versions 1 and 6: a 1-D slope of the channel count where it does not broadcast (X [1, 2, 3]).
  Value xc = floats({1, 2, 3}, {-1, 2, -4, -3, 4, -8});
  for (int64_t opset : {1, 6}) {
    Bounds b = enclose_output(one_node_model("PRelu", opset, {xc, floats({2}, {0.5f, 0.25f})}));
    const double want[] = {-0.5, 2, -2, -0.75, 4, -2};
    for (int64_t i = 0; i < 6; ++i) EXPECT_EQ(bound_at(b, i).lo, want[i]) << "PRelu-" << opset << " element " << i;
  }
}

TEST(EncloseElementaryMore, PReluOfIntervalsHoldsTheExactValue) {
  // x through Sin (both signs), the slope through Exp.
  std::vector<float> x, s;
  for (int i = 0; i < 24; ++i)
    x.push_back(0.3f * static_cast<float>(i) - 3.4f), s.push_back(0.1f * static_cast<float>(i % 5) - 0.2f);
  OneNodeModel m =
      graph_model(16, {named_node("Sin", {"x"}, "sx"), named_node("Exp", {"s"}, "es"), named_node("PRelu", {"sx", "es"}, "y")},
                  {{"x", floats({24}, x)}, {"s", floats({24}, s)}}, {"y"});
  Bounds real = enclose_model(m.model, m.feed).at("y"),
         admissible = enclose_model(m.model, m.feed, Semantics::Admissible).at("y");
  Tensor r = Interpreter(m.model).run(m.feed).at("y").tensor;
  for (int64_t i = 0; i < 24; ++i) {
    SCOPED_TRACE("x = " + std::to_string(x[static_cast<size_t>(i)]));
    Exact sx(x[static_cast<size_t>(i)], 200), es(s[static_cast<size_t>(i)], 200);
    mpfr_sin(sx.get(), sx.get(), MPFR_RNDN);
    mpfr_exp(es.get(), es.get(), MPFR_RNDN);
    if (mpfr_sgn(sx.get()) < 0) mpfr_mul(sx.get(), sx.get(), es.get(), MPFR_RNDN);
    Interval e = bound_at(real, i);
    EXPECT_TRUE(sx.inside(e)) << "[" << e.lo << ", " << e.hi << "]";
    EXPECT_LE(ulps_of_double(e), 8.0);
    double ours = r.as_double(i);
    EXPECT_TRUE(bound_at(admissible, i).contains(ours));
    // The admissible inputs are some floats wide (Sin and Exp within 4 ulps each); 2^-10 relative is
    // far beyond.
    EXPECT_FALSE(bound_at(admissible, i).contains(ours * (1 + 0x1p-10)));
  }
}

TEST(EncloseElementaryMore, PReluOfAnIntervalAcrossZeroHoldsBothPieces) {
  // X = x − x·(1/3)·3 is an interval around 0 (the products round): slope·X for X < 0, X for X ≥ 0.
  OneNodeModel m = graph_model(16,
                               {named_node("Div", {"x", "three"}, "q"), named_node("Mul", {"q", "three"}, "p"),
                                named_node("Sub", {"x", "p"}, "d"), named_node("PRelu", {"d", "slope"}, "y")},
                               {{"x", floats({1}, {0.1f})}, {"three", floats({1}, {3.0f})}, {"slope", floats({1}, {-4.0f})}},
                               {"d", "y"});
  Bounds d = enclose_model(m.model, m.feed).at("d"), y = enclose_model(m.model, m.feed).at("y");
  Interval dx = bound_at(d, 0), e = bound_at(y, 0);
  ASSERT_LT(dx.lo, 0.0);
  ASSERT_GT(dx.hi, 0.0);
  EXPECT_TRUE(e.contains(0) && e.contains(dx.hi) && e.contains(-4 * dx.lo)) << "[" << e.lo << ", " << e.hi << "]";
  EXPECT_GE(e.lo, 0.0) << "a negative slope makes both pieces non-negative";
}

}  // namespace
}  // namespace sonnx::enclose
