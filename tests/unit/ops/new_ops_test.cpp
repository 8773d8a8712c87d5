// The operators new since opset 18: bitwise logic, the Gelu/Mish/Swish activations, CenterCropPad,
// TensorScatter, the string operators StringConcat and StringSplit, the RMS, group and rotary
// normalizations/embeddings and AffineGrid. Expected values are worked out by hand from the
// operator definitions (the arithmetic is shown next to each value).
#include <cstdint>
#include <string>
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

// ---------------------------------------------------------------------------------------------
// BitwiseAnd, BitwiseOr, BitwiseXor, BitwiseNot (18)

TEST(BitwiseOps, AndOnSignedIntegersUsesTwosComplement) {
  // 12 & 10 = 0b1100 & 0b1010 = 8; -1 & 7 = 7; 5 & 3 = 1; 0 & -8 = 0.
  auto r = run1("BitwiseAnd", 18, {tensor<int32_t>({2, 2}, {12, -1, 5, 0}), tensor<int32_t>({2, 2}, {10, 7, 3, -8})});
  EXPECT_EQ(r.tensor.shape(), (Shape{2, 2}));
  EXPECT_EQ(values_of<int32_t>(r), (std::vector<int32_t>{8, 7, 1, 0}));
}

TEST(BitwiseOps, OrBroadcastsTheSecondOperand) {
  // Rows {0x0F, 0xF0} and {0x01, 0x80} or'ed with {0x10, 0x01}.
  auto r = run1("BitwiseOr", 18, {tensor<uint8_t>({2, 2}, {0x0F, 0xF0, 0x01, 0x80}), tensor<uint8_t>({2}, {0x10, 0x01})});
  EXPECT_EQ(values_of<uint8_t>(r), (std::vector<uint8_t>{0x1F, 0xF1, 0x11, 0x81}));
}

TEST(BitwiseOps, OrBroadcastsBothWays) {
  // [2, 1] | [1, 3] -> [2, 3]: {1, 2} against {4, 8, 16}.
  auto r = run1("BitwiseOr", 18, {tensor<int16_t>({2, 1}, {1, 2}), tensor<int16_t>({1, 3}, {4, 8, 16})});
  EXPECT_EQ(r.tensor.shape(), (Shape{2, 3}));
  EXPECT_EQ(values_of<int16_t>(r), (std::vector<int16_t>{5, 9, 17, 6, 10, 18}));
}

TEST(BitwiseOps, XorWithAllOnesComplements) {
  // x ^ -1 = ~x: ~(-128) = 127, ~127 = -128, ~5 = -6.
  auto r = run1("BitwiseXor", 18, {tensor<int8_t>({3}, {-128, 127, 5}), tensor<int8_t>({1}, {-1})});
  EXPECT_EQ(values_of<int8_t>(r), (std::vector<int8_t>{127, -128, -6}));
  auto u = run1("BitwiseXor", 18, {tensor<uint64_t>({2}, {~uint64_t{0}, 6}), tensor<uint64_t>({2}, {1, 3})});
  EXPECT_EQ(values_of<uint64_t>(u), (std::vector<uint64_t>{~uint64_t{0} - 1, 5}));
}

TEST(BitwiseOps, NotComplementsEveryBit) {
  // Signed: ~x = -x - 1. Unsigned 8-bit: ~x = 255 - x.
  EXPECT_EQ(values_of<int16_t>(run1("BitwiseNot", 18, {tensor<int16_t>({3}, {0, -1, 100})})),
            (std::vector<int16_t>{-1, 0, -101}));
  EXPECT_EQ(values_of<uint8_t>(run1("BitwiseNot", 18, {tensor<uint8_t>({3}, {0, 255, 0x0F})})),
            (std::vector<uint8_t>{255, 0, 0xF0}));
  EXPECT_EQ(values_of<uint32_t>(run1("BitwiseNot", 18, {tensor<uint32_t>({1}, {0})})), (std::vector<uint32_t>{0xFFFFFFFFu}));
  EXPECT_EQ(values_of<int64_t>(run1("BitwiseNot", 18, {tensor<int64_t>({1}, {41})})), (std::vector<int64_t>{-42}));
}

TEST(BitwiseOps, NonIntegerOrMixedTypesTrap) {
  expect_trap([] { run1("BitwiseAnd", 18, {tensor<float>({1}, {1}), tensor<float>({1}, {1})}); }, "not an integer type");
  expect_trap([] { run1("BitwiseNot", 18, {tensor<bool>({1}, {true})}); }, "not an integer type");
  expect_trap([] { run1("BitwiseOr", 18, {tensor<int32_t>({1}, {1}), tensor<int64_t>({1}, {1})}); }, "different element types");
  expect_trap([] { run1("BitwiseXor", 18, {tensor<int32_t>({2}, {1, 2}), tensor<int32_t>({3}, {1, 2, 3})}); });
}

}  // namespace
}  // namespace sonnx::testing
