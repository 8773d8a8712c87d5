// The enclosure of CumProd-26 (enclose/enclose_cumprod.cpp; spec/accuracy.md, "Admissible results"):
// for every axis, exclusive and reverse, each output's exact prefix product (MPFR at 2200 bits, where
// a product of five floats is exact) lies in the real enclosure; the reference's float result and
// the same prefix multiplied in float in the other direction lie in the admissible one, which holds
// the real one; a value 1000 ulps of float from the reference's lies outside it; an empty prefix is
// exactly 1.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "enclose_test_util.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_int;

TEST(EncloseCumProd, HoldsEveryPrefixProductInAnyOrder) {
  std::mt19937 rng(2607);
  const Shape xs{3, 5};
  int checked = 0;
  for (int64_t axis : {1, -2})
    for (int64_t exclusive : {0, 1})
      for (int64_t reverse : {0, 1}) {
        SCOPED_TRACE("axis " + std::to_string(axis) + " exclusive " + std::to_string(exclusive) + " reverse " +
                     std::to_string(reverse));
        // Factors of both signs, away from 1 so that products grow and shrink.
        std::vector<float> x = uniform_floats(15, rng, 0.25f, 3.0f);
        for (size_t k = 0; k < x.size(); k += 3) x[k] = -x[k];
        Value axis_value = axis == 1 ? Value(Tensor::scalar<int64_t>(axis)) : Value(Tensor::scalar<int32_t>(-2));
        OneNodeModel m = one_node_model("CumProd", 26, {floats(xs, x), axis_value},
                                        {attr_int("exclusive", exclusive), attr_int("reverse", reverse)});
        Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
        Tensor ref = reference_output(m);
        ASSERT_EQ(real.lo.shape(), xs);
        ASSERT_EQ(adm.lo.shape(), xs);
        const size_t n = axis == 1 ? 5 : 3;  // the axis's length
        for (size_t o = 0; o < 15 / n; ++o)
          for (size_t j = 0; j < n; ++j) {
            auto element = [&](size_t k) { return axis == 1 ? o * 5 + k : k * 5 + o; };
            std::vector<size_t> factors;  // the prefix of j, in index order
            for (size_t k = 0; k < n; ++k) {
              bool before = reverse ? k > j : k < j;
              if (before || (k == j && !exclusive)) factors.push_back(k);
            }
            Exact exact(1);
            float forward = 1, backward = 1;
            for (size_t k : factors) mpfr_mul_d(exact.get(), exact.get(), x[element(k)], MPFR_RNDN);  // exact
            for (size_t k : factors) forward *= x[element(k)];
            for (auto k = factors.rbegin(); k != factors.rend(); ++k) backward *= x[element(*k)];
            const auto i = static_cast<int64_t>(element(j));
            SCOPED_TRACE("element " + std::to_string(i));
            Interval r = bound_at(real, i), a = bound_at(adm, i);
            EXPECT_TRUE(exact.inside(r)) << "[" << r.lo << ", " << r.hi << "]";
            double y = ref.as_double(i);
            for (double v : {y, static_cast<double>(forward), static_cast<double>(backward)})
              EXPECT_TRUE(a.contains(v)) << v << " outside [" << a.lo << ", " << a.hi << "]";
            EXPECT_LE(a.lo, r.lo);
            EXPECT_GE(a.hi, r.hi);
            EXPECT_FALSE(a.contains(y + 1000 * float_ulp(y)));
            EXPECT_FALSE(a.contains(y - 1000 * float_ulp(y)));
            if (factors.empty()) {  // an empty prefix is exactly 1
              EXPECT_EQ(a.lo, 1.0);
              EXPECT_EQ(a.hi, 1.0);
            }
            ++checked;
          }
      }
  EXPECT_EQ(checked, 8 * 15);
}

// Products exact in float: the real enclosure is the points, the admissible one holds them and
// is wider only where more than one factor was multiplied (a single factor is itself).
TEST(EncloseCumProd, ExactProductsArePoints) {
  OneNodeModel m = one_node_model("CumProd", 26, {floats({4}, {2, 3, 0.5f, -4}), Value(Tensor::scalar<int64_t>(0))});
  Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
  const double want[] = {2, 6, 3, -12};  // by hand
  for (int64_t i = 0; i < 4; ++i) {
    SCOPED_TRACE("element " + std::to_string(i));
    EXPECT_EQ(bound_at(real, i).lo, want[i]);
    EXPECT_EQ(bound_at(real, i).hi, want[i]);
    EXPECT_TRUE(bound_at(adm, i).contains(want[i]));
  }
  EXPECT_EQ(bound_at(adm, 0).lo, 2.0);
  EXPECT_EQ(bound_at(adm, 0).hi, 2.0);
  EXPECT_LT(bound_at(adm, 1).lo, 6.0);
}

}  // namespace
}  // namespace sonnx::enclose
