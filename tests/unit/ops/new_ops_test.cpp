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

// ---------------------------------------------------------------------------------------------
// Gelu (20), Mish (18, 22), Swish (24)

TEST(GeluOp, ExactUsesTheErrorFunction) {
  // 0.5 x (1 + erf(x / sqrt 2)): erf(1/sqrt 2) = 0.6826894921, erf(sqrt 2) = 0.9544997361.
  auto r = run1("Gelu", 20, {tensor<float>({4}, {0, 1, -1, 2})});
  expect_floats_near(r, {0.0f, 0.8413447461f, -0.1586552539f, 1.9544997361f}, 1e-6f);
  auto d = run1("Gelu", 20, {tensor<double>({1}, {1})}, {attr_string("approximate", "none")});
  EXPECT_NEAR(values_of<double>(d)[0], 0.84134474606854293, 1e-15);
}

TEST(GeluOp, TanhApproximation) {
  // x = 1: sqrt(2/pi) * (1 + 0.044715) = 0.8335622, tanh = 0.6823840, y = 0.5 * 1.6823840.
  // x = -2: sqrt(2/pi) * (-2 - 0.35772) = -1.8812116, tanh = -0.9545977, y = -(1 - 0.9545977).
  auto r = run1("Gelu", 20, {tensor<float>({3}, {0, 1, -2})}, {attr_string("approximate", "tanh")});
  expect_floats_near(r, {0.0f, 0.8411920f, -0.0454023f}, 1e-6f);
}

TEST(GeluOp, UnknownApproximationTraps) {
  expect_trap([] { run1("Gelu", 20, {tensor<float>({1}, {1})}, {attr_string("approximate", "erf")}); }, "approximate");
}

TEST(MishOp, BothVersionsComputeXTimesTanhSoftplus) {
  // softplus(1) = ln(1 + e) = 1.3132617, tanh = 0.8650984; softplus(-1) = 0.3132617, tanh = 0.3034014.
  for (int64_t version : {18, 22}) {
    auto r = run1("Mish", version, {tensor<float>({3}, {0, 1, -1})});
    expect_floats_near(r, {0.0f, 0.8650984f, -0.3034014f}, 1e-6f);
  }
}

TEST(MishOp, LargeMagnitudesDoNotOverflow) {
  // softplus(100) = 100 (+3.7e-44), tanh(100) = 1; for -100 softplus = e^-100, y ~ -3.7e-42.
  auto r = run1("Mish", 22, {tensor<float>({2}, {100, -100})});
  expect_floats_near(r, {100.0f, 0.0f}, 1e-6f);
}

TEST(SwishOp, DefaultAlphaIsOne) {
  // x * sigmoid(x): sigmoid(1) = 0.7310586, sigmoid(-2) = 0.1192029.
  auto r = run1("Swish", 24, {tensor<float>({3}, {0, 1, -2})});
  expect_floats_near(r, {0.0f, 0.7310586f, -0.2384058f}, 1e-6f);
}

TEST(SwishOp, AlphaScalesTheSigmoidArgument) {
  // alpha 2: 1 * sigmoid(2) = 0.8807971; -1 * sigmoid(-2) = -0.1192029.
  auto r = run1("Swish", 24, {tensor<float>({2}, {1, -1})}, {attr_float("alpha", 2.0f)});
  expect_floats_near(r, {0.8807971f, -0.1192029f}, 1e-6f);
}

TEST(ActivationOps, IntegerInputsTrap) {
  expect_trap([] { run1("Gelu", 20, {tensor<int32_t>({1}, {1})}); }, "not a floating type");
  expect_trap([] { run1("Mish", 18, {tensor<int32_t>({1}, {1})}); }, "not a floating type");
  expect_trap([] { run1("Swish", 24, {tensor<int64_t>({1}, {1})}); }, "not a floating type");
}

}  // namespace
}  // namespace sonnx::testing
