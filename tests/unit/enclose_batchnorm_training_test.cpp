// The enclosure of BatchNormalization-14 and -15 in training mode (enclose/enclose_batchnorm_training.cpp;
// spec/accuracy.md, "Admissible results"): the exact values of the text's formulas (MPFR at 256
// bits: the batch mean and population variance per channel over N and the spatial axes, y, and the
// running statistics input·momentum + batch·(1 − momentum), ε and momentum the attributes' float
// values) lie in the real enclosures of Y, running_mean and running_var; the reference's results in
// the admissible ones, which hold the real ones; a value 1000 float ulps (at the larger of the
// value's magnitude and 1) from the reference's lies outside.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "enclose_test_util.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_float;
using sonnx::testing::attr_int;

struct BnCase {
  int64_t opset = 15;
  Shape xs;
  float epsilon = 1e-5f, momentum = 0.9f;
  bool double_stats = false;  // input_mean and input_var (U) in double, X in float
};

Value bn_tensor(const Shape& s, const std::vector<float>& v, bool as_double) {
  if (!as_double) return floats(s, v);
  return Value(Tensor::from_vector<double>(s, std::vector<double>(v.begin(), v.end())));
}

void check_bn_training(const BnCase& t, std::mt19937& rng) {
  const int64_t rank = static_cast<int64_t>(t.xs.size()), C = rank == 1 ? 1 : t.xs[1];
  int64_t size = 1;
  for (int64_t d : t.xs) size *= d;
  const int64_t inner = size / (rank == 1 ? size : t.xs[0] * C);  // elements of one (n, c)
  // An offset mean makes the subtraction of the mean cancel a little.
  std::vector<float> x = uniform_floats(static_cast<size_t>(size), rng, -1.0f, 1.5f);
  std::vector<float> scale = uniform_floats(static_cast<size_t>(C), rng, 0.5f, 2.0f),
                     bias = uniform_floats(static_cast<size_t>(C), rng, -1.0f, 1.0f),
                     mean = uniform_floats(static_cast<size_t>(C), rng, -1.0f, 1.0f),
                     var = uniform_floats(static_cast<size_t>(C), rng, 0.5f, 2.0f);
  OneNodeModel m =
      one_node_model("BatchNormalization", t.opset,
                     {floats(t.xs, x), floats({C}, scale), floats({C}, bias), bn_tensor({C}, mean, t.double_stats),
                      bn_tensor({C}, var, t.double_stats)},
                     {attr_int("training_mode", 1), attr_float("epsilon", t.epsilon), attr_float("momentum", t.momentum)}, 3);
  auto channel = [&](int64_t i) { return rank == 1 ? 0 : (i / inner) % C; };
  // The formulas in MPFR.
  std::vector<Real256> bm(static_cast<size_t>(C)), bv(static_cast<size_t>(C)), count(static_cast<size_t>(C));
  for (int64_t i = 0; i < size; ++i) {
    auto c = static_cast<size_t>(channel(i));
    bm[c] = bm[c] + Real256(x[static_cast<size_t>(i)]);
    count[c] = count[c] + Real256(1);
  }
  for (int64_t c = 0; c < C; ++c) bm[static_cast<size_t>(c)] = bm[static_cast<size_t>(c)] / count[static_cast<size_t>(c)];
  for (int64_t i = 0; i < size; ++i) {
    auto c = static_cast<size_t>(channel(i));
    Real256 d = Real256(x[static_cast<size_t>(i)]) - bm[c];
    bv[c] = bv[c] + d * d;
  }
  for (int64_t c = 0; c < C; ++c) bv[static_cast<size_t>(c)] = bv[static_cast<size_t>(c)] / count[static_cast<size_t>(c)];
  std::vector<Real256> y(static_cast<size_t>(size)), rm(static_cast<size_t>(C)), rv(static_cast<size_t>(C));
  const Real256 eps(static_cast<double>(t.epsilon)), mom(static_cast<double>(t.momentum));
  for (int64_t i = 0; i < size; ++i) {
    auto c = static_cast<size_t>(channel(i));
    y[static_cast<size_t>(i)] = Real256(scale[c]) * (Real256(x[static_cast<size_t>(i)]) - bm[c]) / (bv[c] + eps).sqrt() +
                                Real256(bias[c]);
  }
  for (size_t c = 0; c < static_cast<size_t>(C); ++c) {
    rm[c] = Real256(mean[c]) * mom + bm[c] * (Real256(1) - mom);
    rv[c] = Real256(var[c]) * mom + bv[c] * (Real256(1) - mom);
  }
  std::map<std::string, Bounds> real = enclose_model(m.model, m.feed, Semantics::Real),
                                adm = enclose_model(m.model, m.feed, Semantics::Admissible);
  NamedValues ref = Interpreter(m.model).run(m.feed);
  const std::vector<Real256>* exact[] = {&y, &rm, &rv};
  for (size_t k = 0; k < 3; ++k) {
    const std::string name = "out" + std::to_string(k);
    SCOPED_TRACE(name);
    const Bounds &r = real.at(name), &a = adm.at(name);
    const Tensor& v = ref.at(name).tensor;
    ASSERT_EQ(r.lo.shape(), v.shape());
    ASSERT_EQ(a.lo.shape(), v.shape());
    EXPECT_EQ(a.type, v.dtype());
    for (int64_t i = 0; i < v.size(); ++i) {
      SCOPED_TRACE("element " + std::to_string(i));
      const Real256& e = (*exact[k])[static_cast<size_t>(i)];
      Interval ri = bound_at(r, i), ai = bound_at(a, i);
      EXPECT_TRUE(e.inside(ri)) << e.to_double() << " outside [" << ri.lo << ", " << ri.hi << "]";
      const double got = v.as_double(i);
      EXPECT_TRUE(ai.contains(got)) << got << " outside [" << ai.lo << ", " << ai.hi << "]";
      EXPECT_LE(ai.lo, ri.lo);
      EXPECT_GE(ai.hi, ri.hi);
      // 1000 float ulps at the larger of |got| and 1 (the outputs' scale: y is of the order of 1, and
      // one near 0 is enclosed to an absolute width, not a relative one).
      const double far = 1000 * float_ulp(std::max(std::fabs(got), 1.0));
      EXPECT_FALSE(ai.contains(got + far));
      EXPECT_FALSE(ai.contains(got - far));
    }
  }
}

