// The reductions (Reduce*) and ArgMax/ArgMin. Expected values are worked out by hand from the
// operator definitions.
#include <cmath>
#include <limits>
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

// The [3, 2, 2] example of the ReduceSum documentation: 1..12.
Value example_3x2x2() { return tensor<float>({3, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}); }

// ---------------------------------------------------------------------------------------------
// Reductions

TEST(ReduceOp, SumAxesInputNoKeepdims) {
  auto out = run_op("ReduceSum", 13, {example_3x2x2(), tensor<int64_t>({1}, {1})}, {attr_int("keepdims", 0)});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{3, 2}));
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{4, 6, 12, 14, 20, 22}));
}

TEST(ReduceOp, SumEmptyAxesInputReducesAll) {
  auto out = run_op("ReduceSum", 13, {example_3x2x2(), tensor<int64_t>({0}, {})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1, 1}));
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{78}));
}

TEST(ReduceOp, SumNoopWithEmptyAxes) {
  auto out = run_op("ReduceSum", 13, {example_3x2x2(), tensor<int64_t>({0}, {})}, {attr_int("noop_with_empty_axes", 1)});
  EXPECT_EQ(out[0].tensor, example_3x2x2().tensor);
  auto out2 = run_op("ReduceSum", 13, {example_3x2x2()}, {attr_int("noop_with_empty_axes", 1)});
  EXPECT_EQ(out2[0].tensor, example_3x2x2().tensor);
}

TEST(ReduceOp, SumAttributeNegativeAxis) {
  auto out = run_op("ReduceSum", 11, {example_3x2x2()}, {attr_ints("axes", {-1})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{3, 2, 1}));
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{3, 7, 11, 15, 19, 23}));
}

TEST(ReduceOp, SumOfScalarIsTheScalar) {
  auto out = run_op("ReduceSum", 1, {tensor<float>({}, {5})});
  EXPECT_EQ(out[0].tensor.shape(), Shape{});
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{5}));
}

TEST(ReduceOp, RepeatedAxisTraps) {
  expect_trap([] { run_op("ReduceMean", 13, {example_3x2x2()}, {attr_ints("axes", {1, -2})}); });
}

TEST(ReduceOp, OutOfRangeAxisTraps) {
  expect_trap([] { run_op("ReduceMax", 13, {example_3x2x2()}, {attr_ints("axes", {3})}); });
}

TEST(ReduceOp, IntegerSumWraps) {
  auto out = run_op("ReduceSum", 11, {tensor<int32_t>({2}, {std::numeric_limits<int32_t>::max(), 1})});
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{std::numeric_limits<int32_t>::min()}));
}

TEST(ReduceOp, IntegerSumSquareWraps) {
  // 16^2 = 256 ≡ 0 and 12^2 = 144 ≡ -112 (mod 256) as int8.
  auto out = run_op("ReduceSumSquare", 13, {tensor<int8_t>({2, 1}, {16, 12})}, {attr_ints("axes", {1})});
  EXPECT_EQ(values_of<int8_t>(out[0]), (std::vector<int8_t>{0, -112}));
}

TEST(ReduceOp, IntegerMeanTruncatesTowardZero) {
  auto out = run_op("ReduceMean", 13, {tensor<int32_t>({2, 2}, {-3, -4, 7, 8})}, {attr_ints("axes", {1})});
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{-3, 7}));
  // The exact mean does not overflow even when the sum would.
  int64_t big = std::numeric_limits<int64_t>::max();
  auto out2 = run_op("ReduceMean", 13, {tensor<int64_t>({2}, {big, big - 2})});
  EXPECT_EQ(values_of<int64_t>(out2[0]), (std::vector<int64_t>{big - 1}));
}

