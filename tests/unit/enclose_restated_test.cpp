// Older operator versions that a later version re-states with a function body (enclose/
// enclose_restated.cpp): Selu-6, HardSigmoid-6 and Softsign-1 as 22, the composite reductions 1, 11
// and 13 (axes an attribute) as 18 (axes an input). For each, on random floats: the exact value of
// the operator's definition (MPFR at 256 bits, float attributes at their float values) lies in the
// real enclosure, the reference interpreter's float result in the admissible one, which holds the
// real one, and a value 1000 float ulps from the reference's lies outside it.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "enclose_test_util.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_float;
using sonnx::testing::attr_int;
using sonnx::testing::attr_ints;

void check_restated(const OneNodeModel& m, const std::function<void(int64_t, mpfr_t)>& exact) {
  Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
  Tensor ref = reference_output(m);
  ASSERT_EQ(real.lo.shape(), ref.shape());
  ASSERT_EQ(adm.lo.shape(), ref.shape());
  for (int64_t i = 0; i < ref.size(); ++i) {
    SCOPED_TRACE("element " + std::to_string(i));
    Real256 e;
    exact(i, e.get());
    Interval r = bound_at(real, i), a = bound_at(adm, i);
    EXPECT_TRUE(e.inside(r)) << e.to_double() << " outside [" << r.lo << ", " << r.hi << "]";
    double y = ref.as_double(i);
    EXPECT_TRUE(a.contains(y)) << y << " outside [" << a.lo << ", " << a.hi << "]";
    EXPECT_LE(a.lo, r.lo);
    EXPECT_GE(a.hi, r.hi);
    double far = 1000 * float_ulp(std::max(std::fabs(y), 1e-3));
    EXPECT_FALSE(a.contains(y + far));
    EXPECT_FALSE(a.contains(y - far));
  }
}

TEST(EncloseRestated, SeluHardSigmoidAndSoftsignAsTheirLaterBodies) {
  std::mt19937 rng(6);
  std::vector<float> x = uniform_floats(12, rng, -3.0f, 3.0f);
  const float alpha = 1.5f, gamma = 1.2f, hs_alpha = 0.3f, hs_beta = 0.4f;
  {
    SCOPED_TRACE("Selu-6");
    check_restated(one_node_model("Selu", 6, {floats({3, 4}, x)}, {attr_float("alpha", alpha), attr_float("gamma", gamma)}),
                   [&](int64_t i, mpfr_t y) {  // gamma·x for x > 0, gamma·alpha·(e^x − 1) otherwise
                     double v = x[static_cast<size_t>(i)];
                     mpfr_set_d(y, v, MPFR_RNDN);
                     if (v <= 0) {
                       mpfr_expm1(y, y, MPFR_RNDN);
                       mpfr_mul_d(y, y, alpha, MPFR_RNDN);
                     }
                     mpfr_mul_d(y, y, gamma, MPFR_RNDN);
                   });
  }
  {
    SCOPED_TRACE("HardSigmoid-6");
    check_restated(one_node_model("HardSigmoid", 6, {floats({3, 4}, x)},
                                  {attr_float("alpha", hs_alpha), attr_float("beta", hs_beta)}),
                   [&](int64_t i, mpfr_t y) {  // max(0, min(1, alpha·x + beta))
                     mpfr_set_d(y, x[static_cast<size_t>(i)], MPFR_RNDN);
                     mpfr_mul_d(y, y, hs_alpha, MPFR_RNDN);
                     mpfr_add_d(y, y, hs_beta, MPFR_RNDN);
                     if (mpfr_cmp_d(y, 0) < 0) mpfr_set_d(y, 0, MPFR_RNDN);
                     if (mpfr_cmp_d(y, 1) > 0) mpfr_set_d(y, 1, MPFR_RNDN);
                   });
  }
  {
    SCOPED_TRACE("Softsign-1");
    check_restated(one_node_model("Softsign", 1, {floats({3, 4}, x)}), [&](int64_t i, mpfr_t y) {  // x / (1 + |x|)
      double v = x[static_cast<size_t>(i)];
      Real256 d;
      mpfr_set_d(d.get(), 1 + std::fabs(v), MPFR_RNDN);  // exact: v is a float
      mpfr_set_d(y, v, MPFR_RNDN);
      mpfr_div(y, y, d.get(), MPFR_RNDN);
    });
  }
}