TEST(EncloseBatchNormTraining, HoldsTheTextsFormulasForEveryOutput) {
  std::mt19937 rng(1415);
  for (int64_t opset : {14, 15})
    for (const Shape& xs : {Shape{2, 3, 2, 2}, Shape{4, 3}, Shape{3, 2, 5}, Shape{6}}) {
      SCOPED_TRACE("opset " + std::to_string(opset) + " X " + shape_str(xs));
      check_bn_training({opset, xs, 1e-5f, 0.9f, false}, rng);
      check_bn_training({opset, xs, 1e-2f, 0.3f, false}, rng);  // 1 − momentum rounds in float
    }
}

// Version 14 lets the statistics have their own type (U): the running statistics are double.
TEST(EncloseBatchNormTraining, RunningStatisticsOfAnotherType) {
  std::mt19937 rng(1416);
  check_bn_training({14, {2, 2, 3}, 1e-5f, 0.9f, true}, rng);
}

// Only Y requested (training_mode=1): the one output.
TEST(EncloseBatchNormTraining, OnlyY) {
  OneNodeModel m = one_node_model("BatchNormalization", 15,
                                  {floats({2, 1, 2}, {1, 2, 3, 4}), floats({1}, {1}), floats({1}, {0}), floats({1}, {0}),
                                   floats({1}, {1})},
                                  {attr_int("training_mode", 1), attr_float("epsilon", 0.0f)});
  // mean 2.5, variance 1.25: y = (x − 2.5)/√1.25, by hand.
  Bounds y = enclose_output(m, Semantics::Real);
  const double want[] = {-1.5 / std::sqrt(1.25), -0.5 / std::sqrt(1.25), 0.5 / std::sqrt(1.25), 1.5 / std::sqrt(1.25)};
  for (int64_t i = 0; i < 4; ++i) {
    Interval r = bound_at(y, i);
    EXPECT_TRUE(r.contains(want[i])) << want[i] << " outside [" << r.lo << ", " << r.hi << "]";
    EXPECT_LE(r.hi - r.lo, 1e-13);  // the body's steps in double, dependencies lost: tens of ulps of double
  }
}

}  // namespace
}  // namespace sonnx::enclose
