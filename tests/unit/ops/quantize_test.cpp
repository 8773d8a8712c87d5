// The quantized operators: MatMulInteger, QLinearMatMul, ConvInteger, QLinearConv,
// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear. Expected values are worked out by hand
// from the operator definitions (the arithmetic is in the comments).
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

// ---------------------------------------------------------------------------------------------
// quantization

TEST(MatMulIntegerOp, ZeroPoints) {
  // (A - 1) = [[2,3],[4,5]]; B = [[1,-1],[2,0]] -> [[8,-2],[14,-4]].
  auto a = tensor<uint8_t>({2, 2}, {3, 4, 5, 6});
  auto b = tensor<int8_t>({2, 2}, {1, -1, 2, 0});
  auto out = run_op("MatMulInteger", 10, {a, b, tensor<uint8_t>({}, {1})});
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{8, -2, 14, -4}));
  // Per-row zero points [1, 2]: second row (3,4) -> [11, -3].
  auto row = run_op("MatMulInteger", 10, {a, b, tensor<uint8_t>({2}, {1, 2})});
  EXPECT_EQ(values_of<int32_t>(row[0]), (std::vector<int32_t>{8, -2, 11, -3}));
  // Per-column b zero points [1, -1]: B - zp = [[0,0],[1,1]]; A (no zp) = [[3,4],[5,6]].
  auto col = run_op("MatMulInteger", 10, {a, b, none(), tensor<int8_t>({2}, {1, -1})});
  EXPECT_EQ(values_of<int32_t>(col[0]), (std::vector<int32_t>{4, 4, 6, 6}));
}

TEST(QLinearMatMulOp, RoundsHalfToEven) {
  // a real = 0.5*[2,4] = [1,2]; b real = 1*([2,2]-1) = [1,1]; product 3.
  auto a = tensor<uint8_t>({1, 2}, {2, 4});
  auto b = tensor<uint8_t>({2, 1}, {2, 2});
  auto f = [&](float ys) {
    return run_op("QLinearMatMul", 10,
                  {a, tensor<float>({}, {0.5f}), tensor<uint8_t>({}, {0}), b, tensor<float>({}, {1}), tensor<uint8_t>({}, {1}),
                   tensor<float>({}, {ys}), tensor<uint8_t>({}, {10})});
  };
  EXPECT_EQ(values_of<uint8_t>(f(1)[0]), (std::vector<uint8_t>{13}));
  EXPECT_EQ(values_of<uint8_t>(f(2)[0]), (std::vector<uint8_t>{12}));       // 1.5 -> 2
  EXPECT_EQ(values_of<uint8_t>(f(0.01f)[0]), (std::vector<uint8_t>{255}));  // saturates
}

TEST(ConvIntegerOp, ZeroPointsAndPadding) {
  // x - 2 = [-1, 0, 1]; w - 1 = [1, 2]; pads 1,0: [0*1 + (-1)*2, -1*1 + 0*2, 0*1 + 1*2] = [-2, -1, 2].
  auto out = run_op("ConvInteger", 10,
                    {tensor<uint8_t>({1, 1, 3}, {1, 2, 3}), tensor<uint8_t>({1, 1, 2}, {2, 3}), tensor<uint8_t>({}, {2}),
                     tensor<uint8_t>({}, {1})},
                    {attr_ints("pads", {1, 0})});
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{-2, -1, 2}));
}

TEST(QLinearConvOp, PerChannelScales) {
  // x = [2,4] with scale 0.5; 1x1 kernels w = 2 (scale 1) and 4 (scale 0.5), zero points 0.
  // Channel 0: acc = [4, 8] + bias 2 = [6, 10], times 0.5*1 -> [3, 5].
  // Channel 1: acc = [8, 16], times 0.5*0.5 -> [2, 4]. y_scale 1, y_zero_point 0.
  auto out = run_op("QLinearConv", 10,
                    {tensor<uint8_t>({1, 1, 2}, {2, 4}), tensor<float>({}, {0.5f}), tensor<uint8_t>({}, {0}),
                     tensor<int8_t>({2, 1, 1}, {2, 4}), tensor<float>({2}, {1, 0.5f}), tensor<int8_t>({2}, {0, 0}),
                     tensor<float>({}, {1}), tensor<uint8_t>({}, {0}), tensor<int32_t>({2}, {2, 0})});
  EXPECT_EQ(values_of<uint8_t>(out[0]), (std::vector<uint8_t>{3, 5, 2, 4}));
}

