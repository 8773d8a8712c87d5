// Enclosures of Sum, Mean, CumSum and ReduceProd (enclose_sums_more.cpp; spec/accuracy.md,
// "Admissible results"): the exact result (MPFR at 2200 bits, where sums and products of a few
// floats are exact) lies in the real enclosure; the reference's float result and the same
// operation computed in float in other orders (reversed, pairwise) lie in the admissible one,
// which holds the real one; a value 1000 ulps of float away from the reference's lies outside it.
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

using sonnx::testing::attr_int;
using sonnx::testing::attr_ints;

// Element i's checks: the exact value in the real enclosure; the reference's value and every
// other-order float result in the admissible one, which holds the real one.
void expect_sum_element(const Bounds& real, const Bounds& adm, int64_t i, Exact& exact, double reference,
                        const std::vector<float>& other_orders) {
  SCOPED_TRACE("element " + std::to_string(i));
  Interval r = bound_at(real, i), a = bound_at(adm, i);
  EXPECT_TRUE(exact.inside(r)) << "[" << r.lo << ", " << r.hi << "]";
  EXPECT_TRUE(a.contains(reference)) << reference << " outside [" << a.lo << ", " << a.hi << "]";
  for (float v : other_orders)
    EXPECT_TRUE(a.contains(static_cast<double>(v))) << v << " outside [" << a.lo << ", " << a.hi << "]";
  EXPECT_LE(a.lo, r.lo);
  EXPECT_GE(a.hi, r.hi);
}

// A value 1000 ulps of float from the reference's, either way, lies outside the admissible enclosure
// (for terms of one sign, where the sum does not cancel).
void expect_far_values_outside(const Bounds& adm, const Tensor& ref) {
  for (int64_t i = 0; i < ref.size(); ++i) {
    double x = ref.as_double(i);
    EXPECT_FALSE(bound_at(adm, i).contains(x + 1000 * float_ulp(x))) << "element " << i;
    EXPECT_FALSE(bound_at(adm, i).contains(x - 1000 * float_ulp(x))) << "element " << i;
  }
}

// n floats of one sign (positive), without cancellation: the admissible enclosure is a few tens of ulps.
std::vector<float> positive_floats(size_t n, std::mt19937& rng) { return uniform_floats(n, rng, 0.5f, 2.0f); }

// ---- Sum and Mean ----

// out[i, j] = a[i, j] + b[j] + c[i] (a: 2 × 3, b: 3, c: 2 × 1), divided by 3 for the mean.
void check_sum_or_mean(const char* op, int64_t opset, const std::vector<float>& a, const std::vector<float>& b,
                       const std::vector<float>& c, bool far_outside) {
  SCOPED_TRACE(std::string(op) + "-" + std::to_string(opset));
  const bool mean = std::string(op) == "Mean";
  OneNodeModel m = one_node_model(op, opset, {floats({2, 3}, a), floats({3}, b), floats({2, 1}, c)});
  Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
  Tensor ref = reference_output(m);
  ASSERT_EQ(real.lo.shape(), (Shape{2, 3}));
  ASSERT_EQ(adm.lo.shape(), (Shape{2, 3}));
  for (size_t i = 0; i < 2; ++i)
    for (size_t j = 0; j < 3; ++j) {
      float x = a[i * 3 + j], y = b[j], z = c[i];
      Exact exact;
      for (float t : {x, y, z}) exact.add_product(static_cast<double>(t), 1);
      if (mean) mpfr_div_ui(exact.get(), exact.get(), 3, MPFR_RNDN);
      float reversed = (z + y) + x, pairwise = x + (y + z);
      if (mean) {
        reversed /= 3.0f;
        pairwise /= 3.0f;
      }
      expect_sum_element(real, adm, static_cast<int64_t>(i * 3 + j), exact, ref.as_double(static_cast<int64_t>(i * 3 + j)),
                         {reversed, pairwise});
    }
  if (far_outside) expect_far_values_outside(adm, ref);
}

TEST(EncloseSumsMore, SumAndMeanHoldTheExactResultAndEveryOrderOfTheirTerms) {
  std::mt19937 rng(41);
  for (int t = 0; t < 10; ++t)
    for (const char* op : {"Sum", "Mean"})
      for (int64_t opset : {8, 13}) {
        const bool one_sign = t % 2 == 0;
        std::vector<float> a = one_sign ? positive_floats(6, rng) : wide_floats(6, rng),
                           b = one_sign ? positive_floats(3, rng) : wide_floats(3, rng),
                           c = one_sign ? positive_floats(2, rng) : wide_floats(2, rng);
        check_sum_or_mean(op, opset, a, b, c, one_sign);
      }
}