// The reductions over axis 1 of a (2, 5) input, kept dims or not; one reduces every axis (no axes).
TEST(EncloseRestated, CompositeReductionsWithAxesAttributes) {
  std::mt19937 rng(13);
  std::vector<float> x = uniform_floats(10, rng, -2.0f, 2.0f);
  // The exact value of the reduction of x[row·5 .. row·5 + 4]: f of each term summed, then g.
  auto over_row = [&](int64_t row, mpfr_t y, const std::function<void(mpfr_t, double)>& term,
                      const std::function<void(mpfr_t)>& finish) {
    mpfr_set_d(y, 0, MPFR_RNDN);
    Real256 t;
    for (int64_t k = 0; k < 5; ++k) {
      term(t.get(), x[static_cast<size_t>(row * 5 + k)]);
      mpfr_add(y, y, t.get(), MPFR_RNDN);
    }
    finish(y);
  };
  auto square = [](mpfr_t t, double v) {
    mpfr_set_d(t, v, MPFR_RNDN);
    mpfr_sqr(t, t, MPFR_RNDN);
  };
  auto absolute = [](mpfr_t t, double v) { mpfr_set_d(t, std::fabs(v), MPFR_RNDN); };
  auto exponential = [](mpfr_t t, double v) {
    mpfr_set_d(t, v, MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDN);
  };
  auto nothing = [](mpfr_t) {};
  // ReduceL2-18's body takes the root in double and casts it back to float: that rounding is part
  // of its definition (spec/accuracy.md, "Operators defined by a function body").
  auto root = [](mpfr_t y) {
    mpfr_sqrt(y, y, MPFR_RNDN);
    mpfr_prec_round(y, 24, MPFR_RNDN);
    mpfr_prec_round(y, 256, MPFR_RNDN);
  };
  auto logarithm = [](mpfr_t y) { mpfr_log(y, y, MPFR_RNDN); };
  struct Case {
    const char* op;
    int64_t opset;
    std::function<void(mpfr_t, double)> term;
    std::function<void(mpfr_t)> finish;
  };
  const Case cases[] = {{"ReduceL1", 13, absolute, nothing},
                        {"ReduceL2", 11, square, root},
                        {"ReduceSumSquare", 1, square, nothing},
                        {"ReduceLogSumExp", 13, exponential, logarithm},
                        {"ReduceLogSumExp", 11, exponential, logarithm}};
  for (const Case& cs : cases)
    for (int64_t keepdims : {0, 1}) {
      SCOPED_TRACE(std::string(cs.op) + "-" + std::to_string(cs.opset) + " keepdims " + std::to_string(keepdims));
      check_restated(one_node_model(cs.op, cs.opset, {floats({2, 5}, x)},
                                    {attr_ints("axes", {1}), attr_int("keepdims", keepdims)}),
                     [&](int64_t row, mpfr_t y) { over_row(row, y, cs.term, cs.finish); });
    }
  // No axes: every axis, one value (the two rows as one sum).
  OneNodeModel all = one_node_model("ReduceL2", 13, {floats({2, 5}, x)}, {attr_int("keepdims", 0)});
  EXPECT_EQ(enclose_output(all).lo.size(), 1);
  check_restated(all, [&](int64_t, mpfr_t y) {
    Real256 second;
    over_row(0, y, square, nothing);
    over_row(1, second.get(), square, nothing);
    mpfr_add(y, y, second.get(), MPFR_RNDN);
    root(y);
  });
}

}  // namespace
}  // namespace sonnx::enclose
