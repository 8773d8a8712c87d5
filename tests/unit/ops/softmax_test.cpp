// Softmax, LogSoftmax and Hardmax. Expected values are worked out by hand from the operator
// definitions.
#include <cmath>
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

// ---------------------------------------------------------------------------------------------
// Softmax family

// exp() of these gives [[1, 2], [3, 4]].
Value log_1234() { return tensor<float>({2, 2}, {0.f, std::log(2.f), std::log(3.f), std::log(4.f)}); }

TEST(SoftmaxOp, Basic) {
  expect_floats_near(run_op("Softmax", 13, {tensor<float>({1, 3}, {-1, 0, 1})})[0], {0.09003057f, 0.24472847f, 0.66524096f});
  expect_floats_near(run_op("Softmax", 13, {tensor<float>({2}, {1000, 1000})})[0], {0.5f, 0.5f});
}

TEST(SoftmaxOp, CoercedTo2DBeforeVersion13) {
  // Version 11, axis 0: one row of all four elements.
  expect_floats_near(run_op("Softmax", 11, {log_1234()}, {attr_int("axis", 0)})[0], {0.1f, 0.2f, 0.3f, 0.4f});
  // Version 11, default axis 1: rows [1, 2] and [3, 4].
  expect_floats_near(run_op("Softmax", 1, {log_1234()})[0], {1 / 3.f, 2 / 3.f, 3 / 7.f, 4 / 7.f});
  // Version 13, axis 0: columns [1, 3] and [2, 4].
  expect_floats_near(run_op("Softmax", 13, {log_1234()}, {attr_int("axis", 0)})[0], {0.25f, 2 / 6.f, 0.75f, 4 / 6.f});
}

TEST(SoftmaxOp, LogSoftmax) {
  expect_floats_near(run_op("LogSoftmax", 13, {log_1234()})[0],
                     {std::log(1 / 3.f), std::log(2 / 3.f), std::log(3 / 7.f), std::log(4 / 7.f)}, 1e-6f);
  expect_floats_near(run_op("LogSoftmax", 11, {log_1234()}, {attr_int("axis", -2)})[0],
                     {std::log(0.1f), std::log(0.2f), std::log(0.3f), std::log(0.4f)}, 1e-6f);
}

TEST(SoftmaxOp, HardmaxCoercedVersusSingleAxis) {
  Value x = tensor<float>({2, 2, 2}, {1, 2, 3, 4, 8, 7, 6, 5});
  // Version 11, axis 1: rows of 4 ([1,2,3,4] and [8,7,6,5]), one 1 per row.
  EXPECT_EQ(values_of<float>(run_op("Hardmax", 11, {x})[0]), (std::vector<float>{0, 0, 0, 1, 1, 0, 0, 0}));
  // Version 13, axis 1: one 1 per (n, i) line along dim 1.
  EXPECT_EQ(values_of<float>(run_op("Hardmax", 13, {x}, {attr_int("axis", 1)})[0]),
            (std::vector<float>{0, 0, 1, 1, 1, 1, 0, 0}));
  // Ties: the first maximum.
  EXPECT_EQ(values_of<float>(run_op("Hardmax", 13, {tensor<float>({4}, {3, 3, 3, 1})})[0]), (std::vector<float>{1, 0, 0, 0}));
}

TEST(SoftmaxOp, NaNRowAndShapes) {
  expect_floats_near(run_op("Softmax", 13, {tensor<float>({2}, {kNaN, 1})})[0], {kNaN, kNaN});
  auto out = run_op("Softmax", 13, {tensor<float>({0, 3}, {})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{0, 3}));
  expect_trap([] { run_op("Softmax", 13, {tensor<float>({}, {1})}); });
}

}  // namespace
}  // namespace sonnx::testing