TEST(ReduceOp, EmptyReductionsGiveIdentityElements) {
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

TEST(ReduceOp, MaxAndMinPropagateNaN) {
  expect_floats_near(run_op("ReduceMax", 13, {tensor<float>({3}, {1, kNaN, 3})})[0], {kNaN});
  expect_floats_near(run_op("ReduceMin", 13, {tensor<float>({3}, {1, kNaN, 3})})[0], {kNaN});
}

TEST(ReduceOp, Norms) {
  Value x = tensor<float>({2}, {3, -4});
  expect_floats_near(run_op("ReduceL1", 13, {x})[0], {7});
  expect_floats_near(run_op("ReduceL2", 13, {x})[0], {5});
  expect_floats_near(run_op("ReduceSumSquare", 13, {x})[0], {25});
  expect_floats_near(run_op("ReduceProd", 13, {x})[0], {-12});
  expect_floats_near(run_op("ReduceMean", 13, {x})[0], {-0.5f});
  expect_floats_near(run_op("ReduceMin", 13, {x})[0], {-4});
  expect_floats_near(run_op("ReduceLogSum", 13, {tensor<float>({2}, {1, 2})})[0], {std::log(3.0f)});
}

TEST(ReduceOp, LogSumExpDoesNotOverflow) {
  auto out = run_op("ReduceLogSumExp", 13, {tensor<double>({2}, {1000, 1000})}, {attr_int("keepdims", 0)});
  EXPECT_EQ(out[0].tensor.shape(), Shape{});
  EXPECT_NEAR(values_of<double>(out[0])[0], 1000 + std::log(2.0), 1e-12);
  expect_floats_near(run_op("ReduceLogSumExp", 13, {tensor<float>({2}, {-kInf, -kInf})})[0], {-kInf});
  expect_floats_near(run_op("ReduceLogSumExp", 13, {tensor<float>({2}, {kInf, 0})})[0], {kInf});
}

TEST(ReduceOp, Float16SumIsComputedInDoubleAndRoundedOnce) {
  // 2048 + 1 + 1 = 2050 is representable in float16; accumulating in float16 would give 2048.
  auto out = run_op("ReduceSum", 13, {tensor<float16_t>({3}, {float16_t(2048.f), float16_t(1.f), float16_t(1.f)})});
  EXPECT_EQ(static_cast<float>(values_of<float16_t>(out[0])[0]), 2050.f);
  // 1 + 2^-11 + 2^-24 lies just above the float16 tie between 1 and 1 + 2^-10, so it rounds up.
  // (Rounding to float first would land exactly on the tie and then round to even, 1.)
  auto out2 = run_op("ReduceSum", 13,
                     {tensor<float16_t>({3},
                                        {float16_t(1.f), float16_t(std::ldexp(1.f, -11)), float16_t(std::ldexp(1.f, -24))})});
  EXPECT_EQ(static_cast<float>(values_of<float16_t>(out2[0])[0]), 1.f + std::ldexp(1.f, -10));
}

// ---------------------------------------------------------------------------------------------
// Reductions from opset 18: `axes` as an input, noop_with_empty_axes.

TEST(ReduceOp18, AxesInputForEveryReduction) {
  // Reducing axis 1 of the 1..12 example: the pairs (1,3) (2,4) (5,7) (6,8) (9,11) (10,12).
  Value axes = tensor<int64_t>({1}, {1});
  expect_floats_near(run_op("ReduceMax", 18, {example_3x2x2(), axes})[0], {3, 4, 7, 8, 11, 12});
  expect_floats_near(run_op("ReduceMin", 18, {example_3x2x2(), axes})[0], {1, 2, 5, 6, 9, 10});
  expect_floats_near(run_op("ReduceMean", 18, {example_3x2x2(), axes})[0], {2, 3, 6, 7, 10, 11});
  expect_floats_near(run_op("ReduceProd", 18, {example_3x2x2(), axes})[0], {3, 8, 35, 48, 99, 120});
  expect_floats_near(run_op("ReduceL1", 18, {example_3x2x2(), axes})[0], {4, 6, 12, 14, 20, 22});
  expect_floats_near(run_op("ReduceSumSquare", 18, {example_3x2x2(), axes})[0], {10, 20, 74, 100, 202, 244});
  expect_floats_near(run_op("ReduceL2", 18, {example_3x2x2(), axes})[0],
                     {std::sqrt(10.f), std::sqrt(20.f), std::sqrt(74.f), 10, std::sqrt(202.f), std::sqrt(244.f)});
  expect_floats_near(run_op("ReduceLogSum", 18, {example_3x2x2(), axes})[0],
                     {std::log(4.f), std::log(6.f), std::log(12.f), std::log(14.f), std::log(20.f), std::log(22.f)});
  auto lse = run_op("ReduceLogSumExp", 18, {tensor<double>({2, 2}, {0, 0, 1, 1}), tensor<int64_t>({1}, {-1})},
                    {attr_int("keepdims", 0)});
  EXPECT_EQ(lse[0].tensor.shape(), (Shape{2}));
  EXPECT_NEAR(values_of<double>(lse[0])[0], std::log(2.0), 1e-12);
  EXPECT_NEAR(values_of<double>(lse[0])[1], 1 + std::log(2.0), 1e-12);
}

TEST(ReduceOp18, OmittedOrEmptyAxesReduceEverything) {
  auto out = run_op("ReduceMax", 18, {example_3x2x2()});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1, 1}));
  expect_floats_near(out[0], {12});
  expect_floats_near(run_op("ReduceMean", 18, {example_3x2x2(), tensor<int64_t>({0}, {})}, {attr_int("keepdims", 0)})[0],
                     {6.5f});
}