TEST(EncloseSumsMore, SumOfOneInputIsThatInputAndVersion6NeedsOneShape) {
  std::mt19937 rng(42);
  std::vector<float> x = wide_floats(4, rng);
  for (const char* op : {"Sum", "Mean"}) {
    Bounds y = enclose_output(one_node_model(op, 13, {floats({4}, x)}), Semantics::Admissible);
    for (int64_t i = 0; i < 4; ++i) {
      EXPECT_EQ(bound_at(y, i).lo, static_cast<double>(x[static_cast<size_t>(i)])) << op;
      EXPECT_EQ(bound_at(y, i).hi, static_cast<double>(x[static_cast<size_t>(i)])) << op;
    }
  }
  // Before version 8 the inputs do not broadcast: the reference traps, and so does the enclosure.
  OneNodeModel six = one_node_model("Sum", 6, {floats({2, 2}, {1, 2, 3, 4}), floats({2}, {1, 2})});
  EXPECT_THROW(reference_output(six), Trap);
  EXPECT_THROW(enclose_output(six), Trap);
  Bounds same = enclose_output(one_node_model("Sum", 6, {floats({2}, {1, 2}), floats({2}, {0.5f, 0.25f})}));
  EXPECT_TRUE(bound_at(same, 0).contains(1.5));
  EXPECT_TRUE(bound_at(same, 1).contains(2.25));
}

// ---- CumSum ----

// x: 3 × 5, summed along `axis` (1 or −2 = 0) with every exclusive and reverse.
TEST(EncloseSumsMore, CumSumHoldsEveryPrefixSumInAnyOrder) {
  std::mt19937 rng(43);
  const Shape xs{3, 5};
  int checked = 0;
  for (int t = 0; t < 4; ++t)
    for (int64_t axis : {1, -2})
      for (int64_t exclusive : {0, 1})
        for (int64_t reverse : {0, 1}) {
          SCOPED_TRACE("axis " + std::to_string(axis) + " exclusive " + std::to_string(exclusive) + " reverse " +
                       std::to_string(reverse));
          const bool one_sign = t % 2 == 0;
          std::vector<float> x = one_sign ? positive_floats(15, rng) : wide_floats(15, rng);
          Value axis_value = axis == 1 ? Value(Tensor::scalar<int64_t>(axis)) : Value(Tensor::from_vector<int32_t>({1}, {-2}));
          OneNodeModel m = one_node_model("CumSum", t < 2 ? 14 : 11, {floats(xs, x), axis_value},
                                          {attr_int("exclusive", exclusive), attr_int("reverse", reverse)});
          Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
          Tensor ref = reference_output(m);
          const size_t n = axis == 1 ? 5 : 3;  // the summed axis's length
          for (size_t o = 0; o < 15 / n; ++o)  // each line along the axis
            for (size_t j = 0; j < n; ++j) {
              auto element = [&](size_t k) { return axis == 1 ? o * 5 + k : k * 5 + o; };
              std::vector<size_t> terms;  // the prefix of j, nearest first
              for (size_t k = 0; k < n; ++k) {
                bool before = reverse ? k > j : k < j;
                if (before || (k == j && !exclusive)) terms.push_back(k);
              }
              std::sort(terms.begin(), terms.end(), [&](size_t p, size_t q) { return reverse ? p < q : p > q; });
              Exact exact;
              float nearest_first = 0;
              for (size_t k : terms) {
                exact.add_product(static_cast<double>(x[element(k)]), 1);
                nearest_first += x[element(k)];
              }
              const auto i = static_cast<int64_t>(element(j));
              expect_sum_element(real, adm, i, exact, ref.as_double(i), {nearest_first});
              if (terms.empty()) {  // an empty prefix is exactly 0 under both semantics
                EXPECT_EQ(bound_at(adm, i).lo, 0.0);
                EXPECT_EQ(bound_at(adm, i).hi, 0.0);
              }
              ++checked;
            }
          if (one_sign && !exclusive) expect_far_values_outside(adm, ref);
        }
  EXPECT_EQ(checked, 4 * 2 * 2 * 2 * 15);
}

// ---- ReduceProd ----