TEST(QuantizeLinearOp, RoundHalfEvenAndSaturate) {
  auto u = run_op("QuantizeLinear", 13, {tensor<float>({6}, {0, 1, 2.5f, -1, 300, 1.5f}), tensor<float>({}, {1})});
  EXPECT_EQ(u[0].tensor.dtype(), DType::UInt8);
  EXPECT_EQ(values_of<uint8_t>(u[0]), (std::vector<uint8_t>{0, 1, 2, 0, 255, 2}));
  // int8, scale 2, zero point -1: 3/2 = 1.5 -> 2, -1 -> 1; -150 - 1 -> -128; 2.5 -> 2 - 1 = 1.
  auto s = run_op("QuantizeLinear", 10, {tensor<float>({3}, {3, -300, 5}), tensor<float>({}, {2}), tensor<int8_t>({}, {-1})});
  EXPECT_EQ(values_of<int8_t>(s[0]), (std::vector<int8_t>{1, -128, 1}));
  auto n = run_op("QuantizeLinear", 13, {tensor<float>({1}, {kNaN}), tensor<float>({}, {1})});
  EXPECT_EQ(values_of<uint8_t>(n[0]), (std::vector<uint8_t>{0}));
  auto i = run_op("QuantizeLinear", 13, {tensor<int32_t>({2}, {7, -7}), tensor<float>({}, {2}), tensor<int8_t>({}, {0})});
  EXPECT_EQ(values_of<int8_t>(i[0]), (std::vector<int8_t>{4, -4}));  // 3.5 -> 4, -3.5 -> -4
}

TEST(QuantizeLinearOp, PerAxis) {
  auto x = tensor<float>({2, 2}, {1, 2, 3, 4});
  auto a1 = run_op("QuantizeLinear", 13, {x, tensor<float>({2}, {1, 2}), tensor<uint8_t>({2}, {0, 10})});
  EXPECT_EQ(values_of<uint8_t>(a1[0]), (std::vector<uint8_t>{1, 11, 3, 12}));
  auto a0 = run_op("QuantizeLinear", 13, {x, tensor<float>({2}, {1, 2}), tensor<uint8_t>({2}, {0, 10})}, {attr_int("axis", 0)});
  EXPECT_EQ(values_of<uint8_t>(a0[0]), (std::vector<uint8_t>{1, 2, 12, 12}));  // 3/2 = 1.5 -> 2
  auto neg = run_op("QuantizeLinear", 13, {x, tensor<float>({2}, {1, 2}), tensor<uint8_t>({2}, {0, 10})},
                    {attr_int("axis", -2)});
  EXPECT_EQ(values_of<uint8_t>(neg[0]), (std::vector<uint8_t>{1, 2, 12, 12}));
  // Version 10 accepts only scalars.
  expect_trap([&] { run_op("QuantizeLinear", 10, {x, tensor<float>({2}, {1, 2})}); });
}

TEST(DequantizeLinearOp, Basic) {
  auto a = run_op("DequantizeLinear", 10,
                  {tensor<uint8_t>({3}, {0, 128, 255}), tensor<float>({}, {0.5f}), tensor<uint8_t>({}, {128})});
  expect_near(values_of<float>(a[0]), {-64, 0, 63.5f});
  auto b = run_op("DequantizeLinear", 13, {tensor<int32_t>({1}, {-5}), tensor<float>({}, {2})});
  expect_near(values_of<float>(b[0]), {-10});
  auto c = run_op("DequantizeLinear", 13,
                  {tensor<int8_t>({2, 2}, {1, 2, 3, 4}), tensor<float>({2}, {1, 10}), tensor<int8_t>({2}, {0, 1})},
                  {attr_int("axis", 0)});
  expect_near(values_of<float>(c[0]), {1, 2, 20, 30});
}

// ---------------------------------------------------------------------------------------------
// QuantizeLinear / DequantizeLinear 19-25 and QLinearMatMul-21

TEST(QuantizeLinearOp, BlockedScalesAndInt4Output) {
  // x [1, 4] in blocks of 2 along axis 1: scales [1, 2] and [0.5 ... ] per block, zp int4 [1, -2].
  // Block 0 (scale 2, zp 1): 3/2 = 1.5 -> 2 (ties to even) + 1 = 3; -20/2 = -10 + 1 = -9 -> -8.
  // Block 1 (scale 0.5, zp -2): 2.25/0.5 = 4.5 -> 4 - 2 = 2; 10/0.5 = 20 - 2 = 18 -> 7.
  auto x = tensor<float>({1, 4}, {3.f, -20.f, 2.25f, 10.f});
  auto scale = tensor<float>({1, 2}, {2.f, 0.5f});
  auto zp = tensor<int4_t>({1, 2}, {{1}, {-2}});
  auto out = run_op("QuantizeLinear", 21, {x, scale, zp}, {attr_int("axis", 1), attr_int("block_size", 2)});
  EXPECT_EQ(values_of<int4_t>(out[0]), (std::vector<int4_t>{{3}, {-8}, {2}, {7}}));
}