TEST(ReduceOp18, NoopWithEmptyAxesKeepsTheElementStep) {
  Value x = tensor<float>({2}, {-2, 4});
  auto noop = std::vector<onnx::AttributeProto>{attr_int("noop_with_empty_axes", 1)};
  expect_floats_near(run_op("ReduceMax", 18, {x}, noop)[0], {-2, 4});
  expect_floats_near(run_op("ReduceProd", 18, {x}, noop)[0], {-2, 4});
  expect_floats_near(run_op("ReduceL1", 18, {x}, noop)[0], {2, 4});
  expect_floats_near(run_op("ReduceL2", 18, {x}, noop)[0], {2, 4});
  expect_floats_near(run_op("ReduceSumSquare", 18, {x}, noop)[0], {4, 16});
  expect_floats_near(run_op("ReduceLogSumExp", 18, {x}, noop)[0], {-2, 4});
  expect_floats_near(run_op("ReduceLogSum", 18, {tensor<float>({2}, {1, 4})}, noop)[0], {0, std::log(4.f)});
  auto out = run_op("ReduceSumSquare", 18, {x, tensor<int64_t>({0}, {})}, noop);
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2}));
}

TEST(ReduceOp18, AxesInputMustBeValid) {
  expect_trap([] { run_op("ReduceL1", 18, {example_3x2x2(), tensor<int64_t>({2}, {0, -3})}); }, "more than once");
  expect_trap([] { run_op("ReduceMin", 18, {example_3x2x2(), tensor<int64_t>({1}, {3})}); });
}

TEST(ReduceOp20, MaxAndMinOfBool) {
  // false < true: Max is "any", Min is "all"; reducing axis 1 of [[F, T], [F, F], [T, T]].
  Value b = tensor<bool>({3, 2}, {false, true, false, false, true, true});
  Value axes = tensor<int64_t>({1}, {1});
  EXPECT_EQ(values_of<bool>(run_op("ReduceMax", 20, {b, axes}, {attr_int("keepdims", 0)})[0]),
            (std::vector<bool>{true, false, true}));
  EXPECT_EQ(values_of<bool>(run_op("ReduceMin", 20, {b, axes}, {attr_int("keepdims", 0)})[0]),
            (std::vector<bool>{false, false, true}));
  // Empty groups: the lowest value (false) for Max, the highest (true) for Min.
  Value empty = tensor<bool>({2, 0}, {});
  EXPECT_EQ(values_of<bool>(run_op("ReduceMax", 20, {empty, axes})[0]), (std::vector<bool>{false, false}));
  EXPECT_EQ(values_of<bool>(run_op("ReduceMin", 20, {empty, axes})[0]), (std::vector<bool>{true, true}));
  // Numbers still work at 20.
  expect_floats_near(run_op("ReduceMin", 20, {example_3x2x2(), axes})[0], {1, 2, 5, 6, 9, 10});
}

// ---------------------------------------------------------------------------------------------
// ArgMax / ArgMin

TEST(ArgMaxMinOp, AxisAndKeepdims) {
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

TEST(ArgMaxMinOp, SelectLastIndex) {
  Value x = tensor<int32_t>({2, 3}, {5, 1, 5, 0, 0, 7});
  EXPECT_EQ(values_of<int64_t>(run_op("ArgMax", 12, {x}, {attr_int("axis", 1)})[0]), (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(values_of<int64_t>(run_op("ArgMax", 12, {x}, {attr_int("axis", 1), attr_int("select_last_index", 1)})[0]),
            (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values_of<int64_t>(run_op("ArgMin", 13, {x}, {attr_int("axis", 1), attr_int("select_last_index", 1)})[0]),
            (std::vector<int64_t>{1, 1}));
}

TEST(ArgMaxMinOp, NaNIsTheExtreme) {
  Value x = tensor<float>({4}, {1, kNaN, 3, kNaN});
  EXPECT_EQ(values_of<int64_t>(run_op("ArgMax", 13, {x})[0]), (std::vector<int64_t>{1}));
  EXPECT_EQ(values_of<int64_t>(run_op("ArgMin", 13, {x})[0]), (std::vector<int64_t>{1}));
  EXPECT_EQ(values_of<int64_t>(run_op("ArgMax", 13, {x}, {attr_int("select_last_index", 1)})[0]), (std::vector<int64_t>{3}));
}

TEST(ArgMaxMinOp, EmptyAxis) {
  expect_trap([] { run_op("ArgMax", 13, {tensor<float>({0}, {})}); });
  // No output element needs an index: fine.
  auto out = run_op("ArgMax", 13, {tensor<float>({0, 3}, {})}, {attr_int("axis", 1)});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{0, 1}));
}

}  // namespace
}  // namespace sonnx::testing
