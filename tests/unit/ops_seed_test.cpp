// Tests of the seed operators and the op-test harness itself.
#include <cmath>
#include <limits>

#include "op_test_util.h"

namespace sonnx::testing {

TEST(AddOp, BroadcastsMultidirectionally) {
  auto out = run_op("Add", 14, {tensor<float>({2, 1}, {1, 2}), tensor<float>({3}, {10, 20, 30})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 3}));
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{11, 21, 31, 12, 22, 32}));
}

TEST(AddOp, IntegerOverflowWraps) {
  auto out = run_op("Add", 14, {tensor<int32_t>({1}, {std::numeric_limits<int32_t>::max()}), tensor<int32_t>({1}, {1})});
  EXPECT_EQ(values_of<int32_t>(out[0])[0], std::numeric_limits<int32_t>::min());
}

TEST(AddOp, LegacyBroadcastWithAxis) {
  auto out = run_op("Add", 6, {tensor<float>({2, 3}, {0, 0, 0, 0, 0, 0}), tensor<float>({2}, {1, 2})},
                    {attr_int("broadcast", 1), attr_int("axis", 0)});
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{1, 1, 1, 2, 2, 2}));
}

TEST(AddOp, IncompatibleShapesTrapWithNodeName) {
  try {
    run_op("Add", 14, {tensor<float>({2}, {1, 2}), tensor<float>({3}, {1, 2, 3})});
    FAIL() << "expected a trap";
  } catch (const Trap& e) {
    EXPECT_NE(std::string(e.what()).find("node (Add)"), std::string::npos) << e.what();
  }
}

TEST(AddOp, Float16RoundsToNearestEven) {
  // 2048 + 1 is not representable in float16 (spacing 2 there): ties round to even, 2048.
  auto out = run_op("Add", 14, {tensor<float16_t>({1}, {float16_t(2048.f)}), tensor<float16_t>({1}, {float16_t(1.f)})});
  EXPECT_EQ(static_cast<float>(values_of<float16_t>(out[0])[0]), 2048.f);
}

TEST(ReluOp, KeepsNaNAndNegativeZeroBecomesZero) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  auto out = run_op("Relu", 14, {tensor<float>({3}, {nan, -1.f, 2.f})});
  auto v = values_of<float>(out[0]);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], 0.f);
  EXPECT_EQ(v[2], 2.f);
}

TEST(ConstantOp, ValueInts) {
  auto out = run_op("Constant", 13, {}, {attr_ints("value_ints", {4, 5})});
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{4, 5}));
}

}  // namespace sonnx::testing
