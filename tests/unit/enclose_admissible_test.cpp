// The admissible semantics (spec/accuracy.md, "Admissible results"): rounding to a type's values,
// each operator's allowance, and judging results against the enclosures (conformance/enclosure_judge).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "conformance/enclosure_judge.h"
#include "enclose_test_util.h"
#include "enclose/enclose_ops.h"
#include "enclose/type_rounding.h"
#include "sonnx/errors.h"
#include "tensor_test_util.h"

namespace sonnx::enclose {
namespace {

Value f32(const Shape& shape, std::vector<float> v) { return Value(Tensor::from_vector<float>(shape, std::move(v))); }

TEST(EncloseAdmissible, RoundingOutwardGivesTheNeighbouringValuesOfTheType) {
  FloatFormat f = float_format(DType::Float);
  std::mt19937 rng(11);
  for (int t = 0; t < 20000; ++t) {
    double x = random_float(rng) * (1 + 0x1p-30 * (t % 7));  // mostly between two floats
    float lo = static_cast<float>(f.round_down(x)), hi = static_cast<float>(f.round_up(x));
    ASSERT_EQ(static_cast<double>(lo), f.round_down(x)) << "a float value: " << x;
    ASSERT_LE(static_cast<double>(lo), x);
    ASSERT_GE(static_cast<double>(hi), x);
    ASSERT_TRUE(lo == hi ? static_cast<double>(lo) == x : std::nextafter(lo, INFINITY) == hi) << x;
  }
  EXPECT_EQ(f.round_up(0x1.fffffep127 * (1 + 0x1p-40)), INFINITY) << "past the largest float";
  EXPECT_EQ(f.round_down(0x1.fffffep127 * (1 + 0x1p-40)), 0x1.fffffep127);
  EXPECT_EQ(f.round_up(1e-50), 0x1p-149) << "the smallest subnormal";
  FloatFormat h = float_format(DType::Float16);
  EXPECT_EQ(h.round_down(1.0 + 0x1p-11), 1.0);
  EXPECT_EQ(h.round_up(1.0 + 0x1p-11), 1.0 + 0x1p-10);
  EXPECT_EQ(h.round_up(65504.5), INFINITY);
  EXPECT_THROW(float_format(DType::Int32), Unsupported);
}

// Correctly rounded arithmetic, and exp within its allowance: every float result an implementation
// may give lies inside, and the enclosure spans no more than the allowance needs.
TEST(EncloseAdmissible, ElementwiseEnclosuresHoldEveryResultWithinTheAllowance) {
  std::mt19937 rng(12);
  std::vector<float> a(500), b(500);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<float>(random_float(rng));
    b[i] = static_cast<float>(random_float(rng));
  }
  OneNodeModel add = one_node_model("Add", 14, {f32({500}, a), f32({500}, b)});
  Bounds sum = enclose_output(add, Semantics::Admissible);
  std::vector<float> small(a.size());
  std::transform(a.begin(), a.end(), small.begin(), [](float x) { return std::fmod(x, 80.0f); });
  OneNodeModel exp = one_node_model("Exp", 13, {f32({500}, small)});
  Bounds e = enclose_output(exp, Semantics::Admissible);
  FloatFormat f = float_format(DType::Float);
  for (int64_t i = 0; i < 500; ++i) {
    size_t k = static_cast<size_t>(i);
    Interval s = bound_at(sum, i);
    float rounded = a[k] + b[k];  // IEEE addition: correctly rounded
    EXPECT_TRUE(s.contains(rounded)) << a[k] << " + " << b[k];
    EXPECT_LE(width_in_ulps(s, DType::Float), 1.0) << "the two floats around the exact sum";
    Interval x = bound_at(e, i);
    double exact = std::exp(static_cast<double>(small[k]));
    for (double ulps : {-kElementaryUlps, 0.0, kElementaryUlps}) {  // any result within the allowance
      double r = f.round_down(exact + ulps * f.ulp(exact) * 0.99);
      EXPECT_TRUE(x.contains(r)) << "exp(" << small[k] << ") " << ulps;
    }
    EXPECT_LE(width_in_ulps(x, DType::Float), 2 * kElementaryUlps + 2);
    EXPECT_FALSE(x.contains(f.round_up(exact + 2 * kElementaryUlps * f.ulp(exact) + f.ulp(exact)))) << "too far";
  }
}

// A float32 dot product summed in any order (forward, backward, pairwise, with or without fused
// multiply-adds) lies in the admissible MatMul enclosure; the real enclosure lies inside it.
TEST(EncloseAdmissible, ADotProductInAnyOrderOfTheTypeLiesInside) {
  std::mt19937 rng(13);
  for (int t = 0; t < 40; ++t) {
    const int64_t K = 1 + static_cast<int64_t>(rng() % 3000);
    std::vector<float> a(static_cast<size_t>(K)), b(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
      a[i] = static_cast<float>(random_float(rng));
      b[i] = static_cast<float>(random_float(rng));
    }
    OneNodeModel mm = one_node_model("MatMul", 13, {f32({1, K}, a), f32({K, 1}, b)});
    Interval adm = bound_at(enclose_output(mm, Semantics::Admissible), 0), real = bound_at(enclose_output(mm), 0);
    EXPECT_LE(adm.lo, real.lo);
    EXPECT_GE(adm.hi, real.hi);
    float forward = 0, backward = 0, fused = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      forward += a[i] * b[i];
      backward += a[a.size() - 1 - i] * b[b.size() - 1 - i];
      fused = std::fma(a[i], b[i], fused);
    }
    std::vector<float> p(a.size());
    for (size_t i = 0; i < a.size(); ++i) p[i] = a[i] * b[i];
    while (p.size() > 1) {  // pairwise
      std::vector<float> q;
      for (size_t i = 0; i + 1 < p.size(); i += 2) q.push_back(p[i] + p[i + 1]);
      if (p.size() % 2) q.push_back(p.back());
      p = q;
    }
    for (float r : {forward, backward, fused, p[0]}) EXPECT_TRUE(adm.contains(r)) << "K " << K << ": " << r;
  }
}

