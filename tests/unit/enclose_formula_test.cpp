// Sigmoid and Elu, which the text defines by a formula of elementary functions: under `admissible`
// their enclosure also holds the formula evaluated as written in float, each step within its
// allowance (enclose_elementwise.cpp, formula_op), and still not a result far from both.
#include <gtest/gtest.h>

#include <cmath>

#include "enclose_test_util.h"

namespace sonnx::enclose {
namespace {

// The float `steps` up (or down, when negative) from x.
float floats_from(float x, int steps) {
  for (int k = 0; k < std::abs(steps); ++k) x = std::nextafter(x, steps > 0 ? INFINITY : -INFINITY);
  return x;
}

TEST(EncloseFormula, EluAsWrittenInFloatIsAdmissibleNearZero) {
  // α·(e^x − 1) in float near 0: expf's rounding, about half an ulp of 1, is tens of ulps of the
  // small result after the subtraction; a kernel doing just that is within its allowances.
  const float alpha = 1.0f;
  for (float x : {-0.0108627f, -0.003f, -1e-4f}) {
    SCOPED_TRACE(x);
    OneNodeModel m = one_node_model("Elu", 6, {floats({1}, {x})}, {testing::attr_float("alpha", alpha)});
    Interval a = bound_at(enclose_output(m, Semantics::Admissible), 0), r = bound_at(enclose_output(m), 0);
    // expf within a few ulps of e^x, then the float subtraction and product.
    for (int off : {-2, 0, 2}) {
      float e = floats_from(static_cast<float>(std::exp(static_cast<double>(x))), off);
      float as_written = alpha * (e - 1.0f);
      EXPECT_TRUE(a.contains(as_written)) << as_written << " outside [" << a.lo << ", " << a.hi << "]";
    }
    // Wider than the whole-operator window of 4 ulps, which alone would reject those values.
    float exact = static_cast<float>(r.lo);
    EXPECT_LT(a.lo, floats_from(exact, -8));
    // Not a result of another sign or far off: twice the exact value lies outside.
    EXPECT_FALSE(a.contains(2 * r.lo));
  }
}

TEST(EncloseFormula, SigmoidAsWrittenIsAdmissibleButNotAnOutputTwiceTheExactValue) {
  for (float x : {-16.9f, -3.5f, 0.25f, 6.0f}) {
    SCOPED_TRACE(x);
    OneNodeModel m = one_node_model("Sigmoid", 13, {floats({1}, {x})});
    Interval a = bound_at(enclose_output(m, Semantics::Admissible), 0);
    double exact = 1 / (1 + std::exp(-static_cast<double>(x)));
    float e = static_cast<float>(std::exp(-static_cast<double>(x)));
    for (int off : {-3, 3}) {
      float as_written = 1.0f / (1.0f + floats_from(e, off));
      EXPECT_TRUE(a.contains(as_written)) << as_written << " outside [" << a.lo << ", " << a.hi << "]";
    }
    EXPECT_FALSE(a.contains(exact * 2)) << "twice the exact value is no rounding";
    EXPECT_FALSE(a.contains(exact * (1 - 1e-4))) << "a relative error of 1e-4 is far beyond the allowances";
  }
}

}  // namespace
}  // namespace sonnx::enclose
