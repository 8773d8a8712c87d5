// The numeric core (reference/ops/support/numeric.h): one rounding from double to the 16-bit
// floats, saturating casts, wrapping arithmetic, element counts; and the kernels that round their
// double accumulators (Conv, Gemm, Cast) through it.
//
// The rounding cases are values just above the midpoint between two neighbouring 16-bit floats,
// by less than float resolution: double → float lands exactly on the midpoint, and float → half
// then ties to even (down), while the correctly rounded double → half goes up.
#include <cmath>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

#include "sonnx/errors.h"
#include "reference/ops/support/numeric.h"
#include "tests/unit/op_test_util.h"

namespace sonnx {
namespace {

using namespace sonnx::testing;

// 1 + 2^-11 + 2^-30: the float16 neighbours of 1 are 1 and 1 + 2^-10 (midpoint 1 + 2^-11).
const double kAboveHalfMidpoint = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -30);
const uint16_t kHalfOne = 0x3C00, kHalfOneUp = 0x3C01;
// 1 + 2^-8 + 2^-30: the bfloat16 neighbours of 1 are 1 and 1 + 2^-7.
const double kAboveBfloatMidpoint = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30);
const uint16_t kBfloatOne = 0x3F80, kBfloatOneUp = 0x3F81;

TEST(NumericCore, TheTestValuesRoundDifferentlyThroughFloat) {
  // The premise of the tests below: rounding through float gives the other neighbour.
  EXPECT_EQ(float16_t(static_cast<float>(kAboveHalfMidpoint)).bits, kHalfOne);
  EXPECT_EQ(bfloat16_t(static_cast<float>(kAboveBfloatMidpoint)).bits, kBfloatOne);
}

TEST(NumericCore, RoundFromDoubleRoundsOnce) {
  EXPECT_EQ(support::round_from_double<float16_t>(kAboveHalfMidpoint).bits, kHalfOneUp);
  EXPECT_EQ(support::round_from_double<bfloat16_t>(kAboveBfloatMidpoint).bits, kBfloatOneUp);
  EXPECT_EQ(support::round_from_double<float16_t>(-kAboveHalfMidpoint).bits, 0x8000 | kHalfOneUp);
  // Exact midpoints still tie to even, and exact values stay.
  EXPECT_EQ(support::round_from_double<float16_t>(1.0 + std::ldexp(1.0, -11)).bits, kHalfOne);
  EXPECT_EQ(support::round_from_double<float16_t>(1.0).bits, kHalfOne);
}

TEST(NumericCore, ToStorageFromDoubleRoundsOnce) {
  EXPECT_EQ(support::to_storage<float16_t>(kAboveHalfMidpoint).bits, kHalfOneUp);
  EXPECT_EQ(support::to_storage<bfloat16_t>(kAboveBfloatMidpoint).bits, kBfloatOneUp);
  // From float the one rounding is float → half.
  EXPECT_EQ(support::to_storage<float16_t>(1.5f).bits, 0x3E00);
}

TEST(NumericCore, RoundToOddHandlesOverflowInfinityAndNaN) {
  EXPECT_EQ(support::float_round_to_odd(1e300), std::numeric_limits<float>::max());
  EXPECT_EQ(support::float_round_to_odd(-1e300), -std::numeric_limits<float>::max());
  EXPECT_TRUE(std::isinf(support::float_round_to_odd(std::numeric_limits<double>::infinity())));
  EXPECT_TRUE(std::isnan(support::float_round_to_odd(std::nan(""))));
  // Beyond the float range the 16-bit result is infinite, as rounding the double directly gives.
  EXPECT_TRUE(std::isinf(static_cast<float>(support::round_from_double<float16_t>(1e300))));
  EXPECT_TRUE(std::isinf(static_cast<float>(support::round_from_double<bfloat16_t>(1e300))));
  EXPECT_EQ(support::round_from_double<bfloat16_t>(1e38).bits, bfloat16_t(1e38f).bits);
}

