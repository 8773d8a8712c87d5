// Tests of the reduction, arg-extreme, softmax, normalization, dropout, loss and Det operators
// (helper group "c"). Expected values are worked out by hand from the operator definitions.
#include <cmath>
#include <limits>

#include "op_test_util.h"

namespace sonnx::testing {
namespace {
const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

void expect_floats_near(const Value& v, const std::vector<float>& want, float tol = 1e-6f) {
  auto got = values_of<float>(v);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    if (std::isnan(want[i])) EXPECT_TRUE(std::isnan(got[i])) << "element " << i;
    else if (std::isinf(want[i])) EXPECT_EQ(got[i], want[i]) << "element " << i;
    else EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
  }
}

template <class F>
void expect_trap(F f) {
  try {
    f();
    ADD_FAILURE() << "expected a trap";
  } catch (const Trap&) {
  }
}

// The [3, 2, 2] example of the ReduceSum documentation: 1..12.
Value example_3x2x2() { return tensor<float>({3, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}); }
}  // namespace

// ---------------------------------------------------------------------------------------------
// Reductions

TEST(ReduceOpsC, SumAxesInputNoKeepdims) {
  auto out = run_op("ReduceSum", 13, {example_3x2x2(), tensor<int64_t>({1}, {1})}, {attr_int("keepdims", 0)});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{3, 2}));
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{4, 6, 12, 14, 20, 22}));
}

TEST(ReduceOpsC, SumEmptyAxesInputReducesAll) {
  auto out = run_op("ReduceSum", 13, {example_3x2x2(), tensor<int64_t>({0}, {})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1, 1}));
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{78}));
}

TEST(ReduceOpsC, SumNoopWithEmptyAxes) {
  auto out = run_op("ReduceSum", 13, {example_3x2x2(), tensor<int64_t>({0}, {})}, {attr_int("noop_with_empty_axes", 1)});
  EXPECT_EQ(out[0].tensor, example_3x2x2().tensor);
  auto out2 = run_op("ReduceSum", 13, {example_3x2x2()}, {attr_int("noop_with_empty_axes", 1)});
  EXPECT_EQ(out2[0].tensor, example_3x2x2().tensor);
}

TEST(ReduceOpsC, SumAttributeNegativeAxis) {
  auto out = run_op("ReduceSum", 11, {example_3x2x2()}, {attr_ints("axes", {-1})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{3, 2, 1}));
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{3, 7, 11, 15, 19, 23}));
}

TEST(ReduceOpsC, SumOfScalarIsTheScalar) {
  auto out = run_op("ReduceSum", 1, {tensor<float>({}, {5})});
  EXPECT_EQ(out[0].tensor.shape(), Shape{});
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{5}));
}

TEST(ReduceOpsC, RepeatedAxisTraps) {
  expect_trap([] { run_op("ReduceMean", 13, {example_3x2x2()}, {attr_ints("axes", {1, -2})}); });
}

TEST(ReduceOpsC, OutOfRangeAxisTraps) {
  expect_trap([] { run_op("ReduceMax", 13, {example_3x2x2()}, {attr_ints("axes", {3})}); });
}

TEST(ReduceOpsC, IntegerSumWraps) {
  auto out = run_op("ReduceSum", 11, {tensor<int32_t>({2}, {std::numeric_limits<int32_t>::max(), 1})});
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{std::numeric_limits<int32_t>::min()}));
}

TEST(ReduceOpsC, IntegerSumSquareWraps) {
  // 16^2 = 256 ≡ 0 and 12^2 = 144 ≡ -112 (mod 256) as int8.
  auto out = run_op("ReduceSumSquare", 13, {tensor<int8_t>({2, 1}, {16, 12})}, {attr_ints("axes", {1})});
  EXPECT_EQ(values_of<int8_t>(out[0]), (std::vector<int8_t>{0, -112}));
}

TEST(ReduceOpsC, IntegerMeanTruncatesTowardZero) {
  auto out = run_op("ReduceMean", 13, {tensor<int32_t>({2, 2}, {-3, -4, 7, 8})}, {attr_ints("axes", {1})});
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{-3, 7}));
  // The exact mean does not overflow even when the sum would.
  int64_t big = std::numeric_limits<int64_t>::max();
  auto out2 = run_op("ReduceMean", 13, {tensor<int64_t>({2}, {big, big - 2})});
  EXPECT_EQ(values_of<int64_t>(out2[0]), (std::vector<int64_t>{big - 1}));
}