TEST(QuantizeLinearOp, Float8SaturatesOrNot) {
  // 1000 / 1 is beyond e4m3fn's largest finite value 448: saturate=1 gives 448 (0x7E), saturate=0
  // NaN (0x7F, e4m3fn has no infinity). 0.3 / 0.5 = 0.6 lies between 0.5625 (0x31) and 0.625
  // (0x32), nearer 0.625 (2^-1 * (1 + 2/8): exponent field 6, mantissa 2).
  auto x = tensor<float>({2}, {1000.f, 0.3f});
  auto zp = tensor<float8e4m3fn_t>({}, {{0}});
  auto sat = run_op("QuantizeLinear", 19, {x, tensor<float>({}, {1.f}), zp});
  EXPECT_EQ(values_of<float8e4m3fn_t>(sat[0])[0], float8e4m3fn_t{0x7E});
  auto nosat = run_op("QuantizeLinear", 19, {x, tensor<float>({}, {1.f}), zp}, {attr_int("saturate", 0)});
  EXPECT_EQ(values_of<float8e4m3fn_t>(nosat[0])[0], float8e4m3fn_t{0x7F});
  auto half = run_op("QuantizeLinear", 19, {x, tensor<float>({}, {0.5f}), zp});
  EXPECT_EQ(values_of<float8e4m3fn_t>(half[0])[1], float8e4m3fn_t{0x32});
}

TEST(QuantizeLinearOp, OutputDtypeWithoutZeroPointAndUInt2Range) {
  // output_dtype uint2 (25): 2.6 -> 3; 7 -> 3 (saturated); -1 -> 0.
  auto x = tensor<float>({3}, {2.6f, 7.f, -1.f});
  auto out = run_op("QuantizeLinear", 25, {x, tensor<float>({}, {1.f})}, {attr_int("output_dtype", 25)});
  EXPECT_EQ(values_of<uint2_t>(out[0]), (std::vector<uint2_t>{{3}, {3}, {0}}));
}

TEST(DequantizeLinearOp, BlockedInt4AndOutputDtype) {
  // x int4 [2, 2] blocked along axis 0 in blocks of 2: one scale 0.5 and zp -1 per column pair.
  // (x - zp) * scale: (3+1)*0.5 = 2, (-8+1)*0.5 = -3.5, (7+1)*0.25 = 2, (0+1)*0.25 = 0.25.
  auto x = tensor<int4_t>({2, 2}, {{3}, {7}, {-8}, {0}});
  auto scale = tensor<float>({1, 2}, {0.5f, 0.25f});
  auto zp = tensor<int4_t>({1, 2}, {{-1}, {-1}});
  auto out = run_op("DequantizeLinear", 21, {x, scale, zp}, {attr_int("axis", 0), attr_int("block_size", 2)});
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{2.f, 2.f, -3.5f, 0.25f}));
  // output_dtype float16 (23): the product rounds once into float16; 2049 * 1 -> 2048 (ties to even).
  auto wide = run_op("DequantizeLinear", 23, {tensor<int32_t>({1}, {2049}), tensor<float>({}, {1.f})},
                     {attr_int("output_dtype", static_cast<int64_t>(DType::Float16))});
  EXPECT_EQ(static_cast<float>(values_of<float16_t>(wide[0])[0]), 2048.f);
}

TEST(QLinearMatMulOp, Version21SaturatesInsteadOfWrapping) {
  // a - 0 = [-100, -100], b - 0 = [1, 1]^T: acc = -200; scales 1: y = -200 + 0 -> int8 -128.
  auto one = tensor<float>({}, {1.f});
  auto z = tensor<int8_t>({}, {0});
  auto out = run_op("QLinearMatMul", 21,
                    {tensor<int8_t>({1, 2}, {-100, -100}), one, z, tensor<int8_t>({2, 1}, {1, 1}), one, z, one, z});
  EXPECT_EQ(values_of<int8_t>(out[0]), (std::vector<int8_t>{-128}));
}

TEST(DynamicQuantizeLinearOp, RangeIncludesZero) {
  // lo = -1, hi = 3: scale 4/255, zero point round(63.75) = 64; -1 -> -63.75 -> -64 + 64 = 0;
  // 3 -> 191.25 -> 191 + 64 = 255.
  auto out = run_op("DynamicQuantizeLinear", 11, {tensor<float>({3}, {-1, 0, 3})}, {}, 3);
  EXPECT_EQ(values_of<uint8_t>(out[0]), (std::vector<uint8_t>{0, 64, 255}));
  EXPECT_EQ(values_of<float>(out[1])[0], 4.0f / 255.0f);
  EXPECT_EQ(values_of<uint8_t>(out[2])[0], 64);
  // All zeros: scale 0, everything 0.
  auto z = run_op("DynamicQuantizeLinear", 11, {tensor<float>({2}, {0, 0})}, {}, 3);
  EXPECT_EQ(values_of<uint8_t>(z[0]), (std::vector<uint8_t>{0, 0}));
  EXPECT_EQ(values_of<float>(z[1])[0], 0.0f);
}

}  // namespace
}  // namespace sonnx::testing