TEST(EncloseAdmissible, TheReferenceLiesInTheAdmissibleEnclosureOfASmallNetwork) {
  std::mt19937 rng(14);
  const Shape xs{1, 3, 8, 8};
  OneNodeModel conv = one_node_model("Conv", 11,
                                     {Value(testing::random_float_tensor(xs, rng)),
                                      Value(testing::random_float_tensor({4, 3, 3, 3}, rng)),
                                      Value(testing::random_float_tensor({4}, rng))});
  Bounds y = enclose_output(conv, Semantics::Admissible);
  Tensor r = reference_output(conv);
  for (int64_t i = 0; i < r.size(); ++i) EXPECT_TRUE(bound_at(y, i).contains(r.as_double(i))) << i;
}

// ---- the judge ----

Bounds bounds_of(const Shape& shape, std::vector<double> lo, std::vector<double> hi) {
  return Bounds{DType::Float, Tensor::from_vector<double>(shape, std::move(lo)),
                Tensor::from_vector<double>(shape, std::move(hi))};
}

TEST(EnclosureJudge, PassesInsideAndMeasuresHowFarOutside) {
  Bounds b = bounds_of({3}, {1.0, 2.0, -1.0}, {1.0, 2.0 + 0x1p-21, -1.0});  // a float's ulp at 2 is 2^-22
  EnclosureCheck in = judge_by_enclosure("y", f32({3}, {1.0f, 2.0f + 0x1p-22f, -1.0f}), b);
  EXPECT_TRUE(in.ok) << in.message;
  EXPECT_EQ(in.ulps_outside, 0);
  EXPECT_DOUBLE_EQ(in.width_ulps, 2.0);
  EnclosureCheck out = judge_by_enclosure("y", f32({3}, {1.0f, 2.0f, std::nextafter(-1.0f, -2.0f)}), b);
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.outside, 1);
  EXPECT_DOUBLE_EQ(out.ulps_outside, 1.0);
  EXPECT_NE(out.message.find("element 2"), std::string::npos) << out.message;
}

TEST(EnclosureJudge, NaNPassesOnlyWhereTheValueIsUndefined) {
  Bounds b = bounds_of({3}, {0.0, NAN, -INFINITY}, {1.0, NAN, INFINITY});
  EXPECT_FALSE(judge_by_enclosure("y", f32({3}, {NAN, 0.0f, 0.0f}), b).ok);
  EnclosureCheck undefined = judge_by_enclosure("y", f32({3}, {0.5f, NAN, 0.0f}), b);
  EXPECT_TRUE(undefined.ok);
  EXPECT_EQ(undefined.undefined, 1);
  EXPECT_TRUE(judge_by_enclosure("y", f32({3}, {0.5f, 7.0f, -INFINITY}), b).ok) << "anything where undefined, ±∞ in [−∞, +∞]";
  EXPECT_FALSE(judge_by_enclosure("y", f32({3}, {0.5f, 0.0f, NAN}), b).ok) << "NaN is no extended real";
}

TEST(EnclosureJudge, TypeShapeAndExactValuesMustMatch) {
  Bounds b = bounds_of({2}, {0.0, 0.0}, {1.0, 1.0});
  EXPECT_FALSE(judge_by_enclosure("y", f32({1, 2}, {0.5f, 0.5f}), b).ok);
  EXPECT_FALSE(judge_by_enclosure("y", Value(Tensor::from_vector<double>({2}, {0.5, 0.5})), b).ok);
  Bounds exact = Bounds::of(testing::i64({3, 4}));
  EXPECT_TRUE(judge_by_enclosure("s", Value(testing::i64({3, 4})), exact).ok);
  EXPECT_FALSE(judge_by_enclosure("s", Value(testing::i64({3, 5})), exact).ok);
}

}  // namespace
}  // namespace sonnx::enclose