TEST(ReduceOpsC, EmptyReductionsGiveIdentityElements) {
  Value empty_f = tensor<float>({2, 0}, {});
  auto axes = std::vector<onnx::AttributeProto>{attr_ints("axes", {1})};
  expect_floats_near(run_op("ReduceSum", 13, {empty_f, tensor<int64_t>({1}, {1})})[0], {0, 0});
  expect_floats_near(run_op("ReduceMax", 13, {empty_f}, axes)[0], {-kInf, -kInf});
  expect_floats_near(run_op("ReduceMin", 13, {empty_f}, axes)[0], {kInf, kInf});
  expect_floats_near(run_op("ReduceProd", 13, {empty_f}, axes)[0], {1, 1});
  expect_floats_near(run_op("ReduceL1", 13, {empty_f}, axes)[0], {0, 0});
  expect_floats_near(run_op("ReduceL2", 13, {empty_f}, axes)[0], {0, 0});
  expect_floats_near(run_op("ReduceSumSquare", 13, {empty_f}, axes)[0], {0, 0});
  expect_floats_near(run_op("ReduceLogSum", 13, {empty_f}, axes)[0], {-kInf, -kInf});
  expect_floats_near(run_op("ReduceLogSumExp", 13, {empty_f}, axes)[0], {-kInf, -kInf});
  expect_floats_near(run_op("ReduceMean", 13, {empty_f}, axes)[0], {kNaN, kNaN});
  auto out = run_op("ReduceMax", 13, {empty_f}, axes);
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 1}));

  Value empty_i = tensor<int32_t>({2, 0}, {});
  EXPECT_EQ(values_of<int32_t>(run_op("ReduceMax", 13, {empty_i}, axes)[0]),
            (std::vector<int32_t>(2, std::numeric_limits<int32_t>::lowest())));
  EXPECT_EQ(values_of<int32_t>(run_op("ReduceMin", 13, {empty_i}, axes)[0]),
            (std::vector<int32_t>(2, std::numeric_limits<int32_t>::max())));
  EXPECT_EQ(values_of<int32_t>(run_op("ReduceProd", 13, {empty_i}, axes)[0]), (std::vector<int32_t>{1, 1}));
  expect_trap([&] { run_op("ReduceMean", 13, {empty_i}, axes); });
}

TEST(ReduceOpsC, MaxAndMinPropagateNaN) {
  expect_floats_near(run_op("ReduceMax", 13, {tensor<float>({3}, {1, kNaN, 3})})[0], {kNaN});
  expect_floats_near(run_op("ReduceMin", 13, {tensor<float>({3}, {1, kNaN, 3})})[0], {kNaN});
}

TEST(ReduceOpsC, Norms) {
  Value x = tensor<float>({2}, {3, -4});
  expect_floats_near(run_op("ReduceL1", 13, {x})[0], {7});
  expect_floats_near(run_op("ReduceL2", 13, {x})[0], {5});
  expect_floats_near(run_op("ReduceSumSquare", 13, {x})[0], {25});
  expect_floats_near(run_op("ReduceProd", 13, {x})[0], {-12});
  expect_floats_near(run_op("ReduceMean", 13, {x})[0], {-0.5f});
  expect_floats_near(run_op("ReduceMin", 13, {x})[0], {-4});
  expect_floats_near(run_op("ReduceLogSum", 13, {tensor<float>({2}, {1, 2})})[0], {std::log(3.0f)});
}

TEST(ReduceOpsC, LogSumExpDoesNotOverflow) {
  auto out = run_op("ReduceLogSumExp", 13, {tensor<double>({2}, {1000, 1000})}, {attr_int("keepdims", 0)});
  EXPECT_EQ(out[0].tensor.shape(), Shape{});
  EXPECT_NEAR(values_of<double>(out[0])[0], 1000 + std::log(2.0), 1e-12);
  expect_floats_near(run_op("ReduceLogSumExp", 13, {tensor<float>({2}, {-kInf, -kInf})})[0], {-kInf});
  expect_floats_near(run_op("ReduceLogSumExp", 13, {tensor<float>({2}, {kInf, 0})})[0], {kInf});
}