TEST(NumericCore, SaturatingCastTruncatesSaturatesAndMapsNaNToZero) {
  EXPECT_EQ(support::saturating_cast<int8_t>(-3.9), -3);
  EXPECT_EQ(support::saturating_cast<int8_t>(1e9), 127);
  EXPECT_EQ(support::saturating_cast<int8_t>(-1e9), -128);
  EXPECT_EQ(support::saturating_cast<uint8_t>(-1.0), 0);
  EXPECT_EQ(support::saturating_cast<int64_t>(1e300), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(support::saturating_cast<int32_t>(std::nan("")), 0);
}

TEST(NumericCore, WrappingArithmeticIsTwosComplement) {
  EXPECT_EQ(support::wrap_add<int8_t>(127, 1), -128);
  EXPECT_EQ(support::wrap_sub<int8_t>(-128, 1), 127);
  EXPECT_EQ(support::wrap_mul<int16_t>(256, 256), 0);
  EXPECT_EQ(support::wrap_neg<int32_t>(std::numeric_limits<int32_t>::min()), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(support::wrap_mul<uint8_t>(16, 17), 16);
  EXPECT_EQ(support::wrap_add<int64_t>(std::numeric_limits<int64_t>::max(), 1), std::numeric_limits<int64_t>::min());
}

TEST(NumericCore, ElementCountOfARangeOfDims) {
  Shape s{2, 3, 4};
  EXPECT_EQ(support::element_count(s), 24);
  EXPECT_EQ(support::element_count(s, 1), 12);
  EXPECT_EQ(support::element_count(s, 0, 2), 6);
  EXPECT_EQ(support::element_count(s, 3), 1);
  EXPECT_EQ(support::element_count(s, 1, 99), 12);
  // A zero-sized tensor may have huge other dims; their product traps instead of overflowing.
  EXPECT_THROW(support::element_count(Shape{0, int64_t{1} << 40, int64_t{1} << 40}, 1), Trap);
}

// Kernels that accumulate in double and store float16: one rounding of the exact sum.
Value half_tensor(const Shape& shape, const std::vector<double>& v) {
  Tensor t(DType::Float16, shape);
  for (size_t i = 0; i < v.size(); ++i) t.data<float16_t>()[i] = float16_t(static_cast<float>(v[i]));
  return Value(std::move(t));
}

// 1 + 2^-11 + 2^-24, each term a float16 value: the exact sum lies above the float16 midpoint
// 1 + 2^-11 by less than half a float ulp, so float rounding would land on the midpoint.
const std::vector<double> kTerms{1.0, std::ldexp(1.0, -11), std::ldexp(1.0, -24)};

TEST(NumericCore, ConvRoundsItsDoubleSumOnceIntoFloat16) {
  Value x = half_tensor({1, 3, 1, 1}, kTerms);
  Value w = half_tensor({1, 3, 1, 1}, {1, 1, 1});
  auto y = run_op("Conv", 11, {x, w});
  EXPECT_EQ(y[0].tensor.data<float16_t>()[0].bits, kHalfOneUp);
}

TEST(NumericCore, GemmRoundsItsDoubleSumOnceIntoFloat16) {
  Value a = half_tensor({1, 3}, kTerms);
  Value b = half_tensor({3, 1}, {1, 1, 1});
  auto y = run_op("Gemm", 13, {a, b});
  EXPECT_EQ(y[0].tensor.data<float16_t>()[0].bits, kHalfOneUp);
}

TEST(NumericCore, CastFromDoubleRoundsOnceInto16BitFloats) {
  Value x = tensor<double>({2}, {kAboveHalfMidpoint, -kAboveHalfMidpoint});
  auto h = run_op("Cast", 13, {x}, {attr_int("to", static_cast<int64_t>(DType::Float16))});
  EXPECT_EQ(h[0].tensor.data<float16_t>()[0].bits, kHalfOneUp);
  EXPECT_EQ(h[0].tensor.data<float16_t>()[1].bits, 0x8000 | kHalfOneUp);
  Value xb = tensor<double>({1}, {kAboveBfloatMidpoint});
  auto b = run_op("Cast", 13, {xb}, {attr_int("to", static_cast<int64_t>(DType::BFloat16))});
  EXPECT_EQ(b[0].tensor.data<bfloat16_t>()[0].bits, kBfloatOneUp);
}

TEST(NumericCore, CastFromInt64RoundsOnceIntoBfloat16) {
  // 2^24 + 2^16 + 1 is exact in int64 and double but not in float: through float it lands on the
  // bfloat16 midpoint 2^24 + 2^16 and ties down to 2^24; rounded once it goes up to 2^24 + 2^17.
  int64_t v = (int64_t{1} << 24) + (int64_t{1} << 16) + 1;
  auto b = run_op("Cast", 13, {tensor<int64_t>({1}, {v})}, {attr_int("to", static_cast<int64_t>(DType::BFloat16))});
  EXPECT_EQ(static_cast<float>(b[0].tensor.data<bfloat16_t>()[0]), static_cast<float>((1 << 24) + (1 << 17)));
}

}  // namespace
}  // namespace sonnx
