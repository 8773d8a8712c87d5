// The normalizations: BatchNormalization, InstanceNormalization, LayerNormalization,
// LpNormalization, LRN, MeanVarianceNormalization. Expected values are worked out by hand from the
// operator definitions.
#include <cmath>
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

// ---------------------------------------------------------------------------------------------
// Normalizations

TEST(BatchNormalizationOp, Inference) {
  // x (1, 2, 1, 2); channel 0: (x - 1) / 2 * 1 + 0, channel 1: (x - 3) / 1 * 2 + 1.
  auto out = run_op("BatchNormalization", 15,
                    {tensor<float>({1, 2, 1, 2}, {1, 2, 3, 4}), tensor<float>({2}, {1, 2}), tensor<float>({2}, {0, 1}),
                     tensor<float>({2}, {1, 3}), tensor<float>({2}, {4, 1})},
                    {attr_float("epsilon", 0)});
  expect_floats_near(out[0], {0, 0.5f, 1, 3});
}

TEST(BatchNormalizationOp, TrainingModeVersion15) {
  // One channel with values 1, 3: batch mean 2, population variance 1.
  auto out = run_op("BatchNormalization", 15,
                    {tensor<float>({2, 1}, {1, 3}), tensor<float>({1}, {1}), tensor<float>({1}, {0}), tensor<float>({1}, {0}),
                     tensor<float>({1}, {1})},
                    {attr_float("epsilon", 0), attr_int("training_mode", 1)}, 3);
  expect_floats_near(out[0], {-1, 1});
  expect_floats_near(out[1], {0.2f});  // 0 * 0.9 + 2 * 0.1
  expect_floats_near(out[2], {1.0f});  // 1 * 0.9 + 1 * 0.1
}

TEST(BatchNormalizationOp, ExtraOutputsWithoutTrainingTrap) {
  std::vector<Value> in = {tensor<float>({2, 1}, {1, 3}), tensor<float>({1}, {1}), tensor<float>({1}, {0}),
                           tensor<float>({1}, {0}), tensor<float>({1}, {1})};
  expect_trap([&] { run_op("BatchNormalization", 14, in, {}, 3); });
  expect_trap([&] { run_op("BatchNormalization", 6, in, {attr_int("is_test", 1)}, 5); });
}

TEST(BatchNormalizationOp, OldVersionsTrainWhenStatisticsAreRequested) {
  std::vector<Value> in = {tensor<float>({2, 1}, {1, 3}), tensor<float>({1}, {1}), tensor<float>({1}, {0}),
                           tensor<float>({1}, {0}), tensor<float>({1}, {1})};
  auto out = run_op("BatchNormalization", 7, in, {attr_float("epsilon", 0)}, 5);
  expect_floats_near(out[0], {-1, 1});
  expect_floats_near(out[1], {0.2f});
  expect_floats_near(out[2], {1.0f});
  expect_floats_near(out[3], {2.0f});
  expect_floats_near(out[4], {1.0f});
  // Y alone: test mode with the given statistics, (x - 0) / 1.
  expect_floats_near(run_op("BatchNormalization", 9, in, {attr_float("epsilon", 0)})[0], {1, 3});
}

TEST(BatchNormalizationOp, OneDimensionalInputHasOneChannel) {
  auto out = run_op("BatchNormalization", 9,
                    {tensor<float>({3}, {1, 2, 3}), tensor<float>({1}, {2}), tensor<float>({1}, {1}), tensor<float>({1}, {1}),
                     tensor<float>({1}, {4})},
                    {attr_float("epsilon", 0)});
  expect_floats_near(out[0], {1, 2, 3});  // 2 * (x - 1) / 2 + 1
}

TEST(BatchNormalizationOp, NonSpatialUsesPerActivationStatistics) {
  // x (1, 1, 2) with spatial=0: two features, parameters of C*D1 = 2 elements.
  std::vector<Value> in = {tensor<float>({1, 1, 2}, {1, 2}), tensor<float>({2}, {1, 1}), tensor<float>({2}, {0, 0}),
                           tensor<float>({2}, {1, 2}), tensor<float>({2}, {1, 1})};
  expect_floats_near(run_op("BatchNormalization", 7, in, {attr_float("epsilon", 0), attr_int("spatial", 0)})[0], {0, 0});
  // With spatial=1 the parameters must have C = 1 element.
  expect_trap([&] { run_op("BatchNormalization", 7, in, {attr_float("epsilon", 0)}); });
}