TEST(ReduceOpsC, Float16SumIsComputedInDoubleAndRoundedOnce) {
  // 2048 + 1 + 1 = 2050 is representable in float16; accumulating in float16 would give 2048.
  auto out = run_op("ReduceSum", 13, {tensor<float16_t>({3}, {float16_t(2048.f), float16_t(1.f), float16_t(1.f)})});
  EXPECT_EQ(static_cast<float>(values_of<float16_t>(out[0])[0]), 2050.f);
  // 1 + 2^-11 + 2^-24 lies just above the float16 tie between 1 and 1 + 2^-10, so it rounds up.
  // (Rounding to float first would land exactly on the tie and then round to even, 1.)
  auto out2 = run_op("ReduceSum", 13,
                     {tensor<float16_t>({3}, {float16_t(1.f), float16_t(std::ldexp(1.f, -11)), float16_t(std::ldexp(1.f, -24))})});
  EXPECT_EQ(static_cast<float>(values_of<float16_t>(out2[0])[0]), 1.f + std::ldexp(1.f, -10));
}

// ---------------------------------------------------------------------------------------------
// ArgMax / ArgMin

TEST(ArgOpsC, AxisAndKeepdims) {
  Value x = tensor<float>({2, 2}, {2, 1, 3, 10});
  auto out = run_op("ArgMax", 13, {x});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 2}));
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{1, 1}));
  auto out2 = run_op("ArgMax", 13, {x}, {attr_int("axis", -1), attr_int("keepdims", 0)});
  EXPECT_EQ(out2[0].tensor.shape(), (Shape{2}));
  EXPECT_EQ(values_of<int64_t>(out2[0]), (std::vector<int64_t>{0, 1}));
  auto out3 = run_op("ArgMin", 1, {x}, {attr_int("axis", 1)});
  EXPECT_EQ(values_of<int64_t>(out3[0]), (std::vector<int64_t>{1, 0}));
}

