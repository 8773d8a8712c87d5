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
  EXPECT_EQ(values_of<uint8_t>(f(2)[0]), (std::vector<uint8_t>{12}));      // 1.5 -> 2
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
  auto neg = run_op("QuantizeLinear", 13, {x, tensor<float>({2}, {1, 2}), tensor<uint8_t>({2}, {0, 10})}, {attr_int("axis", -2)});
  EXPECT_EQ(values_of<uint8_t>(neg[0]), (std::vector<uint8_t>{1, 2, 12, 12}));
  // Version 10 accepts only scalars.
  expect_trap([&] { run_op("QuantizeLinear", 10, {x, tensor<float>({2}, {1, 2})}); });
}

TEST(DequantizeLinearOp, Basic) {
  auto a = run_op("DequantizeLinear", 10, {tensor<uint8_t>({3}, {0, 128, 255}), tensor<float>({}, {0.5f}), tensor<uint8_t>({}, {128})});
  expect_near(values_of<float>(a[0]), {-64, 0, 63.5f});
  auto b = run_op("DequantizeLinear", 13, {tensor<int32_t>({1}, {-5}), tensor<float>({}, {2})});
  expect_near(values_of<float>(b[0]), {-10});
  auto c = run_op("DequantizeLinear", 13,
                  {tensor<int8_t>({2, 2}, {1, 2, 3, 4}), tensor<float>({2}, {1, 10}), tensor<int8_t>({2}, {0, 1})}, {attr_int("axis", 0)});
  expect_near(values_of<float>(c[0]), {1, 2, 20, 30});
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