struct ProdCase {
  int64_t opset;
  std::vector<int64_t> axes;  // empty: every axis
  bool axes_input;
  int64_t keepdims;
};

// x: 2 × 3 × 4, factors of either sign in [0.5, 2) (no overflow or underflow in float).
TEST(EncloseSumsMore, ReduceProdHoldsTheExactProductAndEveryOrderOfItsFactors) {
  std::mt19937 rng(44);
  std::uniform_int_distribution<int> coin(0, 1);
  const Shape xs{2, 3, 4};
  const ProdCase cases[] = {
      {1, {}, false, 1}, {11, {0, 2}, false, 0}, {13, {-1}, false, 1}, {18, {1}, true, 1}, {18, {0, 1}, true, 0}};
  for (const ProdCase& pc : cases) {
    SCOPED_TRACE("ReduceProd-" + std::to_string(pc.opset) + " over " + std::to_string(pc.axes.size()) + " axes");
    std::vector<float> x = positive_floats(24, rng);
    for (float& v : x)
      if (coin(rng)) v = -v;
    std::vector<Value> inputs = {floats(xs, x)};
    std::vector<onnx::AttributeProto> attrs = {attr_int("keepdims", pc.keepdims)};
    if (pc.axes_input) inputs.push_back(Value(Tensor::from_vector<int64_t>({static_cast<int64_t>(pc.axes.size())}, pc.axes)));
    else if (!pc.axes.empty()) attrs.push_back(attr_ints("axes", pc.axes));
    OneNodeModel m = one_node_model("ReduceProd", pc.opset, inputs, attrs);
    Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
    Tensor ref = reference_output(m);
    // Which output element each input element goes to, from the reduced axes (row-major, kept dims).
    bool reduced[3] = {pc.axes.empty(), pc.axes.empty(), pc.axes.empty()};
    for (int64_t a : pc.axes) reduced[(a + 3) % 3] = true;
    std::vector<std::vector<size_t>> groups;
    int64_t kept_size = 1;
    for (int d = 0; d < 3; ++d) kept_size *= reduced[d] ? 1 : xs[static_cast<size_t>(d)];
    groups.resize(static_cast<size_t>(kept_size));
    for (int64_t i0 = 0; i0 < 2; ++i0)
      for (int64_t i1 = 0; i1 < 3; ++i1)
        for (int64_t i2 = 0; i2 < 4; ++i2) {
          int64_t o = 0;
          if (!reduced[0]) o = o * 2 + i0;
          if (!reduced[1]) o = o * 3 + i1;
          if (!reduced[2]) o = o * 4 + i2;
          groups[static_cast<size_t>(o)].push_back(static_cast<size_t>((i0 * 3 + i1) * 4 + i2));
        }
    ASSERT_EQ(ref.size(), kept_size);
    ASSERT_EQ(adm.lo.size(), kept_size);
    for (size_t o = 0; o < groups.size(); ++o) {
      Exact exact(1);
      float forward = 1, backward = 1;
      for (size_t k = 0; k < groups[o].size(); ++k) {
        mpfr_mul_d(exact.get(), exact.get(), static_cast<double>(x[groups[o][k]]), MPFR_RNDN);  // exact at 2200 bits
        forward *= x[groups[o][k]];
        backward *= x[groups[o][groups[o].size() - 1 - k]];
      }
      expect_sum_element(real, adm, static_cast<int64_t>(o), exact, ref.as_double(static_cast<int64_t>(o)), {forward, backward});
    }
    expect_far_values_outside(adm, ref);
  }
}

TEST(EncloseSumsMore, ReduceProdWithoutAxesAndNoopIsTheIdentity) {
  std::vector<float> x = {0.5f, -3, 1.25f, 7};
  OneNodeModel m = one_node_model("ReduceProd", 18, {floats({2, 2}, x)}, {attr_int("noop_with_empty_axes", 1)});
  Bounds y = enclose_output(m, Semantics::Admissible);
  ASSERT_EQ(y.lo.shape(), (Shape{2, 2}));
  for (int64_t i = 0; i < 4; ++i) {
    EXPECT_EQ(bound_at(y, i).lo, static_cast<double>(x[static_cast<size_t>(i)]));
    EXPECT_EQ(bound_at(y, i).hi, static_cast<double>(x[static_cast<size_t>(i)]));
  }
}

}  // namespace
}  // namespace sonnx::enclose