TEST(ArgOpsC, SelectLastIndex) {
  Value x = tensor<int32_t>({2, 3}, {5, 1, 5, 0, 0, 7});
  EXPECT_EQ(values_of<int64_t>(run_op("ArgMax", 12, {x}, {attr_int("axis", 1)})[0]), (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(values_of<int64_t>(run_op("ArgMax", 12, {x}, {attr_int("axis", 1), attr_int("select_last_index", 1)})[0]),
            (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values_of<int64_t>(run_op("ArgMin", 13, {x}, {attr_int("axis", 1), attr_int("select_last_index", 1)})[0]),
            (std::vector<int64_t>{1, 1}));
}

TEST(ArgOpsC, NaNIsTheExtreme) {
  Value x = tensor<float>({4}, {1, kNaN, 3, kNaN});
  EXPECT_EQ(values_of<int64_t>(run_op("ArgMax", 13, {x})[0]), (std::vector<int64_t>{1}));
  EXPECT_EQ(values_of<int64_t>(run_op("ArgMin", 13, {x})[0]), (std::vector<int64_t>{1}));
  EXPECT_EQ(values_of<int64_t>(run_op("ArgMax", 13, {x}, {attr_int("select_last_index", 1)})[0]), (std::vector<int64_t>{3}));
}

TEST(ArgOpsC, EmptyAxis) {
  expect_trap([] { run_op("ArgMax", 13, {tensor<float>({0}, {})}); });
  // No output element needs an index: fine.
  auto out = run_op("ArgMax", 13, {tensor<float>({0, 3}, {})}, {attr_int("axis", 1)});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{0, 1}));
}

// ---------------------------------------------------------------------------------------------
// Softmax family

namespace {
// exp() of these gives [[1, 2], [3, 4]].
Value log_1234() { return tensor<float>({2, 2}, {0.f, std::log(2.f), std::log(3.f), std::log(4.f)}); }
}  // namespace

TEST(SoftmaxOpsC, Basic) {
  expect_floats_near(run_op("Softmax", 13, {tensor<float>({1, 3}, {-1, 0, 1})})[0], {0.09003057f, 0.24472847f, 0.66524096f});
  expect_floats_near(run_op("Softmax", 13, {tensor<float>({2}, {1000, 1000})})[0], {0.5f, 0.5f});
}

TEST(SoftmaxOpsC, CoercedTo2DBeforeVersion13) {
  // Version 11, axis 0: one row of all four elements.
  expect_floats_near(run_op("Softmax", 11, {log_1234()}, {attr_int("axis", 0)})[0], {0.1f, 0.2f, 0.3f, 0.4f});
  // Version 11, default axis 1: rows [1, 2] and [3, 4].
  expect_floats_near(run_op("Softmax", 1, {log_1234()})[0], {1 / 3.f, 2 / 3.f, 3 / 7.f, 4 / 7.f});
  // Version 13, axis 0: columns [1, 3] and [2, 4].
  expect_floats_near(run_op("Softmax", 13, {log_1234()}, {attr_int("axis", 0)})[0], {0.25f, 2 / 6.f, 0.75f, 4 / 6.f});
}

TEST(SoftmaxOpsC, LogSoftmax) {
  expect_floats_near(run_op("LogSoftmax", 13, {log_1234()})[0],
                     {std::log(1 / 3.f), std::log(2 / 3.f), std::log(3 / 7.f), std::log(4 / 7.f)}, 1e-6f);
  expect_floats_near(run_op("LogSoftmax", 11, {log_1234()}, {attr_int("axis", -2)})[0],
                     {std::log(0.1f), std::log(0.2f), std::log(0.3f), std::log(0.4f)}, 1e-6f);
}

TEST(SoftmaxOpsC, HardmaxCoercedVersusSingleAxis) {
  Value x = tensor<float>({2, 2, 2}, {1, 2, 3, 4, 8, 7, 6, 5});
  // Version 11, axis 1: rows of 4 ([1,2,3,4] and [8,7,6,5]), one 1 per row.
  EXPECT_EQ(values_of<float>(run_op("Hardmax", 11, {x})[0]), (std::vector<float>{0, 0, 0, 1, 1, 0, 0, 0}));
  // Version 13, axis 1: one 1 per (n, i) line along dim 1.
  EXPECT_EQ(values_of<float>(run_op("Hardmax", 13, {x}, {attr_int("axis", 1)})[0]), (std::vector<float>{0, 0, 1, 1, 1, 1, 0, 0}));
  // Ties: the first maximum.
  EXPECT_EQ(values_of<float>(run_op("Hardmax", 13, {tensor<float>({4}, {3, 3, 3, 1})})[0]), (std::vector<float>{1, 0, 0, 0}));
}

TEST(SoftmaxOpsC, NaNRowAndShapes) {
  expect_floats_near(run_op("Softmax", 13, {tensor<float>({2}, {kNaN, 1})})[0], {kNaN, kNaN});
  auto out = run_op("Softmax", 13, {tensor<float>({0, 3}, {})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{0, 3}));
  expect_trap([] { run_op("Softmax", 13, {tensor<float>({}, {1})}); });
}

// ---------------------------------------------------------------------------------------------
// Normalizations

TEST(BatchNormOpsC, Inference) {
  // x (1, 2, 1, 2); channel 0: (x - 1) / 2 * 1 + 0, channel 1: (x - 3) / 1 * 2 + 1.
  auto out = run_op("BatchNormalization", 15,
                    {tensor<float>({1, 2, 1, 2}, {1, 2, 3, 4}), tensor<float>({2}, {1, 2}), tensor<float>({2}, {0, 1}),
                     tensor<float>({2}, {1, 3}), tensor<float>({2}, {4, 1})},
                    {attr_float("epsilon", 0)});
  expect_floats_near(out[0], {0, 0.5f, 1, 3});
}

TEST(BatchNormOpsC, TrainingModeVersion15) {
  // One channel with values 1, 3: batch mean 2, population variance 1.
  auto out = run_op("BatchNormalization", 15,
                    {tensor<float>({2, 1}, {1, 3}), tensor<float>({1}, {1}), tensor<float>({1}, {0}),
                     tensor<float>({1}, {0}), tensor<float>({1}, {1})},
                    {attr_float("epsilon", 0), attr_int("training_mode", 1)}, 3);
  expect_floats_near(out[0], {-1, 1});
  expect_floats_near(out[1], {0.2f});  // 0 * 0.9 + 2 * 0.1
  expect_floats_near(out[2], {1.0f});  // 1 * 0.9 + 1 * 0.1
}

TEST(BatchNormOpsC, ExtraOutputsWithoutTrainingTrap) {
  std::vector<Value> in = {tensor<float>({2, 1}, {1, 3}), tensor<float>({1}, {1}), tensor<float>({1}, {0}),
                           tensor<float>({1}, {0}), tensor<float>({1}, {1})};
  expect_trap([&] { run_op("BatchNormalization", 14, in, {}, 3); });
  expect_trap([&] { run_op("BatchNormalization", 6, in, {attr_int("is_test", 1)}, 5); });
}

TEST(BatchNormOpsC, OldVersionsTrainWhenStatisticsAreRequested) {
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

TEST(BatchNormOpsC, OneDimensionalInputHasOneChannel) {
  auto out = run_op("BatchNormalization", 9,
                    {tensor<float>({3}, {1, 2, 3}), tensor<float>({1}, {2}), tensor<float>({1}, {1}),
                     tensor<float>({1}, {1}), tensor<float>({1}, {4})},
                    {attr_float("epsilon", 0)});
  expect_floats_near(out[0], {1, 2, 3});  // 2 * (x - 1) / 2 + 1
}

TEST(BatchNormOpsC, NonSpatialUsesPerActivationStatistics) {
  // x (1, 1, 2) with spatial=0: two features, parameters of C*D1 = 2 elements.
  std::vector<Value> in = {tensor<float>({1, 1, 2}, {1, 2}), tensor<float>({2}, {1, 1}), tensor<float>({2}, {0, 0}),
                           tensor<float>({2}, {1, 2}), tensor<float>({2}, {1, 1})};
  expect_floats_near(run_op("BatchNormalization", 7, in, {attr_float("epsilon", 0), attr_int("spatial", 0)})[0], {0, 0});
  // With spatial=1 the parameters must have C = 1 element.
  expect_trap([&] { run_op("BatchNormalization", 7, in, {attr_float("epsilon", 0)}); });
}

TEST(InstanceNormOpsC, PerInstanceAndChannel) {
  // Channel 0 [1, 3]: mean 2, var 1 → [-1, 1]. Channel 1 [2, 6]: mean 4, var 4 → 2 * (x - 4) / 2 + 1.
  auto out = run_op("InstanceNormalization", 6,
                    {tensor<float>({1, 2, 2}, {1, 3, 2, 6}), tensor<float>({2}, {1, 2}), tensor<float>({2}, {0, 1})},
                    {attr_float("epsilon", 0)});
  expect_floats_near(out[0], {-1, 1, -1, 3});
}

TEST(LayerNormOpsC, LastAxisWithStatistics) {
  // Row [1, 3]: mean 2, var 1, inv std 1/sqrt(1 + 1). Row [2, 2]: mean 2, var 0, inv std 1.
  auto out = run_op("LayerNormalization", 17, {tensor<float>({2, 2}, {1, 3, 2, 2}), tensor<float>({2}, {1, 1})},
                    {attr_float("epsilon", 1)}, 3);
  float r = 1 / std::sqrt(2.f);
  expect_floats_near(out[0], {-r, r, 0, 0});
  EXPECT_EQ(out[1].tensor.shape(), (Shape{2, 1}));
  expect_floats_near(out[1], {2, 2});
  expect_floats_near(out[2], {r, 1});
}

TEST(LayerNormOpsC, AxisZeroScaleAndBiasBroadcast) {
  // All four elements: mean 2, var 0.5; epsilon 0.5 → inv std 1. Y = (x - 2) * [2, 3] + [1].
  auto out = run_op("LayerNormalization", 17,
                    {tensor<float>({2, 2}, {1, 3, 2, 2}), tensor<float>({2}, {2, 3}), tensor<float>({1}, {1})},
                    {attr_float("epsilon", 0.5f), attr_int("axis", 0)}, 3);
  expect_floats_near(out[0], {-1, 4, 1, 1});
  EXPECT_EQ(out[1].tensor.shape(), (Shape{1, 1}));
  expect_trap([] {
    run_op("LayerNormalization", 17, {tensor<float>({2, 2}, {1, 3, 2, 2}), tensor<float>({3}, {1, 1, 1})});
  });
}

TEST(LpNormOpsC, P1AndP2) {
  expect_floats_near(run_op("LpNormalization", 1, {tensor<float>({2}, {3, -4})})[0], {0.6f, -0.8f});
  expect_floats_near(run_op("LpNormalization", 1, {tensor<float>({2, 1}, {3, -4})}, {attr_int("p", 1), attr_int("axis", 0)})[0],
                     {3 / 7.f, -4 / 7.f});
  expect_trap([] { run_op("LpNormalization", 1, {tensor<float>({2}, {3, 4})}, {attr_int("p", 3)}); });
}

TEST(LRNOpsC, AsymmetricWindow) {
  // size 2: window [c, c + 1]. Square sums 1+4, 4+9, 9; Y = x / (1 + 2/2 * sum)^1.
  auto out = run_op("LRN", 13, {tensor<float>({1, 3, 1, 1}, {1, 2, 3})},
                    {attr_int("size", 2), attr_float("alpha", 2), attr_float("beta", 1), attr_float("bias", 1)});
  expect_floats_near(out[0], {1 / 6.f, 2 / 14.f, 3 / 10.f});
}

TEST(MVNOpsC, PerChannel) {
  // Channel 0 [1, 3]: mean 2, std 1 → ±1. Channel 1 [5, 5]: std 0 → 0 / (0 + 1e-9) = 0.
  auto out = run_op("MeanVarianceNormalization", 13, {tensor<float>({1, 2, 1, 2}, {1, 3, 5, 5})});
  expect_floats_near(out[0], {-1, 1, 0, 0});
}

// ---------------------------------------------------------------------------------------------
// Dropout

TEST(DropoutOpsC, InferenceIsIdentityWithTrueMask) {
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

TEST(DropoutOpsC, TrainingDropsAndScales) {
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

TEST(DropoutOpsC, OldTrainingModeAndBadRatio) {
  std::vector<float> ones(100, 1.f);
  auto out = run_op("Dropout", 6, {tensor<float>({100}, ones)}, {attr_float("ratio", 0.5f)}, 2);
  auto y = values_of<float>(out[0]);
  auto mask = values_of<float>(out[1]);
  for (size_t i = 0; i < y.size(); ++i) EXPECT_EQ(y[i], mask[i] == 1.f ? 2.f : 0.f);
  expect_trap([] {
    run_op("Dropout", 13, {tensor<float>({1}, {1}), tensor<float>({}, {1.f}), tensor<bool>({}, {true})});
  });
}

// ---------------------------------------------------------------------------------------------
// Losses

namespace {
// The NegativeLogLikelihoodLoss documentation example: N, C, d1 = 2, 3, 2.
Value nll_input() { return tensor<float>({2, 3, 2}, {1, 2, 2, 2, 3, 2, 0, 1, 2, 2, 1, 2}); }
Value nll_target() { return tensor<int64_t>({2, 2}, {2, 1, 0, 2}); }
Value nll_weight() { return tensor<float>({3}, {0.2f, 0.3f, 0.1f}); }
}  // namespace

TEST(LossOpsC, NllDocumentationExamples) {
  auto none_ = run_op("NegativeLogLikelihoodLoss", 13, {nll_input(), nll_target()}, {attr_string("reduction", "none")});
  EXPECT_EQ(none_[0].tensor.shape(), (Shape{2, 2}));
  expect_floats_near(none_[0], {-3, -2, 0, -2});
  // Weighted: -3*0.1 - 2*0.3 - 0*0.2 - 2*0.1 = -1.1; mean divides by 0.1+0.3+0.2+0.1 = 0.7.
  auto sum = run_op("NegativeLogLikelihoodLoss", 12, {nll_input(), nll_target(), nll_weight()}, {attr_string("reduction", "sum")});
  EXPECT_EQ(sum[0].tensor.shape(), Shape{});
  expect_floats_near(sum[0], {-1.1f});
  expect_floats_near(run_op("NegativeLogLikelihoodLoss", 13, {nll_input(), nll_target(), nll_weight()})[0], {-1.1f / 0.7f});
}

TEST(LossOpsC, NllIgnoreIndex) {
  // ignore_index 2: the samples (0,0) and (1,1) drop out; the rest are -2 and -0, mean over 2.
  auto out = run_op("NegativeLogLikelihoodLoss", 13, {nll_input(), nll_target()}, {attr_int("ignore_index", 2)});
  expect_floats_near(out[0], {-1});
  // An ignore_index outside [0, C) is fine; any other out-of-range target traps.
  auto t = tensor<int32_t>({2, 2}, {-1, 1, 0, -1});
  expect_floats_near(run_op("NegativeLogLikelihoodLoss", 13, {nll_input(), t}, {attr_int("ignore_index", -1),
                                                                                attr_string("reduction", "sum")})[0],
                     {-2});
  expect_trap([&] { run_op("NegativeLogLikelihoodLoss", 13, {nll_input(), t}); });
}

TEST(LossOpsC, SoftmaxCrossEntropy) {
  // scores [0, ln 3] → log_prob [-ln 4, ln 3 - ln 4]; label 1 → loss ln(4/3).
  Value scores = tensor<float>({1, 2}, {0.f, std::log(3.f)});
  auto out = run_op("SoftmaxCrossEntropyLoss", 13, {scores, tensor<int64_t>({1}, {1})}, {}, 2);
  expect_floats_near(out[0], {std::log(4.f / 3.f)});
  expect_floats_near(out[1], {-std::log(4.f), std::log(0.75f)});
  // Two samples, weights [1, 3]: losses ln 4 (label 0, w 1) and ln(4/3) (label 1, w 3).
  Value scores2 = tensor<float>({2, 2}, {0.f, std::log(3.f), 0.f, std::log(3.f)});
  Value labels2 = tensor<int64_t>({2}, {0, 1});
  Value w = tensor<float>({2}, {1, 3});
  auto mean = run_op("SoftmaxCrossEntropyLoss", 12, {scores2, labels2, w});
  expect_floats_near(mean[0], {(std::log(4.f) + 3 * std::log(4.f / 3.f)) / 4}, 1e-6f);
  auto none_ = run_op("SoftmaxCrossEntropyLoss", 12, {scores2, labels2, w}, {attr_string("reduction", "none")});
  expect_floats_near(none_[0], {std::log(4.f), 3 * std::log(4.f / 3.f)}, 1e-6f);
  auto ignored = run_op("SoftmaxCrossEntropyLoss", 13, {scores2, labels2}, {attr_int("ignore_index", 0)});
  expect_floats_near(ignored[0], {std::log(4.f / 3.f)});
}

// ---------------------------------------------------------------------------------------------
// Det

TEST(DetOpsC, TwoDimensionalAndBatched) {
  auto out = run_op("Det", 11, {tensor<float>({2, 2}, {0, 1, 2, 3})});
  EXPECT_EQ(out[0].tensor.shape(), Shape{});
  expect_floats_near(out[0], {-2});
  auto out2 = run_op("Det", 11, {tensor<double>({3, 2, 2}, {1, 2, 3, 4, 1, 2, 2, 1, 1, 3, 3, 1})});
  EXPECT_EQ(values_of<double>(out2[0]), (std::vector<double>{-2, -3, -8}));
}

TEST(DetOpsC, PivotingEmptyAndErrors) {
  // The anti-diagonal permutation of 3 elements is odd: det -1 (needs a row swap: a[0][0] = 0).
  expect_floats_near(run_op("Det", 11, {tensor<float>({3, 3}, {0, 0, 1, 0, 1, 0, 1, 0, 0})})[0], {-1});
  expect_floats_near(run_op("Det", 11, {tensor<float>({2, 2}, {1, 2, 2, 4})})[0], {0});
  expect_floats_near(run_op("Det", 11, {tensor<float>({2, 0, 0}, {})})[0], {1, 1});
  expect_floats_near(run_op("Det", 11, {tensor<float>({2, 2}, {kNaN, 0, 0, 0})})[0], {kNaN});
  expect_trap([] { run_op("Det", 11, {tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6})}); });
  expect_trap([] { run_op("Det", 11, {tensor<float>({2}, {1, 2})}); });
}

}  // namespace sonnx::testing
