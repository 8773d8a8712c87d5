// The enclosures of InstanceNormalization and LpNormalization (enclose/enclose_norms.cpp;
// spec/accuracy.md, "Admissible results"): the exact value of the operator's formula (MPFR at 256
// bits, ε the attribute's float value) lies in the real enclosure; the reference's float result in
// the admissible one, which holds the real one; a value 1000 ulps of float from the reference's lies
// outside it. LpNormalization of a line of zeros is defined as zeros.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
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

// (a)–(c) for every element; `exact(i, y)` writes element i's exact value.
void check_norm(const OneNodeModel& m, const std::function<void(int64_t, Real256&)>& exact) {
  Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
  Tensor ref = reference_output(m);
  ASSERT_EQ(real.lo.shape(), ref.shape());
  ASSERT_EQ(adm.lo.shape(), ref.shape());
  for (int64_t i = 0; i < ref.size(); ++i) {
    SCOPED_TRACE("element " + std::to_string(i));
    Real256 e;
    exact(i, e);
    Interval r = bound_at(real, i), a = bound_at(adm, i);
    EXPECT_TRUE(e.inside(r)) << e.to_double() << " outside [" << r.lo << ", " << r.hi << "]";
    double y = ref.as_double(i);
    EXPECT_TRUE(a.contains(y)) << y << " outside [" << a.lo << ", " << a.hi << "]";
    EXPECT_LE(a.lo, r.lo);
    EXPECT_GE(a.hi, r.hi);
    EXPECT_FALSE(a.contains(y + 1000 * float_ulp(y)));
    EXPECT_FALSE(a.contains(y - 1000 * float_ulp(y)));
  }
}

// N = 2, C = 2, D = 4: y = scale·(x − mean)/√(var + ε) + B per (n, c).
void check_instance_norm(int64_t opset, float epsilon) {
  SCOPED_TRACE("InstanceNormalization-" + std::to_string(opset));
  std::mt19937 rng(static_cast<unsigned>(opset));
  std::vector<float> x = uniform_floats(16, rng, -2.0f, 3.0f);
  // |x − mean|/σ ≤ √3 over four elements: B keeps y away from 0 (no cancellation in the last Add).
  const std::vector<float> scale = {1.5f, -0.75f}, bias = {4.0f, 3.0f};
  OneNodeModel m = one_node_model("InstanceNormalization", opset, {floats({2, 2, 4}, x), floats({2}, scale), floats({2}, bias)},
                                  {attr_float("epsilon", epsilon)});
  check_norm(m, [&](int64_t i, Real256& y) {
    const auto group = static_cast<size_t>(i / 4), ch = group % 2;
    Real256 mean, var, t;
    for (size_t k = 0; k < 4; ++k) mpfr_add_d(mean.get(), mean.get(), x[group * 4 + k], MPFR_RNDN);
    mpfr_div_ui(mean.get(), mean.get(), 4, MPFR_RNDN);
    for (size_t k = 0; k < 4; ++k) {
      mpfr_set_d(t.get(), x[group * 4 + k], MPFR_RNDN);
      mpfr_sub(t.get(), t.get(), mean.get(), MPFR_RNDN);
      mpfr_mul(t.get(), t.get(), t.get(), MPFR_RNDN);
      mpfr_add(var.get(), var.get(), t.get(), MPFR_RNDN);
    }
    mpfr_div_ui(var.get(), var.get(), 4, MPFR_RNDN);
    mpfr_add_d(var.get(), var.get(), static_cast<double>(epsilon), MPFR_RNDN);
    mpfr_sqrt(var.get(), var.get(), MPFR_RNDN);
    mpfr_set_d(y.get(), x[static_cast<size_t>(i)], MPFR_RNDN);
    mpfr_sub(y.get(), y.get(), mean.get(), MPFR_RNDN);
    mpfr_mul_d(y.get(), y.get(), scale[ch], MPFR_RNDN);
    mpfr_div(y.get(), y.get(), var.get(), MPFR_RNDN);
    mpfr_add_d(y.get(), y.get(), bias[ch], MPFR_RNDN);
  });
}

TEST(EncloseNorms, InstanceNormalizationEveryVersion) {
  check_instance_norm(6, 1e-5f);
  check_instance_norm(22, 0.01f);
}

// Lines of 3 along the last axis (and along axis 0 once): x / Σ|x| or x / √Σx².
void check_lp_norm(int64_t opset, int64_t p, int64_t axis) {
  SCOPED_TRACE("LpNormalization-" + std::to_string(opset) + " p " + std::to_string(p) + " axis " + std::to_string(axis));
  const std::vector<float> x = {0.5f, -1.25f, 3.0f, 2.0f, 0.125f, -0.75f};  // 2 × 3
  OneNodeModel m = one_node_model("LpNormalization", opset, {floats({2, 3}, x)}, {attr_int("p", p), attr_int("axis", axis)});
  check_norm(m, [&](int64_t i, Real256& y) {
    const auto row = static_cast<size_t>(i / 3), col = static_cast<size_t>(i % 3);
    std::vector<size_t> line;
    for (size_t k = 0; k < (axis == 0 ? 2u : 3u); ++k) line.push_back(axis == 0 ? k * 3 + col : row * 3 + k);
    Real256 norm, t;
    for (size_t j : line) {
      mpfr_set_d(t.get(), x[j], MPFR_RNDN);
      if (p == 1) mpfr_abs(t.get(), t.get(), MPFR_RNDN);
      else mpfr_mul(t.get(), t.get(), t.get(), MPFR_RNDN);
      mpfr_add(norm.get(), norm.get(), t.get(), MPFR_RNDN);
    }
    if (p == 2) mpfr_sqrt(norm.get(), norm.get(), MPFR_RNDN);
    mpfr_set_d(y.get(), x[static_cast<size_t>(i)], MPFR_RNDN);
    mpfr_div(y.get(), y.get(), norm.get(), MPFR_RNDN);
  });
}

TEST(EncloseNorms, LpNormalizationP1AndP2) {
  for (int64_t opset : {1, 22})
    for (int64_t p : {1, 2}) check_lp_norm(opset, p, -1);
  check_lp_norm(22, 2, 0);
}

// A line of zeros: the output is defined as zeros (both versions' text), the point 0; the other
// line's as usual.
TEST(EncloseNorms, LpNormalizationOfZerosIsZeros) {
  OneNodeModel m = one_node_model("LpNormalization", 22, {floats({2, 2}, {0, 0, 3, 4})}, {attr_int("p", 2)});
  Bounds adm = enclose_output(m, Semantics::Admissible);
  Tensor ref = reference_output(m);
  for (int64_t i : {0, 1}) {
    EXPECT_EQ(ref.as_double(i), 0.0);
    EXPECT_EQ(bound_at(adm, i).lo, 0.0) << "element " << i;
    EXPECT_EQ(bound_at(adm, i).hi, 0.0) << "element " << i;
  }
  // 3/5 and 4/5, by hand.
  EXPECT_TRUE(bound_at(adm, 2).contains(static_cast<double>(0.6f)));
  EXPECT_TRUE(bound_at(adm, 3).contains(static_cast<double>(0.8f)));
  EXPECT_FALSE(bound_at(adm, 2).contains(0.6 + 1000 * float_ulp(0.6)));
}

}  // namespace
}  // namespace sonnx::enclose