TEST(InstanceNormalizationOp, PerInstanceAndChannel) {
  // Channel 0 [1, 3]: mean 2, var 1 → [-1, 1]. Channel 1 [2, 6]: mean 4, var 4 → 2 * (x - 4) / 2 + 1.
  auto out = run_op("InstanceNormalization", 6,
                    {tensor<float>({1, 2, 2}, {1, 3, 2, 6}), tensor<float>({2}, {1, 2}), tensor<float>({2}, {0, 1})},
                    {attr_float("epsilon", 0)});
  expect_floats_near(out[0], {-1, 1, -1, 3});
}

TEST(LayerNormalizationOp, LastAxisWithStatistics) {
  // Row [1, 3]: mean 2, var 1, inv std 1/sqrt(1 + 1). Row [2, 2]: mean 2, var 0, inv std 1.
  auto out = run_op("LayerNormalization", 17, {tensor<float>({2, 2}, {1, 3, 2, 2}), tensor<float>({2}, {1, 1})},
                    {attr_float("epsilon", 1)}, 3);
  float r = 1 / std::sqrt(2.f);
  expect_floats_near(out[0], {-r, r, 0, 0});
  EXPECT_EQ(out[1].tensor.shape(), (Shape{2, 1}));
  expect_floats_near(out[1], {2, 2});
  expect_floats_near(out[2], {r, 1});
}

TEST(LayerNormalizationOp, AxisZeroScaleAndBiasBroadcast) {
  // All four elements: mean 2, var 0.5; epsilon 0.5 → inv std 1. Y = (x - 2) * [2, 3] + [1].
  auto out = run_op("LayerNormalization", 17,
                    {tensor<float>({2, 2}, {1, 3, 2, 2}), tensor<float>({2}, {2, 3}), tensor<float>({1}, {1})},
                    {attr_float("epsilon", 0.5f), attr_int("axis", 0)}, 3);
  expect_floats_near(out[0], {-1, 4, 1, 1});
  EXPECT_EQ(out[1].tensor.shape(), (Shape{1, 1}));
  expect_trap([] { run_op("LayerNormalization", 17, {tensor<float>({2, 2}, {1, 3, 2, 2}), tensor<float>({3}, {1, 1, 1})}); });
}

TEST(LpNormalizationOp, P1AndP2) {
  expect_floats_near(run_op("LpNormalization", 1, {tensor<float>({2}, {3, -4})})[0], {0.6f, -0.8f});
  expect_floats_near(run_op("LpNormalization", 1, {tensor<float>({2, 1}, {3, -4})}, {attr_int("p", 1), attr_int("axis", 0)})[0],
                     {3 / 7.f, -4 / 7.f});
  expect_trap([] { run_op("LpNormalization", 1, {tensor<float>({2}, {3, 4})}, {attr_int("p", 3)}); });
}

TEST(LpNormalizationOp, AZeroNormGivesZeros) {
  // "When the Lp norm is zero ... the output is defined to be zero" (versions 1 and 22): the line of
  // zeros stays zeros, the other line is normalized.
  for (int64_t version : {1, 22})
    for (int64_t p : {1, 2})
      expect_floats_near(run_op("LpNormalization", version, {tensor<float>({2, 2}, {0, 0, 3, -4})}, {attr_int("p", p)})[0],
                         p == 1 ? std::vector<float>{0, 0, 3 / 7.f, -4 / 7.f} : std::vector<float>{0, 0, 0.6f, -0.8f});
}

TEST(LrnOp, AsymmetricWindow) {
  // size 2: window [c, c + 1]. Square sums 1+4, 4+9, 9; Y = x / (1 + 2/2 * sum)^1.
  auto out = run_op("LRN", 13, {tensor<float>({1, 3, 1, 1}, {1, 2, 3})},
                    {attr_int("size", 2), attr_float("alpha", 2), attr_float("beta", 1), attr_float("bias", 1)});
  expect_floats_near(out[0], {1 / 6.f, 2 / 14.f, 3 / 10.f});
}

TEST(MeanVarianceNormalizationOp, PerChannel) {
  // Channel 0 [1, 3]: mean 2, std 1 → ±1. Channel 1 [5, 5]: std 0 → 0 / (0 + 1e-9) = 0.
  auto out = run_op("MeanVarianceNormalization", 13, {tensor<float>({1, 2, 1, 2}, {1, 3, 5, 5})});
  expect_floats_near(out[0], {-1, 1, 0, 0});
}

}  // namespace
}  // namespace sonnx::testing
