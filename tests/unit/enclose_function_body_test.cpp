// Enclosures through function bodies (spec/accuracy.md, "Admissible results", "Operators defined by a
// function body"): an operator version with a body and no enclosure of its own is enclosed by
// walking its body on its inputs' bounds. On small float inputs, for LayerNormalization, LogSoftmax,
// ReduceLogSumExp, Gelu (both approximations) and SoftmaxCrossEntropyLoss (a body calling bodies):
// (a) the body's value in exact arithmetic (MPFR at 256 bits, the body's float constants and casts
// included) lies in the real enclosure; (b) the reference kernel's float result lies in the
// admissible one, which holds the real one; (c) the admissible enclosure is no point and narrower
// than 10^4 ulps; (d) a value 1000 ulps of float from the reference's lies outside it.
//
// The bodies' steps need enclosures of their own: LayerNormalization's Reciprocal and
// NegativeLogLikelihoodLoss's GatherElements are in enclose_elementary_more.cpp and
// enclose_movement.cpp.
#include <gtest/gtest.h>

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
using sonnx::testing::attr_string;

// (a): every element's exact value in the real enclosure.
void expect_real_holds(const Bounds& real, const std::vector<Real256>& exact) {
  ASSERT_EQ(real.lo.size(), static_cast<int64_t>(exact.size()));
  for (size_t i = 0; i < exact.size(); ++i) {
    Interval e = bound_at(real, static_cast<int64_t>(i));
    EXPECT_TRUE(exact[i].inside(e)) << "element " << i << ": " << std::to_string(exact[i].to_double()) << " outside [" << e.lo
                                    << ", " << e.hi << "]";
  }
}

// (b), (c) and (d) for output k of the model.
void expect_admissible_fits_the_reference(const OneNodeModel& m, size_t k = 0) {
  Bounds adm = enclose_output(m, Semantics::Admissible, k), real = enclose_output(m, Semantics::Real, k);
  Tensor ref = reference_output(m, k);
  ASSERT_EQ(adm.lo.size(), ref.size());
  EXPECT_LT(widest_in_ulps(adm), 1e4);
  for (int64_t i = 0; i < ref.size(); ++i) {
    SCOPED_TRACE("element " + std::to_string(i));
    Interval a = bound_at(adm, i), r = bound_at(real, i);
    double x = ref.as_double(i);
    EXPECT_TRUE(a.contains(x)) << x << " outside [" << a.lo << ", " << a.hi << "]";
    EXPECT_LE(a.lo, r.lo);
    EXPECT_GE(a.hi, r.hi);
    EXPECT_LT(a.lo, a.hi) << "a point: no step's rounding widened it";
    EXPECT_FALSE(a.contains(x + 1000 * float_ulp(x)));
    EXPECT_FALSE(a.contains(x - 1000 * float_ulp(x)));
  }
}

// ---- LayerNormalization ----

// Each row of X (the last axis) standardised in exact arithmetic, ε the float 1e-5, rounded to
// float as the body's cast back to X's type rounds it, then times Scale plus B.
std::vector<Real256> exact_layer_norm(const std::vector<float>& x, size_t cols, const std::vector<float>& scale,
                                      const std::vector<float>& bias) {
  std::vector<Real256> y;
  const Real256 n(static_cast<double>(cols)), eps(static_cast<double>(1e-5f));
  for (size_t row = 0; row < x.size() / cols; ++row) {
    Real256 mean;
    for (size_t j = 0; j < cols; ++j) mean = mean + x[row * cols + j];
    mean = mean / n;
    Real256 var;
    for (size_t j = 0; j < cols; ++j) {
      Real256 d = Real256(x[row * cols + j]) - mean;
      var = var + d * d;
    }
    Real256 inv = Real256(1) / (var / n + eps).sqrt();
    for (size_t j = 0; j < cols; ++j) {
      float normalized = ((Real256(x[row * cols + j]) - mean) * inv).to_float();
      Real256 v = Real256(normalized) * scale[j];
      y.push_back(bias.empty() ? v : v + bias[j]);
    }
  }
  return y;
}

TEST(EncloseFunctionBody, LayerNormalizationThroughItsBody) {
  const std::vector<float> x = {1, 2, 4, 8, -1.5f, 0.5f, 3, -2.25f}, scale = {1, 0.5f, 2, -1.25f},
                           bias = {0.125f, -0.5f, 1, 0.25f};
  for (bool with_bias : {true, false}) {
    SCOPED_TRACE(with_bias ? "with B" : "without B");
    OneNodeModel m = one_node_model("LayerNormalization", 17,
                                    {floats({2, 4}, x), floats({4}, scale), with_bias ? floats({4}, bias) : Value()});
    expect_real_holds(enclose_output(m), exact_layer_norm(x, 4, scale, with_bias ? bias : std::vector<float>{}));
    expect_admissible_fits_the_reference(m);
  }
}

