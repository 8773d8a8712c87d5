// The random operators (RandomUniform*, RandomNormal*, Bernoulli, Multinomial) and Dropout.
// Expected values are worked out by hand from the ONNX operator specs.
#include <limits>
#include <set>
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

// ---------------------------------------------------------------------------------------------
// Random
TEST(RandomOp, UniformShapeTypeRangeAndSeedDeterminism) {
  auto a = run_op("RandomUniform", 1, {},
                  {attr_ints("shape", {3, 4}), attr_float("low", -2), attr_float("high", -1), attr_float("seed", 3),
                   attr_int("dtype", 11)});
  EXPECT_EQ(a[0].tensor.dtype(), DType::Double);
  EXPECT_EQ(a[0].tensor.shape(), (Shape{3, 4}));
  for (double v : values_of<double>(a[0])) {
    EXPECT_GE(v, -2.0);
    EXPECT_LT(v, -1.0);
  }
  auto b = run_op("RandomUniform", 1, {},
                  {attr_ints("shape", {3, 4}), attr_float("low", -2), attr_float("high", -1), attr_float("seed", 3),
                   attr_int("dtype", 11)});
  EXPECT_EQ(values_of<double>(a[0]), values_of<double>(b[0]));
  std::set<double> distinct;
  for (double v : values_of<double>(a[0])) distinct.insert(v);
  EXPECT_GT(distinct.size(), 1u);
}

TEST(RandomOp, NormalLikeTakesShapeAndTypeFromInput) {
  auto out = run_op("RandomNormalLike", 1, {Value(Tensor(DType::Float16, {2, 0, 3}))}, {attr_float("mean", 5)});
  EXPECT_EQ(out[0].tensor.dtype(), DType::Float16);
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 0, 3}));
  expect_trap([] { run_op("RandomUniformLike", 1, {tensor<int32_t>({1}, {1})}); }, "not float16, float or double");
  auto typed = run_op("RandomUniformLike", 1, {tensor<int32_t>({2}, {1, 1})}, {attr_int("dtype", 1)});
  EXPECT_EQ(typed[0].tensor.dtype(), DType::Float);
}

TEST(RandomOp, NormalMeanIsRoughlyRight) {
  auto out = run_op("RandomNormal", 1, {}, {attr_ints("shape", {4000}), attr_float("mean", 3), attr_float("scale", 0.5f)});
  double sum = 0;
  for (float v : values_of<float>(out[0])) sum += v;
  // Standard error of the mean: 0.5 / sqrt(4000) ~ 0.008; allow 6 of them.
  EXPECT_NEAR(sum / 4000, 3.0, 0.05);
}

TEST(RandomOp, BernoulliCertainProbabilitiesAndDtype) {
  auto out = run_op("Bernoulli", 15, {tensor<double>({4}, {0, 1, 0, 1})}, {attr_int("dtype", 7)});
  EXPECT_EQ(out[0].tensor.dtype(), DType::Int64);
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{0, 1, 0, 1}));
  auto same_type = run_op("Bernoulli", 15, {tensor<float>({2}, {1, 0})});
  EXPECT_EQ(values_of<float>(same_type[0]), (std::vector<float>{1, 0}));
  expect_trap([] { run_op("Bernoulli", 15, {tensor<float>({1}, {1.5f})}); }, "outside [0, 1]");
  expect_trap([] { run_op("Bernoulli", 15, {tensor<float>({1}, {std::nanf("")})}); }, "outside [0, 1]");
}

TEST(RandomOp, MultinomialOnlyDrawsPossibleClasses) {
  float ninf = -std::numeric_limits<float>::infinity();
  auto out = run_op("Multinomial", 7, {tensor<float>({2, 3}, {ninf, 0, ninf, 0, ninf, ninf})},
                    {attr_int("sample_size", 5), attr_int("dtype", 7)});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 5}));
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{1, 1, 1, 1, 1, 0, 0, 0, 0, 0}));
  auto i32 = run_op("Multinomial", 7, {tensor<float>({1, 2}, {0, 0})});
  EXPECT_EQ(i32[0].tensor.dtype(), DType::Int32);
  EXPECT_EQ(i32[0].tensor.shape(), (Shape{1, 1}));
  expect_trap([&] { run_op("Multinomial", 7, {tensor<float>({1, 2}, {ninf, ninf})}); }, "no possible class");
}

// ---------------------------------------------------------------------------------------------
// Dropout

TEST(DropoutOp, InferenceIsIdentityWithTrueMask) {
  Value x = tensor<float>({3}, {-1, 0, 1});
  auto out = run_op("Dropout", 13, {x}, {}, 2);
  EXPECT_EQ(out[0].tensor, x.tensor);
  EXPECT_EQ(values_of<bool>(out[1]), (std::vector<bool>{true, true, true}));
  // Training with ratio 0 drops nothing.
  auto out2 = run_op("Dropout", 12, {x, tensor<float>({}, {0}), tensor<bool>({}, {true})}, {}, 2);
  EXPECT_EQ(out2[0].tensor, x.tensor);
  EXPECT_EQ(values_of<bool>(out2[1]), (std::vector<bool>{true, true, true}));
  // Version 10: identity, bool mask; version 7: the mask has the data type.
  EXPECT_EQ(run_op("Dropout", 10, {x}, {attr_float("ratio", 0.9f)}, 2)[1].tensor.dtype(), DType::Bool);
  auto out7 = run_op("Dropout", 7, {x}, {}, 2);
  EXPECT_EQ(out7[0].tensor, x.tensor);
  EXPECT_EQ(values_of<float>(out7[1]), (std::vector<float>{1, 1, 1}));
  // Version 6 in test mode.
  EXPECT_EQ(run_op("Dropout", 6, {x}, {attr_int("is_test", 1)})[0].tensor, x.tensor);
}

TEST(DropoutOp, TrainingDropsAndScales) {
  std::vector<float> ones(1000, 1.f);
  Value x = tensor<float>({1000}, ones);
  auto run = [&] {
    return run_op("Dropout", 13, {x, tensor<float>({}, {0.25f}), tensor<bool>({}, {true})}, {attr_int("seed", 7)}, 2);
  };
  auto out = run();
  auto y = values_of<float>(out[0]);
  auto mask = values_of<bool>(out[1]);
  int kept = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    if (mask[i]) {
      ++kept;
      EXPECT_NEAR(y[i], 1 / 0.75f, 1e-6f);
    } else {
      EXPECT_EQ(y[i], 0.f);
    }
  }
  // 750 expected; a binomial(1000, 0.75) lies within ±100 of it with overwhelming probability.
  EXPECT_GT(kept, 650);
  EXPECT_LT(kept, 850);
  // The seed makes it reproducible.
  EXPECT_EQ(run()[1].tensor, out[1].tensor);
}

TEST(DropoutOp, OldTrainingModeAndBadRatio) {
  std::vector<float> ones(100, 1.f);
  auto out = run_op("Dropout", 6, {tensor<float>({100}, ones)}, {attr_float("ratio", 0.5f)}, 2);
  auto y = values_of<float>(out[0]);
  auto mask = values_of<float>(out[1]);
  for (size_t i = 0; i < y.size(); ++i) EXPECT_EQ(y[i], mask[i] == 1.f ? 2.f : 0.f);
  expect_trap([] { run_op("Dropout", 13, {tensor<float>({1}, {1}), tensor<float>({}, {1.f}), tensor<bool>({}, {true})}); });
}

}  // namespace
}  // namespace sonnx::testing
