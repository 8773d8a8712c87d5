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

// ---------------------------------------------------------------------------------------------
// CenterCropPad (18)

TEST(CenterCropPadOp, CropKeepsTheCentreRoundingTheStartDown) {
  // 5 -> 3: start (5 - 3) / 2 = 1. 4 -> 3: the difference 1 is odd, start floor(1 / 2) = 0.
  EXPECT_EQ(values_of<int64_t>(run1("CenterCropPad", 18, {tensor<int64_t>({5}, {0, 1, 2, 3, 4}), tensor<int64_t>({1}, {3})})),
            (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(values_of<int64_t>(run1("CenterCropPad", 18, {tensor<int64_t>({4}, {0, 1, 2, 3}), tensor<int64_t>({1}, {3})})),
            (std::vector<int64_t>{0, 1, 2}));
}

TEST(CenterCropPadOp, PadPutsTheExtraZeroOnTheRight) {
  // 2 -> 5: 3 zeros, 1 before and 2 after.
  auto r = run1("CenterCropPad", 18, {tensor<float>({2}, {1, 2}), tensor<int32_t>({1}, {5})});
  EXPECT_EQ(r.tensor.shape(), (Shape{5}));
  expect_floats_near(r, {0, 1, 2, 0, 0});
}

TEST(CenterCropPadOp, CropOneAxisAndPadAnother) {
  // x (3, 2) = {{0, 1}, {2, 3}, {4, 5}} to (1, 4): keep row 1, pad its two columns by 1 each side.
  auto r = run1("CenterCropPad", 18, {tensor<float>({3, 2}, {0, 1, 2, 3, 4, 5}), tensor<int64_t>({2}, {1, 4})});
  EXPECT_EQ(r.tensor.shape(), (Shape{1, 4}));
  expect_floats_near(r, {0, 2, 3, 0});
}

TEST(CenterCropPadOp, AxesSelectTheResizedDims) {
  // x (2, 4) = 0..7, axis -1 to 2: columns 1 and 2 of each row.
  auto r = run1("CenterCropPad", 18, {tensor<int32_t>({2, 4}, {0, 1, 2, 3, 4, 5, 6, 7}), tensor<int64_t>({1}, {2})},
                {attr_ints("axes", {-1})});
  EXPECT_EQ(r.tensor.shape(), (Shape{2, 2}));
  EXPECT_EQ(values_of<int32_t>(r), (std::vector<int32_t>{1, 2, 5, 6}));
}

TEST(CenterCropPadOp, StringsPadWithEmptyStrings) {
  auto r = run1("CenterCropPad", 18, {tensor<std::string>({1}, {"a"}), tensor<int64_t>({1}, {3})});
  EXPECT_EQ(values_of<std::string>(r), (std::vector<std::string>{"", "a", ""}));
}

TEST(CenterCropPadOp, BadShapeTraps) {
  auto x = tensor<float>({2, 2}, {1, 2, 3, 4});
  expect_trap([&] { run1("CenterCropPad", 18, {x, tensor<int64_t>({1}, {1})}); }, "one value per axis");
  expect_trap([&] { run1("CenterCropPad", 18, {x, tensor<int64_t>({2}, {1, -1})}); }, "negative");
  expect_trap([&] { run1("CenterCropPad", 18, {x, tensor<int64_t>({2}, {1, 1})}, {attr_ints("axes", {0, -2})}); }, "repeated");
  expect_trap([&] { run1("CenterCropPad", 18, {x, tensor<int64_t>({1}, {1})}, {attr_ints("axes", {2})}); });
}

// ---------------------------------------------------------------------------------------------
// TensorScatter (24)

TEST(TensorScatterOp, PrefillWritesAtTheStart) {
  // axis -2 of (1, 4, 1) is the sequence axis; no write_indices: positions 0 and 1.
  auto r = run1("TensorScatter", 24, {tensor<float>({1, 4, 1}, {0, 0, 0, 0}), tensor<float>({1, 2, 1}, {7, 8})});
  EXPECT_EQ(r.tensor.shape(), (Shape{1, 4, 1}));
  expect_floats_near(r, {7, 8, 0, 0});
}

TEST(TensorScatterOp, WriteIndicesPerBatch) {
  // past (2, 3, 2) = 0..11; batch 0 writes its row at position 2, batch 1 at position 0.
  auto r = run1("TensorScatter", 24,
                {tensor<int32_t>({2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}),
                 tensor<int32_t>({2, 1, 2}, {100, 101, 200, 201}), tensor<int64_t>({2}, {2, 0})});
  EXPECT_EQ(values_of<int32_t>(r), (std::vector<int32_t>{0, 1, 2, 3, 100, 101, 200, 201, 8, 9, 10, 11}));
}

TEST(TensorScatterOp, LastAxisWithHeadsBeforeIt) {
  // past (1, 2, 3) with axis 2: each of the two heads gets its update at position 1.
  auto r = run1("TensorScatter", 24,
                {tensor<float>({1, 2, 3}, {0, 0, 0, 0, 0, 0}), tensor<float>({1, 2, 1}, {9, 8}), tensor<int64_t>({1}, {1})},
                {attr_int("axis", 2)});
  expect_floats_near(r, {0, 9, 0, 0, 8, 0});
}

TEST(TensorScatterOp, CircularModeWrapsAround) {
  // Cache length 3, write index 2, two updates: positions 2 and (2 + 1) mod 3 = 0.
  auto r = run1("TensorScatter", 24,
                {tensor<float>({1, 3}, {0, 1, 2}), tensor<float>({1, 2}, {5, 6}), tensor<int64_t>({1}, {2})},
                {attr_int("axis", 1), attr_string("mode", "circular")});
  expect_floats_near(r, {6, 1, 5});
}

TEST(TensorScatterOp, StringsAreCopied) {
  auto r = run1("TensorScatter", 24, {tensor<std::string>({1, 2, 1}, {"a", "b"}), tensor<std::string>({1, 1, 1}, {"z"})});
  EXPECT_EQ(values_of<std::string>(r), (std::vector<std::string>{"z", "b"}));
}

TEST(TensorScatterOp, InvalidUpdatesTrap) {
  auto past = tensor<float>({1, 3}, {0, 1, 2});
  auto upd = tensor<float>({1, 2}, {5, 6});
  auto axis1 = attr_int("axis", 1);
  expect_trap([&] { run1("TensorScatter", 24, {past, upd, tensor<int64_t>({1}, {2})}, {axis1}); }, "does not fit");
  expect_trap([&] { run1("TensorScatter", 24, {past, upd, tensor<int64_t>({1}, {-1})}, {axis1}); }, "does not fit");
  expect_trap([&] { run1("TensorScatter", 24, {past, upd}, {attr_int("axis", 0)}); }, "batch axis");
  expect_trap([&] { run1("TensorScatter", 24, {past, tensor<float>({1, 4}, {1, 2, 3, 4})}, {axis1}); }, "does not fit");
  expect_trap([&] { run1("TensorScatter", 24, {past, upd}, {axis1, attr_string("mode", "ring")}); }, "mode");
  expect_trap([&] { run1("TensorScatter", 24, {past, upd, tensor<int64_t>({2}, {0, 0})}, {axis1}); }, "write_indices");
}

// ---------------------------------------------------------------------------------------------
// StringConcat (20), StringSplit (20)

TEST(StringConcatOp, ConcatenatesWithBroadcasting) {
  auto r = run1("StringConcat", 20, {tensor<std::string>({2}, {"a", "bc"}), tensor<std::string>({1}, {"x"})});
  EXPECT_EQ(values_of<std::string>(r), (std::vector<std::string>{"ax", "bcx"}));
  // [2, 1] with [2]: every pair.
  auto p = run1("StringConcat", 20, {tensor<std::string>({2, 1}, {"1", ""}), tensor<std::string>({2}, {"a", "\xC3\xA9"})});
  EXPECT_EQ(p.tensor.shape(), (Shape{2, 2}));
  EXPECT_EQ(values_of<std::string>(p), (std::vector<std::string>{"1a", "1\xC3\xA9", "a", "\xC3\xA9"}));
}

TEST(StringConcatOp, ScalarsAndTypeErrors) {
  auto r = run1("StringConcat", 20, {Value(Tensor::scalar<std::string>("ab")), Value(Tensor::scalar<std::string>("cd"))});
  EXPECT_EQ(r.tensor.shape(), (Shape{}));
  EXPECT_EQ(values_of<std::string>(r), (std::vector<std::string>{"abcd"}));
  expect_trap([] { run1("StringConcat", 20, {tensor<std::string>({1}, {"a"}), tensor<float>({1}, {1})}); }, "must be string");
}

TEST(StringSplitOp, DelimiterSplitsAndPads) {
  auto out = run_op("StringSplit", 20, {tensor<std::string>({3}, {"a,b,c", "d", ""})}, {attr_string("delimiter", ",")}, 2);
  EXPECT_EQ(out[0].tensor.shape(), (Shape{3, 3}));
  EXPECT_EQ(values_of<std::string>(out[0]), (std::vector<std::string>{"a", "b", "c", "d", "", "", "", "", ""}));
  EXPECT_EQ(values_of<int64_t>(out[1]), (std::vector<int64_t>{3, 1, 1}));
}

TEST(StringSplitOp, ConsecutiveDelimitersDelimitEmptyStrings) {
  auto out = run_op("StringSplit", 20, {tensor<std::string>({2}, {"a,,b", "x::y::"})}, {attr_string("delimiter", ",")}, 2);
  EXPECT_EQ(values_of<std::string>(out[0]), (std::vector<std::string>{"a", "", "b", "x::y::", "", ""}));
  EXPECT_EQ(values_of<int64_t>(out[1]), (std::vector<int64_t>{3, 1}));
  auto multi = run_op("StringSplit", 20, {tensor<std::string>({1}, {"x::y::"})}, {attr_string("delimiter", "::")}, 2);
  EXPECT_EQ(values_of<std::string>(multi[0]), (std::vector<std::string>{"x", "y", ""}));
}

TEST(StringSplitOp, NoDelimiterSplitsOnWhitespaceRuns) {
  // Leading/trailing whitespace is dropped; all-whitespace gives no substrings; U+00A0 is a space.
  auto out = run_op("StringSplit", 20,
                    {tensor<std::string>({3}, {"  hello \t world ", "   ",
                                               "a\xC2\xA0"
                                               "b"})},
                    {}, 2);
  EXPECT_EQ(out[0].tensor.shape(), (Shape{3, 2}));
  EXPECT_EQ(values_of<std::string>(out[0]), (std::vector<std::string>{"hello", "world", "", "", "a", "b"}));
  EXPECT_EQ(values_of<int64_t>(out[1]), (std::vector<int64_t>{2, 0, 2}));
  auto empty_delim = run_op("StringSplit", 20, {tensor<std::string>({1}, {" a  b "})}, {attr_string("delimiter", "")}, 2);
  EXPECT_EQ(values_of<std::string>(empty_delim[0]), (std::vector<std::string>{"a", "b"}));
}

TEST(StringSplitOp, MaxsplitKeepsTheRest) {
  auto out = run_op("StringSplit", 20, {tensor<std::string>({2}, {"a-b-c", "d"})},
                    {attr_string("delimiter", "-"), attr_int("maxsplit", 1)}, 2);
  EXPECT_EQ(values_of<std::string>(out[0]), (std::vector<std::string>{"a", "b-c", "d", ""}));
  EXPECT_EQ(values_of<int64_t>(out[1]), (std::vector<int64_t>{2, 1}));
  // Whitespace mode: the rest loses its leading whitespace and keeps its trailing whitespace.
  auto ws = run_op("StringSplit", 20, {tensor<std::string>({1}, {" a  b c "})}, {attr_int("maxsplit", 1)}, 2);
  EXPECT_EQ(values_of<std::string>(ws[0]), (std::vector<std::string>{"a", "b c "}));
  auto none_split = run_op("StringSplit", 20, {tensor<std::string>({1}, {"a b"})}, {attr_int("maxsplit", 0)}, 2);
  EXPECT_EQ(values_of<std::string>(none_split[0]), (std::vector<std::string>{"a b"}));
}

TEST(StringSplitOp, EmptyInputAndRank) {
  auto out = run_op("StringSplit", 20, {tensor<std::string>({0}, {})}, {}, 2);
  EXPECT_EQ(out[0].tensor.shape(), (Shape{0, 0}));
  EXPECT_EQ(out[1].tensor.shape(), (Shape{0}));
  auto two_d = run_op("StringSplit", 20, {tensor<std::string>({2, 1}, {"a b", "c"})}, {}, 2);
  EXPECT_EQ(two_d[0].tensor.shape(), (Shape{2, 1, 2}));
  EXPECT_EQ(two_d[1].tensor.shape(), (Shape{2, 1}));
  expect_trap([] { run_op("StringSplit", 20, {tensor<int64_t>({1}, {1})}, {}, 2); }, "must be string");
}

// ---------------------------------------------------------------------------------------------
// RMSNormalization (23), GroupNormalization (18, 21)

TEST(RMSNormalizationOp, LastAxisByDefault) {
  // Row {3, 4}: rms = sqrt(12.5) = 3.5355339; row {0, 2}: rms = sqrt(2). Scale {1, 2}.
  auto r = run1("RMSNormalization", 23, {tensor<float>({2, 2}, {3, 4, 0, 2}), tensor<float>({2}, {1, 2})},
                {attr_float("epsilon", 0)});
  expect_floats_near(r, {0.8485281f, 2.2627417f, 0.0f, 2.8284271f});
}

TEST(RMSNormalizationOp, AxisZeroNormalizesEverything) {
  // mean of squares (9 + 16 + 0 + 4) / 4 = 7.25, rms = 2.6925824.
  auto r = run1("RMSNormalization", 23, {tensor<float>({2, 2}, {3, 4, 0, 2}), tensor<float>({1}, {1})},
                {attr_int("axis", 0), attr_float("epsilon", 0)});
  expect_floats_near(r, {1.1141720f, 1.4855627f, 0.0f, 0.7427814f});
}

TEST(RMSNormalizationOp, EpsilonAndScaleType) {
  // x {1, 1}: mean square 1, epsilon 3 -> rms 2; Y takes scale's type (double).
  auto r = run1("RMSNormalization", 23, {tensor<float>({2}, {1, 1}), tensor<double>({2}, {2, 4})}, {attr_float("epsilon", 3)});
  EXPECT_EQ(r.tensor.dtype(), DType::Double);
  EXPECT_EQ(values_of<double>(r), (std::vector<double>{1.0, 2.0}));
}

TEST(RMSNormalizationOp, InvalidAxisOrScaleTraps) {
  auto x = tensor<float>({2, 2}, {3, 4, 0, 2});
  expect_trap([&] { run1("RMSNormalization", 23, {x, tensor<float>({2}, {1, 1})}, {attr_int("axis", 2)}); }, "axis");
  expect_trap([&] { run1("RMSNormalization", 23, {x, tensor<float>({3}, {1, 1, 1})}); }, "cannot be broadcast");
  // Broadcastable with X, but to a larger shape than X's.
  expect_trap([&] { run1("RMSNormalization", 23, {x, tensor<float>({2, 1, 1}, {1, 1})}); }, "does not broadcast");
}

// x (1, 4, 1, 2): channels {1, 3}, {5, 7}, {0, 0}, {2, 2}. With two groups, group 0 = {1, 3, 5, 7}
// (mean 4, variance 5) and group 1 = {0, 0, 2, 2} (mean 1, variance 1).
Value group_norm_input() { return tensor<float>({1, 4, 1, 2}, {1, 3, 5, 7, 0, 0, 2, 2}); }

TEST(GroupNormalizationOp, Version21ScalesPerChannel) {
  // Normalized: group 0 (x - 4) / sqrt 5 = {-1.3416408, -0.4472136, 0.4472136, 1.3416408}, group 1
  // {-1, -1, 1, 1}; scale {1, 2, 3, 4} and bias {0, 0, 1, -1} per channel.
  auto r = run1("GroupNormalization", 21,
                {group_norm_input(), tensor<float>({4}, {1, 2, 3, 4}), tensor<float>({4}, {0, 0, 1, -1})},
                {attr_int("num_groups", 2), attr_float("epsilon", 0)});
  EXPECT_EQ(r.tensor.shape(), (Shape{1, 4, 1, 2}));
  expect_floats_near(r, {-1.3416408f, -0.4472136f, 0.8944272f, 2.6832816f, -2, -2, 3, 3});
}

TEST(GroupNormalizationOp, Version18ScalesPerGroup) {
  // The same normalization; group 0 times 2 plus 1, group 1 unchanged.
  auto r = run1("GroupNormalization", 18, {group_norm_input(), tensor<float>({2}, {2, 1}), tensor<float>({2}, {1, 0})},
                {attr_int("num_groups", 2), attr_float("epsilon", 0)});
  expect_floats_near(r, {-1.6832816f, 0.1055728f, 1.8944272f, 3.6832816f, -1, -1, 1, 1});
}

TEST(GroupNormalizationOp, EpsilonEntersTheVariance) {
  // One group of {0, 2}: mean 1, variance 1, epsilon 3 -> divide by 2.
  auto r = run1("GroupNormalization", 21, {tensor<float>({1, 1, 2}, {0, 2}), tensor<float>({1}, {1}), tensor<float>({1}, {0})},
                {attr_int("num_groups", 1), attr_float("epsilon", 3)});
  expect_floats_near(r, {-0.5f, 0.5f});
}

TEST(GroupNormalizationOp, InvalidGroupsOrParametersTrap) {
  auto four = tensor<float>({4}, {1, 1, 1, 1});
  auto two = tensor<float>({2}, {1, 1});
  expect_trap(
      [&] {
        run1("GroupNormalization", 21, {group_norm_input(), four, four}, {attr_int("num_groups", 3)});
      },
      "num_groups");
  expect_trap([&] { run1("GroupNormalization", 21, {group_norm_input(), four, four}); }, "num_groups");
  expect_trap(
      [&] {
        run1("GroupNormalization", 21, {group_norm_input(), two, two}, {attr_int("num_groups", 2)});
      },
      "per channel");
  expect_trap(
      [&] {
        run1("GroupNormalization", 18, {group_norm_input(), four, four}, {attr_int("num_groups", 2)});
      },
      "per group");
}

// ---------------------------------------------------------------------------------------------
// RotaryEmbedding (23)

// Caches with rows (cos, sin) = ({1, 1}, {0, 0}) for position 0 and ({0, 0.5}, {1, 0.5}) for 1.
Value rope_cos() { return tensor<float>({2, 2}, {1, 1, 0, 0.5f}); }
Value rope_sin() { return tensor<float>({2, 2}, {0, 0, 1, 0.5f}); }

TEST(RotaryEmbeddingOp, HalvesRotatedAtThePositionsGiven) {
  // v = {1, 2, 3, 4} at position 1: pair (1, 3) with cos 0, sin 1 -> (-3, 1); pair (2, 4) with
  // cos = sin = 0.5 -> (1 - 2, 1 + 2) = (-1, 3).
  auto r = run1("RotaryEmbedding", 23,
                {tensor<float>({1, 1, 1, 4}, {1, 2, 3, 4}), rope_cos(), rope_sin(), tensor<int64_t>({1, 1}, {1})});
  expect_floats_near(r, {-3, -1, 1, 3});
}

TEST(RotaryEmbeddingOp, InterleavedPairs) {
  // Pairs (1, 2) -> (-2, 1) and (3, 4) -> (1.5 - 2, 1.5 + 2).
  auto r = run1("RotaryEmbedding", 23,
                {tensor<float>({1, 1, 1, 4}, {1, 2, 3, 4}), rope_cos(), rope_sin(), tensor<int64_t>({1, 1}, {1})},
                {attr_int("interleaved", 1)});
  expect_floats_near(r, {-2, 1, -0.5f, 3.5f});
}

TEST(RotaryEmbeddingOp, FourDimensionalLayoutIsBatchHeadsSequence) {
  // x (1, 2, 2, 2): heads 0 and 1, positions 0 and 1. Caches per (batch, position) without
  // position_ids: position 0 is the identity, position 1 rotates (a, b) to (-b, a).
  auto r = run1("RotaryEmbedding", 23,
                {tensor<float>({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}), tensor<float>({1, 2, 1}, {1, 0}),
                 tensor<float>({1, 2, 1}, {0, 1})});
  expect_floats_near(r, {1, 2, -4, 3, 5, 6, -8, 7});
}

TEST(RotaryEmbeddingOp, ThreeDimensionalInputWithHeads) {
  // x (1, 1, 4) with two heads of size 2, both rotated (a, b) -> (-b, a).
  auto r = run1("RotaryEmbedding", 23,
                {tensor<float>({1, 1, 4}, {1, 2, 3, 4}), tensor<float>({1, 1, 1}, {0}), tensor<float>({1, 1, 1}, {1})},
                {attr_int("num_heads", 2)});
  expect_floats_near(r, {-2, 1, -4, 3});
}

TEST(RotaryEmbeddingOp, PartialRotationCopiesTheRest) {
  // rotary_embedding_dim 2 of head size 4: only (1, 2) rotates.
  auto r = run1("RotaryEmbedding", 23,
                {tensor<float>({1, 1, 1, 4}, {1, 2, 3, 4}), tensor<float>({1, 1, 1}, {0}), tensor<float>({1, 1, 1}, {1})},
                {attr_int("rotary_embedding_dim", 2)});
  expect_floats_near(r, {-2, 1, 3, 4});
}

TEST(RotaryEmbeddingOp, InvalidInputsTrap) {
  auto x = tensor<float>({1, 1, 1, 4}, {1, 2, 3, 4});
  expect_trap(
      [&] {
        run1("RotaryEmbedding", 23, {x, rope_cos(), rope_sin(), tensor<int64_t>({1, 1}, {2})});
      },
      "outside the cache");
  expect_trap([&] { run1("RotaryEmbedding", 23, {x, rope_cos(), rope_sin()}); }, "without position_ids");
  expect_trap(
      [&] {
        run1("RotaryEmbedding", 23, {tensor<float>({1, 1, 4}, {1, 2, 3, 4}), rope_cos(), rope_sin()});
      },
      "num_heads");
  expect_trap(
      [&] {
        run1("RotaryEmbedding", 23, {x, rope_cos(), rope_sin(), tensor<int64_t>({1, 1}, {0})},
             {attr_int("rotary_embedding_dim", 3)});
      },
      "even");
}

// ---------------------------------------------------------------------------------------------
// AffineGrid (20)

TEST(AffineGridOp, IdentityGridCellCentres) {
  // H = 2, W = 3, align_corners 0: x = -1 + (2i + 1) / 3 = {-2/3, 0, 2/3}, y = {-0.5, 0.5}.
  auto r = run1("AffineGrid", 20, {tensor<float>({1, 2, 3}, {1, 0, 0, 0, 1, 0}), tensor<int64_t>({4}, {1, 1, 2, 3})});
  EXPECT_EQ(r.tensor.shape(), (Shape{1, 2, 3, 2}));
  float t = 2.0f / 3.0f;
  expect_floats_near(r, {-t, -0.5f, 0, -0.5f, t, -0.5f, -t, 0.5f, 0, 0.5f, t, 0.5f});
}

TEST(AffineGridOp, AlignCornersUsesTheCorners) {
  // x = {-1, 0, 1}, y = {-1, 1}.
  auto r = run1("AffineGrid", 20, {tensor<float>({1, 2, 3}, {1, 0, 0, 0, 1, 0}), tensor<int64_t>({4}, {1, 1, 2, 3})},
                {attr_int("align_corners", 1)});
  expect_floats_near(r, {-1, -1, 0, -1, 1, -1, -1, 1, 0, 1, 1, 1});
}

TEST(AffineGridOp, ThetaScalesAndTranslates) {
  // H = 1 (y = 0), W = 2 with corners (x = -1, 1); theta rows (2, 0, 0.5) and (0, 1, -1).
  auto r = run1("AffineGrid", 20, {tensor<float>({1, 2, 3}, {2, 0, 0.5f, 0, 1, -1}), tensor<int64_t>({4}, {1, 3, 1, 2})},
                {attr_int("align_corners", 1)});
  expect_floats_near(r, {-1.5f, -1, 2.5f, -1});
}

TEST(AffineGridOp, ThreeDimensionalGrid) {
  // D = 2 (z = -0.5, 0.5), H = W = 1 (x = y = 0); the identity keeps (x, y, z).
  auto r = run1("AffineGrid", 20,
                {tensor<double>({1, 3, 4}, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}), tensor<int64_t>({5}, {1, 1, 2, 1, 1})});
  EXPECT_EQ(r.tensor.shape(), (Shape{1, 2, 1, 1, 3}));
  EXPECT_EQ(values_of<double>(r), (std::vector<double>{0, 0, -0.5, 0, 0, 0.5}));
}

TEST(AffineGridOp, MismatchedThetaTraps) {
  expect_trap(
      [] {
        run1("AffineGrid", 20, {tensor<float>({1, 2, 3}, {1, 0, 0, 0, 1, 0}), tensor<int64_t>({5}, {1, 1, 2, 2, 2})});
      },
      "theta");
  expect_trap(
      [] {
        run1("AffineGrid", 20, {tensor<float>({1, 2, 3}, {1, 0, 0, 0, 1, 0}), tensor<int64_t>({3}, {1, 2, 2})});
      },
      "size");
}

// ---------------------------------------------------------------------------------------------
// Attention (23, 24)

Value zeros4(int64_t b, int64_t h, int64_t s, int64_t d) {
  return tensor<float>({b, h, s, d}, std::vector<float>(static_cast<size_t>(b * h * s * d), 0.0f));
}

TEST(AttentionOp, SoftmaxWeightsTheValues) {
  // Scores q . k with scale 1: {0, ln 3}; softmax {1/4, 3/4}; values {4, 0} and {0, 8} -> {1, 6}.
  auto r = run1("Attention", 23,
                {tensor<float>({1, 1, 1, 2}, {1, 0}), tensor<float>({1, 1, 2, 2}, {0, 0, 1.0986123f, 5}),
                 tensor<float>({1, 1, 2, 2}, {4, 0, 0, 8})},
                {attr_float("scale", 1.0f)});
  EXPECT_EQ(r.tensor.shape(), (Shape{1, 1, 1, 2}));
  expect_floats_near(r, {1, 6}, 1e-5f);
}

TEST(AttentionOp, CausalMaskHidesLaterKeys) {
  // Equal scores: row 0 sees key 0 only (value 2), row 1 both (mean 3).
  auto r = run1("Attention", 23, {zeros4(1, 1, 2, 1), zeros4(1, 1, 2, 1), tensor<float>({1, 1, 2, 1}, {2, 4})},
                {attr_int("is_causal", 1)});
  expect_floats_near(r, {2, 3});
}

TEST(AttentionOp, BooleanAndAdditiveMasks) {
  auto v = tensor<float>({1, 1, 2, 1}, {2, 4});
  // false hides key 0 for both query rows.
  auto b = run1("Attention", 23, {zeros4(1, 1, 2, 1), zeros4(1, 1, 2, 1), v, tensor<bool>({2}, {false, true})});
  expect_floats_near(b, {4, 4});
  // Adding {0, ln 3}: weights {1/4, 3/4}, 2/4 + 12/4 = 3.5.
  auto f = run1("Attention", 23, {zeros4(1, 1, 1, 1), zeros4(1, 1, 2, 1), v, tensor<float>({1, 2}, {0, 1.0986123f})});
  expect_floats_near(f, {3.5f}, 1e-6f);
  // A scalar mask adds the same value to every score: the weights stay equal.
  auto s = run1("Attention", 23, {zeros4(1, 1, 1, 1), zeros4(1, 1, 2, 1), v, Value(Tensor::scalar<float>(5))});
  expect_floats_near(s, {3});
}

TEST(AttentionOp, GroupedQueryHeadsShareKeyValueHeads) {
  // Four query heads over two key/value heads: heads 0, 1 read kv head 0 (value 10), 2, 3 kv head 1.
  auto r = run1("Attention", 23, {zeros4(1, 4, 1, 1), zeros4(1, 2, 1, 1), tensor<float>({1, 2, 1, 1}, {10, 20})});
  expect_floats_near(r, {10, 10, 20, 20});
}

TEST(AttentionOp, PastCachesAreConcatenated) {
  // past key/value {0}/{2} then new {0}/{4}: equal scores, Y = 3; causal with past length 1 lets
  // the one query see both keys.
  auto out = run_op("Attention", 23,
                    {zeros4(1, 1, 1, 1), zeros4(1, 1, 1, 1), tensor<float>({1, 1, 1, 1}, {4}), none(), zeros4(1, 1, 1, 1),
                     tensor<float>({1, 1, 1, 1}, {2})},
                    {attr_int("is_causal", 1)}, 3);
  expect_floats_near(out[0], {3});
  EXPECT_EQ(out[1].tensor.shape(), (Shape{1, 1, 2, 1}));
  expect_floats_near(out[2], {2, 4});
}

TEST(AttentionOp, ThreeDimensionalInputs) {
  // Q (1, 1, 2) as two heads of size 1, K and V (1, 2, 1) as one head; Y (1, 1, 2).
  auto r = run1("Attention", 23,
                {tensor<float>({1, 1, 2}, {0, 0}), tensor<float>({1, 2, 1}, {0, 0}), tensor<float>({1, 2, 1}, {2, 4})},
                {attr_int("q_num_heads", 2), attr_int("kv_num_heads", 1)});
  EXPECT_EQ(r.tensor.shape(), (Shape{1, 1, 2}));
  expect_floats_near(r, {3, 3});
}

TEST(AttentionOp, QkOutputModesAndSoftcap) {
  // Scores 2 * {1, 3} = {2, 6} (head size 1: scale 1); softcap 4: 4 tanh(x / 4) = {1.8484686,
  // 3.6205930}; mask {0, -1}: {1.8484686, 2.6205930}; softmax {0.3160197, 0.6839803}.
  std::vector<Value> in = {tensor<float>({1, 1, 1, 1}, {2}), tensor<float>({1, 1, 2, 1}, {1, 3}),
                           tensor<float>({1, 1, 2, 1}, {0, 1}), tensor<float>({2}, {0, -1})};
  auto run_mode = [&](int64_t mode) {
    return run_op("Attention", 23, in, {attr_float("softcap", 4), attr_int("qk_matmul_output_mode", mode)}, 4)[3];
  };
  expect_floats_near(run_mode(0), {2, 6}, 1e-6f);
  expect_floats_near(run_mode(1), {1.8484686f, 3.6205930f}, 1e-6f);
  expect_floats_near(run_mode(2), {1.8484686f, 2.6205930f}, 1e-6f);
  expect_floats_near(run_mode(3), {0.3160197f, 0.6839803f}, 1e-6f);
}

TEST(AttentionOp, Version24NonPaddedLengthsAndShortMasks) {
  // nonpad_kv_seqlen 2 hides the third key (value 100): mean of 2 and 4.
  auto v = tensor<float>({1, 1, 3, 1}, {2, 4, 100});
  auto r = run1("Attention", 24, {zeros4(1, 1, 1, 1), zeros4(1, 1, 3, 1), v, none(), none(), none(), tensor<int64_t>({1}, {2})});
  expect_floats_near(r, {3});
  // A mask of 2 columns for 3 keys is padded with -inf.
  auto m = run1("Attention", 24, {zeros4(1, 1, 1, 1), zeros4(1, 1, 3, 1), v, tensor<bool>({2}, {true, true})});
  expect_floats_near(m, {3});
}

TEST(AttentionOp, FullyMaskedRowIsNaN) {
  auto r = run1("Attention", 23, {zeros4(1, 1, 1, 1), zeros4(1, 1, 1, 1), zeros4(1, 1, 1, 1), tensor<bool>({1}, {false})});
  EXPECT_TRUE(std::isnan(values_of<float>(r)[0]));
}

TEST(AttentionOp, InconsistentInputsTrap) {
  expect_trap([] { run1("Attention", 23, {zeros4(1, 3, 1, 1), zeros4(1, 2, 1, 1), zeros4(1, 2, 1, 1)}); }, "multiple");
  expect_trap([] { run1("Attention", 23, {zeros4(1, 1, 1, 2), zeros4(1, 1, 1, 1), zeros4(1, 1, 1, 1)}); }, "inconsistent");
  expect_trap(
      [] {
        run1("Attention", 23, {zeros4(1, 1, 1, 1), zeros4(1, 1, 1, 1), zeros4(1, 1, 1, 1), none(), zeros4(1, 1, 1, 1)});
      },
      "together");
  expect_trap(
      [] {
        run1("Attention", 23,
             {tensor<float>({1, 1, 2}, {0, 0}), tensor<float>({1, 1, 2}, {0, 0}), tensor<float>({1, 1, 2}, {0, 0})});
      },
      "q_num_heads");
  expect_trap(
      [] {
        run1("Attention", 23,
             {zeros4(1, 1, 2, 1), zeros4(1, 1, 2, 1), zeros4(1, 1, 2, 1), tensor<bool>({3}, {true, true, true})});
      },
      "does not fit");
}

TEST(CumProdOp, TheSpecificationsExamples) {
  // Changelog.md CumProd-26: x = [1, 2, 3], axis 0.
  auto x = tensor<float>({3}, {1, 2, 3});
  auto axis = tensor<int64_t>({}, {0});
  auto run = [&](int64_t exclusive, int64_t reverse) {
    return values_of<float>(
        run_op("CumProd", 26, {x, axis}, {attr_int("exclusive", exclusive), attr_int("reverse", reverse)})[0]);
  };
  EXPECT_EQ(run(0, 0), (std::vector<float>{1, 2, 6}));
  EXPECT_EQ(run(1, 0), (std::vector<float>{1, 1, 2}));
  EXPECT_EQ(run(0, 1), (std::vector<float>{6, 6, 3}));
  EXPECT_EQ(run(1, 1), (std::vector<float>{6, 3, 1}));
  // Along axis 1 of [[2, 3], [4, 5]] with an int32 axis: [[2, 6], [4, 20]]; int64 products wrap.
  auto m = run_op("CumProd", 26, {tensor<int64_t>({2, 2}, {2, 3, 4, 5}), tensor<int32_t>({}, {1})});
  EXPECT_EQ(values_of<int64_t>(m[0]), (std::vector<int64_t>{2, 6, 4, 20}));
}

TEST(BitCastOp, KeepsBitsAndRefusesOtherWidths) {
  // 1.0f is 0x3F800000 = 1065353216; -2.0f is 0xC0000000 = -1073741824 as int32.
  auto f = run_op("BitCast", 26, {tensor<float>({2}, {1.f, -2.f})}, {attr_int("to", static_cast<int64_t>(DType::Int32))});
  EXPECT_EQ(values_of<int32_t>(f[0]), (std::vector<int32_t>{1065353216, -1073741824}));
  // int4 -1 is 0b1111 = uint4 15; uint4 8 (0b1000) is int4 -8.
  auto u = run_op("BitCast", 26, {tensor<int4_t>({1}, {{-1}})}, {attr_int("to", static_cast<int64_t>(DType::UInt4))});
  EXPECT_EQ(values_of<uint4_t>(u[0])[0].v, 15);
  auto s = run_op("BitCast", 26, {tensor<uint4_t>({1}, {{8}})}, {attr_int("to", static_cast<int64_t>(DType::Int4))});
  EXPECT_EQ(values_of<int4_t>(s[0])[0].v, -8);
  EXPECT_THROW(run_op("BitCast", 26, {tensor<float>({1}, {1.f})}, {attr_int("to", static_cast<int64_t>(DType::Int16))}), Trap);
  EXPECT_THROW(run_op("BitCast", 26, {tensor<uint8_t>({1}, {2})}, {attr_int("to", static_cast<int64_t>(DType::Bool))}), Trap);
}

}  // namespace
}  // namespace sonnx::testing