// ---- LogSoftmax and ReduceLogSumExp ----

const std::vector<float> kRows = {0.5f, -1.25f, 2, 0.75f, -3, 1.5f, 1, -0.5f, 0.25f, 2.5f};  // 2 rows of 5

Real256 exact_log_sum_exp(const std::vector<float>& x, size_t row, size_t cols) {
  Real256 s;
  for (size_t j = 0; j < cols; ++j) s = s + Real256(x[row * cols + j]).exp();
  return s.log();
}

TEST(EncloseFunctionBody, LogSoftmaxThroughItsBody) {
  OneNodeModel m = one_node_model("LogSoftmax", 13, {floats({2, 5}, kRows)});
  std::vector<Real256> exact;
  for (size_t row = 0; row < 2; ++row) {
    Real256 lse = exact_log_sum_exp(kRows, row, 5);
    for (size_t j = 0; j < 5; ++j) exact.push_back(Real256(kRows[row * 5 + j]) - lse);
  }
  expect_real_holds(enclose_output(m), exact);
  expect_admissible_fits_the_reference(m);
}

TEST(EncloseFunctionBody, ReduceLogSumExpThroughItsBody) {
  OneNodeModel m = one_node_model("ReduceLogSumExp", 18, {floats({2, 5}, kRows), Value(Tensor::from_vector<int64_t>({1}, {1}))},
                                  {attr_int("keepdims", 0)});
  expect_real_holds(enclose_output(m), {exact_log_sum_exp(kRows, 0, 5), exact_log_sum_exp(kRows, 1, 5)});
  expect_admissible_fits_the_reference(m);
}

// ---- Gelu ----

// Away from x ≈ −3, where 1 + erf(x/√2) cancels and the admissible enclosure spans thousands of ulps.
const std::vector<float> kGeluX = {-1.5f, -0.5f, -0.125f, 0.25f, 0.75f, 1.5f, 3};

TEST(EncloseFunctionBody, GeluWithoutApproximationThroughItsBody) {
  OneNodeModel m = one_node_model("Gelu", 20, {floats({7}, kGeluX)});
  const Real256 c(static_cast<double>(0.70710678118654752f)), half(0.5), one(1);  // the body's float constant
  std::vector<Real256> exact;
  for (float x : kGeluX) exact.push_back(half * x * (one + (Real256(x) * c).erf()));
  expect_real_holds(enclose_output(m), exact);
  expect_admissible_fits_the_reference(m);
}

TEST(EncloseFunctionBody, GeluTanhApproximationThroughItsBody) {
  OneNodeModel m = one_node_model("Gelu", 20, {floats({7}, kGeluX)}, {attr_string("approximate", "tanh")});
  const Real256 k(static_cast<double>(0.79788456080286536f)), c(static_cast<double>(0.044715f)), half(0.5), one(1);
  std::vector<Real256> exact;
  for (float x : kGeluX) {
    Real256 bx(x);
    exact.push_back(half * bx * (one + (k * (bx + c * (bx * bx * bx))).tanh()));
  }
  expect_real_holds(enclose_output(m), exact);
  expect_admissible_fits_the_reference(m);
}

// ---- SoftmaxCrossEntropyLoss: LogSoftmax and NegativeLogLikelihoodLoss, each through its body ----

TEST(EncloseFunctionBody, SoftmaxCrossEntropyLossThroughNestedBodies) {
  const std::vector<float> scores = {0.5f, -1.25f, 2, 0.75f, -3, 1.5f, 1, -0.5f, 0.25f, 2.5f, -2, 1.25f};  // 3 × 4
  const std::vector<int64_t> labels = {2, 0, 3};
  std::vector<Real256> losses;  // −log_prob[n, label n]
  Real256 total;
  for (size_t n = 0; n < 3; ++n) {
    losses.push_back(exact_log_sum_exp(scores, n, 4) - scores[n * 4 + static_cast<size_t>(labels[n])]);
    total = total + losses.back();
  }
  for (const char* reduction : {"mean", "none"}) {
    SCOPED_TRACE(reduction);
    OneNodeModel m = one_node_model("SoftmaxCrossEntropyLoss", 13,
                                    {floats({3, 4}, scores), Value(Tensor::from_vector<int64_t>({3}, labels))},
                                    {attr_string("reduction", reduction)});
    if (std::string(reduction) == "mean") expect_real_holds(enclose_output(m), {total / Real256(3)});
    else expect_real_holds(enclose_output(m), losses);
    expect_admissible_fits_the_reference(m);
  }
}

// ---- bounds that are not points: the body's inputs given as intervals ----

// LogSoftmax of X known only within ±2^-10 of each element: the exact value at any X in the box
// lies in the real enclosure (enclose_graph, the walk enclose_model makes, given the bounds).
TEST(EncloseFunctionBody, ABodyWalksIntervalInputs) {
  OneNodeModel m = one_node_model("LogSoftmax", 13, {floats({2, 5}, kRows)});
  const double r = std::ldexp(1.0, -10);
  Bounds x{DType::Float, Tensor(DType::Double, {2, 5}), Tensor(DType::Double, {2, 5})};
  for (int64_t i = 0; i < 10; ++i) {
    x.lo.data<double>()[i] = static_cast<double>(kRows[static_cast<size_t>(i)]) - r;
    x.hi.data<double>()[i] = static_cast<double>(kRows[static_cast<size_t>(i)]) + r;
  }
  Bounds y = enclose_graph(m.model, m.model.graph, {{"in0", x}}, Semantics::Real).at("out0");
  std::mt19937 rng(37);
  std::uniform_real_distribution<double> offset(-r, r);
  for (int t = 0; t < 20; ++t) {
    std::vector<float> point(kRows);
    for (size_t i = 0; i < point.size(); ++i)  // corners and points inside
      point[i] = static_cast<float>(static_cast<double>(kRows[i]) + (t < 2 ? (t ? r : -r) : offset(rng)));
    std::vector<Real256> exact;
    for (size_t row = 0; row < 2; ++row) {
      Real256 lse = exact_log_sum_exp(point, row, 5);
      for (size_t j = 0; j < 5; ++j) exact.push_back(Real256(point[row * 5 + j]) - lse);
    }
    expect_real_holds(y, exact);
  }
  EXPECT_GT(widest_in_ulps(y), 1000) << "the inputs' width is carried through";
}

// ---- refusals inside a body ----

// Bernoulli's body samples: its RandomUniformLike has no enclosure, named first, then the body.
TEST(EncloseFunctionBody, ARefusalInsideABodyNamesTheInnerOperatorThenTheBody) {
  OneNodeModel m = one_node_model("Bernoulli", 15, {floats({3}, {0.25f, 0.5f, 0.75f})});
  try {
    enclose_output(m);
    ADD_FAILURE() << "enclosed a random operator";
  } catch (const Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("no enclosure for RandomUniformLike-1, in the body of Bernoulli-15"), std::string::npos)
        << e.what();
  }
}

// AffineGrid's body chooses its 2-D or 3-D grid by an If: control flow stays refused.
TEST(EncloseFunctionBody, AffineGridThroughTheIfOfItsBody) {
  // Its body picks the 2-D or 3-D branch by the size's length, known exactly: the branch taken is
  // enclosed. θ = [[1, 0, 0.5], [0, 1, −0.25]], size (1, 1, 2, 3), align_corners 0: the base grid
  // is x_w = (2w + 1)/3 − 1, y_h = (2h + 1)/2 − 1, and grid[h][w] = (x_w + 0.5, y_h − 0.25).
  OneNodeModel m = one_node_model("AffineGrid", 20,
                                  {floats({1, 2, 3}, {1, 0, 0.5f, 0, 1, -0.25f}),
                                   Value(Tensor::from_vector<int64_t>({4}, {1, 1, 2, 3}))},
                                  {attr_int("align_corners", 0)});
  std::vector<Real256> exact;
  for (int h = 0; h < 2; ++h)
    for (int w = 0; w < 3; ++w) {
      exact.push_back(Real256(2 * w + 1) / Real256(3) - Real256(0.5));
      exact.push_back(Real256(2 * h + 1) / Real256(2) - Real256(1.25));
    }
  expect_real_holds(enclose_output(m, Semantics::Real), exact);
  Bounds adm = enclose_output(m, Semantics::Admissible);
  Tensor ref = reference_output(m);
  ASSERT_EQ(adm.lo.size(), ref.size());
  for (int64_t i = 0; i < ref.size(); ++i) {
    Interval a = bound_at(adm, i);
    EXPECT_TRUE(a.contains(ref.as_double(i)))
        << "element " << i << ": " << ref.as_double(i) << " outside [" << a.lo << ", " << a.hi << "]";
  }
}

}  // namespace
}  // namespace sonnx::enclose
