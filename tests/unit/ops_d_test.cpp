// Unit tests of the convolution, pooling, matrix-product, quantization, Resize/Upsample,
// GridSample, RoI and NonMaxSuppression kernels (group d). Expected values are worked out by hand
// from the operator definitions (the arithmetic is in the comments).
#include <cmath>
#include <limits>
#include <string>

#include "op_test_util.h"

namespace sonnx::testing {
namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();

void expect_near(const std::vector<float>& got, const std::vector<float>& want, float tol = 1e-5f) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "element " << i;
      continue;
    }
    EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
  }
}

std::vector<float> iota_f(int n, float start = 0) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = start + static_cast<float>(i);
  return v;
}

Value none() { return Value(); }

template <class F>
void expect_trap(F f) {
  EXPECT_THROW(f(), Trap);
}

// ---------------------------------------------------------------- Conv

TEST(OpsD_Conv, Basic2D) {
  // x = 0..8 as 3x3, 2x2 kernel of ones: sums of each 2x2 window.
  auto out = run_op("Conv", 11, {tensor<float>({1, 1, 3, 3}, iota_f(9)), tensor<float>({1, 1, 2, 2}, {1, 1, 1, 1})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1, 2, 2}));
  expect_near(values_of<float>(out[0]), {8, 12, 20, 24});
}

TEST(OpsD_Conv, PadsStridesBias) {
  // 3x3 ones kernel, pads 1, stride 2 over 0..8: windows centred on (0,0),(0,2),(2,0),(2,2).
  // (0,0): 0+1+3+4 = 8; (0,2): 1+2+4+5 = 12; (2,0): 3+4+6+7 = 20; (2,2): 4+5+7+8 = 24; bias +1.
  auto out = run_op("Conv", 11,
                    {tensor<float>({1, 1, 3, 3}, iota_f(9)), tensor<float>({1, 1, 3, 3}, std::vector<float>(9, 1)),
                     tensor<float>({1}, {1})},
                    {attr_ints("pads", {1, 1, 1, 1}), attr_ints("strides", {2, 2}), attr_ints("kernel_shape", {3, 3})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1, 2, 2}));
  expect_near(values_of<float>(out[0]), {9, 13, 21, 25});
}

TEST(OpsD_Conv, AsymmetricPads) {
  // 1-D, kernel [1,1], pads begin 2 end 0: out length 3+2-2+1 = 4: [0+0, 0+1, 1+2, 2+3].
  auto out = run_op("Conv", 11, {tensor<float>({1, 1, 3}, {1, 2, 3}), tensor<float>({1, 1, 2}, {1, 1})},
                    {attr_ints("pads", {2, 0})});
  expect_near(values_of<float>(out[0]), {0, 1, 3, 5});
}

TEST(OpsD_Conv, Groups1D) {
  // group=2: channel 0 with [1,1] -> [3,5]; channel 1 with [1,-1] -> [10-20, 20-30].
  auto out = run_op("Conv", 11, {tensor<float>({1, 2, 3}, {1, 2, 3, 10, 20, 30}), tensor<float>({2, 1, 2}, {1, 1, 1, -1})},
                    {attr_int("group", 2)});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 2, 2}));
  expect_near(values_of<float>(out[0]), {3, 5, -10, -10});
}

TEST(OpsD_Conv, DepthwiseMultiplier) {
  // group=1 channel in, 2 out channels per group (M=2, C=1, group=1) vs group=C depthwise with M=2C:
  // x channels [1,2],[3,4]; group=2, M=4: out ch0,1 use x ch0, out ch2,3 use x ch1; kernels 1x1 = 1,2,3,4.
  auto out = run_op("Conv", 11, {tensor<float>({1, 2, 2}, {1, 2, 3, 4}), tensor<float>({4, 1, 1}, {1, 2, 3, 4})},
                    {attr_int("group", 2)});
  expect_near(values_of<float>(out[0]), {1, 2, 2, 4, 9, 12, 12, 16});
}

TEST(OpsD_Conv, Dilations) {
  // kernel [1,1] with dilation 2 adds x[i] + x[i+2].
  auto out = run_op("Conv", 11, {tensor<float>({1, 1, 5}, {1, 2, 3, 4, 5}), tensor<float>({1, 1, 2}, {1, 1})},
                    {attr_ints("dilations", {2})});
  expect_near(values_of<float>(out[0]), {4, 6, 8});
}

TEST(OpsD_Conv, AutoPadSameUpperAndLower) {
  // length 4, kernel 2, stride 1: output 4, total padding 1: at the end (UPPER) or start (LOWER).
  auto x = tensor<float>({1, 1, 4}, {1, 2, 3, 4});
  auto w = tensor<float>({1, 1, 2}, {1, 1});
  auto up = run_op("Conv", 11, {x, w}, {attr_string("auto_pad", "SAME_UPPER")});
  expect_near(values_of<float>(up[0]), {3, 5, 7, 4});
  auto lo = run_op("Conv", 1, {x, w}, {attr_string("auto_pad", "SAME_LOWER")});
  expect_near(values_of<float>(lo[0]), {1, 3, 5, 7});
}

TEST(OpsD_Conv, AutoPadValidWithStride) {
  // VALID: ceil((5 - 3 + 1) / 2) = 2 outputs: 1+2+3, 3+4+5.
  auto out = run_op("Conv", 11, {tensor<float>({1, 1, 5}, {1, 2, 3, 4, 5}), tensor<float>({1, 1, 3}, {1, 1, 1})},
                    {attr_string("auto_pad", "VALID"), attr_ints("strides", {2})});
  expect_near(values_of<float>(out[0]), {6, 12});
}

TEST(OpsD_Conv, ThreeD) {
  auto out = run_op("Conv", 11, {tensor<float>({1, 1, 2, 2, 2}, iota_f(8, 1)), tensor<float>({1, 1, 2, 2, 2}, std::vector<float>(8, 1))});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1, 1, 1, 1}));
  expect_near(values_of<float>(out[0]), {36});
}

TEST(OpsD_Conv, Float16AndDouble) {
  auto h = run_op("Conv", 11, {tensor<float16_t>({1, 1, 2}, {float16_t(1.5f), float16_t(2.f)}), tensor<float16_t>({1, 1, 1}, {float16_t(2.f)})});
  EXPECT_EQ(static_cast<float>(values_of<float16_t>(h[0])[1]), 4.f);
  auto d = run_op("Conv", 11, {tensor<double>({1, 1, 2}, {1.25, 2}), tensor<double>({1, 1, 1}, {2})});
  EXPECT_EQ(values_of<double>(d[0]), (std::vector<double>{2.5, 4}));
}

TEST(OpsD_Conv, ZeroBatch) {
  auto out = run_op("Conv", 11, {tensor<float>({0, 1, 3, 3}, {}), tensor<float>({1, 1, 2, 2}, {1, 1, 1, 1})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{0, 1, 2, 2}));
}

TEST(OpsD_Conv, NaNPropagates) {
  auto out = run_op("Conv", 11, {tensor<float>({1, 1, 3}, {1, kNaN, 2}), tensor<float>({1, 1, 1}, {1})});
  auto v = values_of<float>(out[0]);
  EXPECT_EQ(v[0], 1.f);
  EXPECT_TRUE(std::isnan(v[1]));
}

TEST(OpsD_Conv, ChannelMismatchTraps) {
  expect_trap([] { run_op("Conv", 11, {tensor<float>({1, 2, 3}, iota_f(6)), tensor<float>({1, 1, 1}, {1})}); });
  expect_trap([] { run_op("Conv", 11, {tensor<float>({1, 1, 2}, {1, 2}), tensor<float>({1, 1, 3}, {1, 1, 1})}); });
}

// ---------------------------------------------------------------- ConvTranspose

TEST(OpsD_ConvTranspose, Basic1D) {
  // Each input spreads over three outputs: [1,1,1] + [0,2,2,2] = [1,3,3,2].
  auto out = run_op("ConvTranspose", 11, {tensor<float>({1, 1, 2}, {1, 2}), tensor<float>({1, 1, 3}, {1, 1, 1})});
  expect_near(values_of<float>(out[0]), {1, 3, 3, 2});
}

TEST(OpsD_ConvTranspose, StridePadsOutputPaddingBias) {
  auto x = tensor<float>({1, 1, 2}, {1, 2});
  auto w = tensor<float>({1, 1, 3}, {1, 1, 1});
  // stride 2: input 0 covers 0..2, input 1 covers 2..4: [1,1,3,2,2].
  auto a = run_op("ConvTranspose", 11, {x, w}, {attr_ints("strides", {2})});
  expect_near(values_of<float>(a[0]), {1, 1, 3, 2, 2});
  // pads 1,1 crop both ends.
  auto b = run_op("ConvTranspose", 11, {x, w}, {attr_ints("strides", {2}), attr_ints("pads", {1, 1})});
  expect_near(values_of<float>(b[0]), {1, 3, 2});
  // output_padding 1 appends one position nothing reaches; bias 0.5 everywhere.
  auto c = run_op("ConvTranspose", 11, {x, w, tensor<float>({1}, {0.5f})},
                  {attr_ints("strides", {2}), attr_ints("output_padding", {1})});
  expect_near(values_of<float>(c[0]), {1.5f, 1.5f, 3.5f, 2.5f, 2.5f, 0.5f});
}

TEST(OpsD_ConvTranspose, OutputShapeAndAutoPad) {
  auto x = tensor<float>({1, 1, 2}, {1, 2});
  auto w = tensor<float>({1, 1, 3}, {1, 1, 1});
  // Full output [1,1,3,2,2] (5). output_shape 6: total padding max(0, 5-6) = 0, one more zero at the end.
  auto a = run_op("ConvTranspose", 11, {x, w}, {attr_ints("strides", {2}), attr_ints("output_shape", {6})});
  expect_near(values_of<float>(a[0]), {1, 1, 3, 2, 2, 0});
  // output_shape 4: total 1; version 11 NOTSET puts total - total/2 = 1 at the beginning.
  auto b = run_op("ConvTranspose", 11, {x, w}, {attr_ints("strides", {2}), attr_ints("output_shape", {4})});
  expect_near(values_of<float>(b[0]), {1, 3, 2, 2});
  // version 1 puts total/2 = 0 at the beginning.
  auto c = run_op("ConvTranspose", 1, {x, w}, {attr_ints("strides", {2}), attr_ints("output_shape", {4})});
  expect_near(values_of<float>(c[0]), {1, 1, 3, 2});
  // SAME_UPPER: output 2*2 = 4, total 1, the odd one at the end; SAME_LOWER: at the start.
  auto d = run_op("ConvTranspose", 11, {x, w}, {attr_ints("strides", {2}), attr_string("auto_pad", "SAME_UPPER")});
  expect_near(values_of<float>(d[0]), {1, 1, 3, 2});
  auto e = run_op("ConvTranspose", 11, {x, w}, {attr_ints("strides", {2}), attr_string("auto_pad", "SAME_LOWER")});
  expect_near(values_of<float>(e[0]), {1, 3, 2, 2});
}

TEST(OpsD_ConvTranspose, GroupsAndDilations) {
  // group 2: x channels [1], [10]; W [C=2, M/group=1, 1] = 2, 3 -> out channels 2, 30.
  auto g = run_op("ConvTranspose", 11, {tensor<float>({1, 2, 1}, {1, 10}), tensor<float>({2, 1, 1}, {2, 3})},
                  {attr_int("group", 2)});
  expect_near(values_of<float>(g[0]), {2, 30});
  // dilation 2: kernel taps at 0 and 2: [1, 0, 2].
  auto d = run_op("ConvTranspose", 11, {tensor<float>({1, 1, 1}, {1}), tensor<float>({1, 1, 2}, {1, 2})},
                  {attr_ints("dilations", {2})});
  expect_near(values_of<float>(d[0]), {1, 0, 2});
}

TEST(OpsD_ConvTranspose, TwoD) {
  // x 1x1x2x2 = [[1,2],[3,4]], kernel 2x2 ones, stride 1: 3x3 output of overlapping sums.
  auto out = run_op("ConvTranspose", 11, {tensor<float>({1, 1, 2, 2}, {1, 2, 3, 4}), tensor<float>({1, 1, 2, 2}, {1, 1, 1, 1})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1, 3, 3}));
  expect_near(values_of<float>(out[0]), {1, 3, 2, 4, 10, 6, 3, 7, 4});
}

// ---------------------------------------------------------------- MaxPool

TEST(OpsD_MaxPool, IndicesRowAndColumnMajor) {
  // x = [[1,5,3],[4,2,6],[7,8,9]], 2x2 windows stride 1: maxima 5,6,8,9 at (0,1),(1,2),(2,1),(2,2).
  auto x = tensor<float>({1, 1, 3, 3}, {1, 5, 3, 4, 2, 6, 7, 8, 9});
  auto out = run_op("MaxPool", 12, {x}, {attr_ints("kernel_shape", {2, 2})}, 2);
  expect_near(values_of<float>(out[0]), {5, 6, 8, 9});
  EXPECT_EQ(values_of<int64_t>(out[1]), (std::vector<int64_t>{1, 5, 7, 8}));
  // Column-major: offset = col*3 + row.
  auto cm = run_op("MaxPool", 12, {x}, {attr_ints("kernel_shape", {2, 2}), attr_int("storage_order", 1)}, 2);
  EXPECT_EQ(values_of<int64_t>(cm[1]), (std::vector<int64_t>{3, 7, 5, 8}));
}

TEST(OpsD_MaxPool, IndicesIncludeBatchAndChannelOffset) {
  // 2 channels of length 2, kernel 2: the second channel's index is offset by 2.
  auto out = run_op("MaxPool", 12, {tensor<float>({1, 2, 2}, {1, 3, 7, 5})}, {attr_ints("kernel_shape", {2})}, 2);
  expect_near(values_of<float>(out[0]), {3, 7});
  EXPECT_EQ(values_of<int64_t>(out[1]), (std::vector<int64_t>{1, 2}));
}

TEST(OpsD_MaxPool, PaddingIsNotAValue) {
  // Negative inputs with padding: the pad never wins (results are not 0).
  auto out = run_op("MaxPool", 12, {tensor<float>({1, 1, 2}, {-3, -1})},
                    {attr_ints("kernel_shape", {2}), attr_ints("pads", {1, 1})});
  expect_near(values_of<float>(out[0]), {-3, -1, -1});
}

TEST(OpsD_MaxPool, CeilMode) {
  auto x = tensor<float>({1, 1, 5}, {1, 2, 3, 4, 5});
  auto fl = run_op("MaxPool", 12, {x}, {attr_ints("kernel_shape", {2}), attr_ints("strides", {2})});
  expect_near(values_of<float>(fl[0]), {2, 4});
  auto ce = run_op("MaxPool", 12, {x}, {attr_ints("kernel_shape", {2}), attr_ints("strides", {2}), attr_int("ceil_mode", 1)});
  expect_near(values_of<float>(ce[0]), {2, 4, 5});
  // in 3, pads 1,1, kernel 2, stride 2: ceil((3+2-2)/2)+1 = 3, but the third window would start
  // at 3 = in + pad_begin - 1 + 1, wholly in the end padding: dropped -> 2 outputs.
  auto dr = run_op("MaxPool", 12, {tensor<float>({1, 1, 3}, {1, 2, 3})},
                   {attr_ints("kernel_shape", {2}), attr_ints("strides", {2}), attr_ints("pads", {1, 1}), attr_int("ceil_mode", 1)});
  expect_near(values_of<float>(dr[0]), {1, 3});
}

TEST(OpsD_MaxPool, Dilations) {
  // kernel 2 dilation 2 pairs x[i], x[i+2]: {1,2},{5,4},{2,3}.
  auto out = run_op("MaxPool", 12, {tensor<float>({1, 1, 5}, {1, 5, 2, 4, 3})},
                    {attr_ints("kernel_shape", {2}), attr_ints("dilations", {2})}, 2);
  expect_near(values_of<float>(out[0]), {2, 5, 3});
  EXPECT_EQ(values_of<int64_t>(out[1]), (std::vector<int64_t>{2, 1, 4}));
}

TEST(OpsD_MaxPool, AutoPadSame) {
  // kernel 3 stride 2 over 5: out 3, total pad 2 -> 1 each side: {1,2},{2,3,4},{4,5}.
  auto a = run_op("MaxPool", 12, {tensor<float>({1, 1, 5}, {1, 2, 3, 4, 5})},
                  {attr_ints("kernel_shape", {3}), attr_ints("strides", {2}), attr_string("auto_pad", "SAME_UPPER")});
  expect_near(values_of<float>(a[0]), {2, 4, 5});
  // kernel 2 over [1,3,2]: total 1 at the end (UPPER) or start (LOWER).
  auto x = tensor<float>({1, 1, 3}, {1, 3, 2});
  auto up = run_op("MaxPool", 12, {x}, {attr_ints("kernel_shape", {2}), attr_string("auto_pad", "SAME_UPPER")});
  expect_near(values_of<float>(up[0]), {3, 3, 2});
  auto lo = run_op("MaxPool", 12, {x}, {attr_ints("kernel_shape", {2}), attr_string("auto_pad", "SAME_LOWER")});
  expect_near(values_of<float>(lo[0]), {1, 3, 3});
}

TEST(OpsD_MaxPool, NaNPropagatesAndIntegerTypes) {
  auto n = run_op("MaxPool", 12, {tensor<float>({1, 1, 3}, {1, kNaN, 3})}, {attr_ints("kernel_shape", {2})});
  auto v = values_of<float>(n[0]);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_TRUE(std::isnan(v[1]));
  auto u = run_op("MaxPool", 12, {tensor<uint8_t>({1, 1, 3}, {3, 7, 1})}, {attr_ints("kernel_shape", {2})});
  EXPECT_EQ(values_of<uint8_t>(u[0]), (std::vector<uint8_t>{7, 7}));
  auto i = run_op("MaxPool", 12, {tensor<int8_t>({1, 1, 3}, {-3, -7, -1})}, {attr_ints("kernel_shape", {2})});
  EXPECT_EQ(values_of<int8_t>(i[0]), (std::vector<int8_t>{-3, -1}));
}

TEST(OpsD_MaxPool, Version1) {
  auto out = run_op("MaxPool", 1, {tensor<float>({1, 1, 2, 2}, {1, 4, 3, 2})}, {attr_ints("kernel_shape", {2, 2})});
  expect_near(values_of<float>(out[0]), {4});
}

// ---------------------------------------------------------------- AveragePool

TEST(OpsD_AveragePool, CountIncludePad) {
  auto x = tensor<float>({1, 1, 4}, {1, 2, 3, 4});
  // Windows {pad,1},{1,2},{2,3},{3,4},{4,pad}.
  auto ex = run_op("AveragePool", 11, {x}, {attr_ints("kernel_shape", {2}), attr_ints("pads", {1, 1})});
  expect_near(values_of<float>(ex[0]), {1, 1.5f, 2.5f, 3.5f, 4});
  auto in = run_op("AveragePool", 11, {x}, {attr_ints("kernel_shape", {2}), attr_ints("pads", {1, 1}), attr_int("count_include_pad", 1)});
  expect_near(values_of<float>(in[0]), {0.5f, 1.5f, 2.5f, 3.5f, 2});
}

TEST(OpsD_AveragePool, CeilModeCountsOnlyRealWindow) {
  // Third window covers only x[4] (and one position past the end, which is not padding).
  auto out = run_op("AveragePool", 11, {tensor<float>({1, 1, 5}, {1, 2, 3, 4, 5})},
                    {attr_ints("kernel_shape", {2}), attr_ints("strides", {2}), attr_int("ceil_mode", 1), attr_int("count_include_pad", 1)});
  expect_near(values_of<float>(out[0]), {1.5f, 3.5f, 5});
}

TEST(OpsD_AveragePool, TwoDAndVersion1) {
  auto a = run_op("AveragePool", 1, {tensor<float>({1, 1, 2, 2}, {1, 2, 3, 4})}, {attr_ints("kernel_shape", {2, 2})});
  expect_near(values_of<float>(a[0]), {2.5f});
  // Version 1 never counts padding.
  auto b = run_op("AveragePool", 1, {tensor<float>({1, 1, 2}, {2, 4})}, {attr_ints("kernel_shape", {2}), attr_ints("pads", {1, 0})});
  expect_near(values_of<float>(b[0]), {2, 3});
}

TEST(OpsD_AveragePool, SameUpperExcludesPad) {
  // length 3, kernel 2: SAME_UPPER pads one at the end: {1,2},{2,3},{3} -> 1.5, 2.5, 3.
  auto out = run_op("AveragePool", 11, {tensor<float>({1, 1, 3}, {1, 2, 3})},
                    {attr_ints("kernel_shape", {2}), attr_string("auto_pad", "SAME_UPPER")});
  expect_near(values_of<float>(out[0]), {1.5f, 2.5f, 3});
}

// ---------------------------------------------------------------- LpPool and global pools

TEST(OpsD_LpPool, IntegerAndFloatP) {
  auto a = run_op("LpPool", 11, {tensor<float>({1, 1, 2}, {3, 4})}, {attr_ints("kernel_shape", {2})});
  expect_near(values_of<float>(a[0]), {5});
  auto b = run_op("LpPool", 1, {tensor<float>({1, 1, 2}, {-3, 4})}, {attr_ints("kernel_shape", {2}), attr_float("p", 1.0f)});
  expect_near(values_of<float>(b[0]), {7});
  auto c = run_op("LpPool", 2, {tensor<float>({1, 1, 3}, {1, 2, 2})}, {attr_ints("kernel_shape", {2}), attr_int("p", 3)});
  expect_near(values_of<float>(c[0]), {std::cbrt(9.f), std::cbrt(16.f)});
}

TEST(OpsD_GlobalPool, AverageMaxLp) {
  auto x = tensor<float>({1, 2, 2, 2}, {1, 2, 3, 4, -1, -2, -3, 6});
  auto avg = run_op("GlobalAveragePool", 1, {x});
  EXPECT_EQ(avg[0].tensor.shape(), (Shape{1, 2, 1, 1}));
  expect_near(values_of<float>(avg[0]), {2.5f, 0});
  auto mx = run_op("GlobalMaxPool", 1, {x});
  expect_near(values_of<float>(mx[0]), {4, 6});
  auto lp = run_op("GlobalLpPool", 2, {x});
  expect_near(values_of<float>(lp[0]), {std::sqrt(30.f), std::sqrt(50.f)});
  auto lp1 = run_op("GlobalLpPool", 1, {x}, {attr_float("p", 1.0f)});
  expect_near(values_of<float>(lp1[0]), {10, 12});
}

TEST(OpsD_GlobalPool, NaNAndOneD) {
  auto mx = run_op("GlobalMaxPool", 1, {tensor<float>({1, 1, 3}, {1, kNaN, 3})});
  EXPECT_TRUE(std::isnan(values_of<float>(mx[0])[0]));
  auto avg = run_op("GlobalAveragePool", 1, {tensor<float>({2, 1, 2}, {1, 2, 3, 5})});
  EXPECT_EQ(avg[0].tensor.shape(), (Shape{2, 1, 1}));
  expect_near(values_of<float>(avg[0]), {1.5f, 4});
}

// ---------------------------------------------------------------- MaxUnpool, MaxRoiPool, RoiAlign

TEST(OpsD_MaxUnpool, WithAndWithoutOutputShape) {
  auto x = tensor<float>({1, 1, 2, 2}, {1, 2, 3, 4});
  auto i = tensor<int64_t>({1, 1, 2, 2}, {5, 7, 13, 15});
  auto a = run_op("MaxUnpool", 11, {x, i}, {attr_ints("kernel_shape", {2, 2}), attr_ints("strides", {2, 2})});
  EXPECT_EQ(a[0].tensor.shape(), (Shape{1, 1, 4, 4}));
  expect_near(values_of<float>(a[0]), {0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4});
  // A 5x5 output: the indices keep their 4x4 meaning, the extra row and column are zeros.
  auto b = run_op("MaxUnpool", 11, {x, i, tensor<int64_t>({4}, {1, 1, 5, 5})},
                  {attr_ints("kernel_shape", {2, 2}), attr_ints("strides", {2, 2})});
  EXPECT_EQ(b[0].tensor.shape(), (Shape{1, 1, 5, 5}));
  std::vector<float> want(25, 0);
  want[6] = 1;
  want[8] = 2;
  want[16] = 3;
  want[18] = 4;
  expect_near(values_of<float>(b[0]), want);
}

TEST(OpsD_MaxUnpool, IndexOutOfRangeTraps) {
  expect_trap([] {
    run_op("MaxUnpool", 11, {tensor<float>({1, 1, 1}, {1}), tensor<int64_t>({1, 1, 1}, {2})}, {attr_ints("kernel_shape", {2})});
  });
}

TEST(OpsD_MaxRoiPool, Basic) {
  // x = 0..15 as 4x4, RoI covering the image, 2x2 bins of 2x2 pixels: maxima 5, 7, 13, 15.
  auto out = run_op("MaxRoiPool", 1, {tensor<float>({1, 1, 4, 4}, iota_f(16)), tensor<float>({1, 5}, {0, 0, 0, 3, 3})},
                    {attr_ints("pooled_shape", {2, 2})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1, 2, 2}));
  expect_near(values_of<float>(out[0]), {5, 7, 13, 15});
}

TEST(OpsD_RoiAlign, ModesAndCoordinateTransform) {
  // X = [[0,1],[2,3]] (bilinear: f(y,x) = 2y + x), RoI [0,0,1,1], one output bin.
  auto x = tensor<float>({1, 1, 2, 2}, {0, 1, 2, 3});
  auto rois = tensor<float>({1, 4}, {0, 0, 1, 1});
  auto b = tensor<int64_t>({1}, {0});
  // Version 10 (no half-pixel shift): one sample at (0.5, 0.5) -> 1.5.
  auto a = run_op("RoiAlign", 10, {x, rois, b}, {attr_int("sampling_ratio", 1)});
  expect_near(values_of<float>(a[0]), {1.5f});
  // Version 16 default half_pixel: RoI shifted to [-0.5, 0.5]; sample at (0, 0) -> 0.
  auto h = run_op("RoiAlign", 16, {x, rois, b}, {attr_int("sampling_ratio", 1)});
  expect_near(values_of<float>(h[0]), {0});
  // 2x2 samples at 0.25 / 0.75: values 0.75, 1.25, 1.75, 2.25 -> avg 1.5.
  // max takes per sample the largest weighted corner w_i * X_i: at (0.75, 0.75) the weights are
  // 1/16, 3/16, 3/16, 9/16 on 0, 1, 2, 3 -> 27/16 = 1.6875, the largest over the samples.
  auto avg = run_op("RoiAlign", 16, {x, rois, b},
                    {attr_int("sampling_ratio", 2), attr_string("coordinate_transformation_mode", "output_half_pixel")});
  expect_near(values_of<float>(avg[0]), {1.5f});
  auto mx = run_op("RoiAlign", 16, {x, rois, b},
                   {attr_int("sampling_ratio", 2), attr_string("coordinate_transformation_mode", "output_half_pixel"),
                    attr_string("mode", "max")});
  expect_near(values_of<float>(mx[0]), {1.6875f});
}

TEST(OpsD_RoiAlign, BadBatchIndexTraps) {
  expect_trap([] {
    run_op("RoiAlign", 16, {tensor<float>({1, 1, 2, 2}, {0, 1, 2, 3}), tensor<float>({1, 4}, {0, 0, 1, 1}), tensor<int64_t>({1}, {1})});
  });
}

// ---------------------------------------------------------------- Gemm and MatMul

TEST(OpsD_Gemm, AlphaBetaBroadcastTranspose) {
  // A = [[1,2,3],[4,5,6]], B = [[1,0],[0,1],[1,1]] -> AB = [[4,5],[10,11]];
  // 2*AB + 0.5*[1,2] = [[8.5,11],[20.5,23]].
  std::vector<onnx::AttributeProto> ab = {attr_float("alpha", 2), attr_float("beta", 0.5f)};
  auto a = run_op("Gemm", 13,
                  {tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6}), tensor<float>({3, 2}, {1, 0, 0, 1, 1, 1}), tensor<float>({2}, {1, 2})}, ab);
  expect_near(values_of<float>(a[0]), {8.5f, 11, 20.5f, 23});
  // Same with A and B stored transposed.
  ab.push_back(attr_int("transA", 1));
  ab.push_back(attr_int("transB", 1));
  auto t = run_op("Gemm", 13,
                  {tensor<float>({3, 2}, {1, 4, 2, 5, 3, 6}), tensor<float>({2, 3}, {1, 0, 1, 0, 1, 1}), tensor<float>({2}, {1, 2})}, ab);
  expect_near(values_of<float>(t[0]), {8.5f, 11, 20.5f, 23});
  // A column C [2,1] broadcasts along rows.
  auto c = run_op("Gemm", 13,
                  {tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6}), tensor<float>({3, 2}, {1, 0, 0, 1, 1, 1}), tensor<float>({2, 1}, {1, 2})});
  expect_near(values_of<float>(c[0]), {5, 6, 12, 13});
}

TEST(OpsD_Gemm, OptionalCAndLegacyBroadcast) {
  auto a = tensor<float>({1, 2}, {1, 2});
  auto b = tensor<float>({2, 2}, {1, 2, 3, 4});
  auto no_c = run_op("Gemm", 11, {a, b});
  expect_near(values_of<float>(no_c[0]), {7, 10});
  auto legacy = run_op("Gemm", 6, {a, b, tensor<float>({1}, {1})}, {attr_int("broadcast", 1)});
  expect_near(values_of<float>(legacy[0]), {8, 11});
  expect_trap([&] { run_op("Gemm", 6, {a, b, tensor<float>({1}, {1})}); });
  auto v7 = run_op("Gemm", 7, {a, b, tensor<float>({1}, {1})});
  expect_near(values_of<float>(v7[0]), {8, 11});
  expect_trap([&] { run_op("Gemm", 13, {a, b, tensor<float>({3}, {1, 2, 3})}); });
}

TEST(OpsD_Gemm, IntegerWraps) {
  auto out = run_op("Gemm", 13, {tensor<int32_t>({1, 1}, {std::numeric_limits<int32_t>::max()}), tensor<int32_t>({1, 1}, {2}),
                                 tensor<int32_t>({1}, {3})});
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{1}));  // 2*(2^31-1) = -2 (mod 2^32), + 3
}

TEST(OpsD_MatMul, NumpySemantics) {
  // 2-D
  auto m = run_op("MatMul", 13, {tensor<float>({2, 2}, {1, 2, 3, 4}), tensor<float>({2, 1}, {1, 1})});
  EXPECT_EQ(m[0].tensor.shape(), (Shape{2, 1}));
  expect_near(values_of<float>(m[0]), {3, 7});
  // 1-D x 1-D: a scalar.
  auto d = run_op("MatMul", 13, {tensor<float>({3}, {1, 2, 3}), tensor<float>({3}, {4, 5, 6})});
  EXPECT_EQ(d[0].tensor.shape(), (Shape{}));
  expect_near(values_of<float>(d[0]), {32});
  // 1-D x 2-D and 2-D x 1-D.
  auto vm = run_op("MatMul", 13, {tensor<float>({2}, {1, 1}), tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(vm[0].tensor.shape(), (Shape{3}));
  expect_near(values_of<float>(vm[0]), {5, 7, 9});
  auto mv = run_op("MatMul", 13, {tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6}), tensor<float>({3}, {1, 0, 1})});
  EXPECT_EQ(mv[0].tensor.shape(), (Shape{2}));
  expect_near(values_of<float>(mv[0]), {4, 10});
}

TEST(OpsD_MatMul, BatchBroadcast) {
  // A [2,1,2] (two row vectors) times B [2,1]: [[[3]],[[7]]].
  auto a = run_op("MatMul", 13, {tensor<float>({2, 1, 2}, {1, 2, 3, 4}), tensor<float>({2, 1}, {1, 1})});
  EXPECT_EQ(a[0].tensor.shape(), (Shape{2, 1, 1}));
  expect_near(values_of<float>(a[0]), {3, 7});
  // A [2,1,1,2] x B [3,2,1] -> [2,3,1,1]; B's matrices are [1,1],[1,0],[0,1] (columns).
  auto b = run_op("MatMul", 13, {tensor<float>({2, 1, 1, 2}, {1, 2, 3, 4}), tensor<float>({3, 2, 1}, {1, 1, 1, 0, 0, 1})});
  EXPECT_EQ(b[0].tensor.shape(), (Shape{2, 3, 1, 1}));
  expect_near(values_of<float>(b[0]), {3, 1, 2, 7, 3, 4});
}

TEST(OpsD_MatMul, ZeroInnerDimensionAndIntegers) {
  auto z = run_op("MatMul", 13, {tensor<float>({2, 0}, {}), tensor<float>({0, 3}, {})});
  EXPECT_EQ(z[0].tensor.shape(), (Shape{2, 3}));
  expect_near(values_of<float>(z[0]), std::vector<float>(6, 0));
  auto i = run_op("MatMul", 13, {tensor<int32_t>({1}, {std::numeric_limits<int32_t>::max()}), tensor<int32_t>({1}, {2})});
  EXPECT_EQ(values_of<int32_t>(i[0]), (std::vector<int32_t>{-2}));
  auto u = run_op("MatMul", 13, {tensor<uint64_t>({1, 1}, {5}), tensor<uint64_t>({1, 1}, {7})});
  EXPECT_EQ(values_of<uint64_t>(u[0]), (std::vector<uint64_t>{35}));
  expect_trap([] { run_op("MatMul", 13, {tensor<float>({2, 3}, iota_f(6)), tensor<float>({2, 3}, iota_f(6))}); });
}

// ---------------------------------------------------------------- quantization

TEST(OpsD_MatMulInteger, ZeroPoints) {
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

TEST(OpsD_QLinearMatMul, RoundsHalfToEven) {
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

TEST(OpsD_ConvInteger, ZeroPointsAndPadding) {
  // x - 2 = [-1, 0, 1]; w - 1 = [1, 2]; pads 1,0: [0*1 + (-1)*2, -1*1 + 0*2, 0*1 + 1*2] = [-2, -1, 2].
  auto out = run_op("ConvInteger", 10,
                    {tensor<uint8_t>({1, 1, 3}, {1, 2, 3}), tensor<uint8_t>({1, 1, 2}, {2, 3}), tensor<uint8_t>({}, {2}),
                     tensor<uint8_t>({}, {1})},
                    {attr_ints("pads", {1, 0})});
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{-2, -1, 2}));
}

TEST(OpsD_QLinearConv, PerChannelScales) {
  // x = [2,4] with scale 0.5; 1x1 kernels w = 2 (scale 1) and 4 (scale 0.5), zero points 0.
  // Channel 0: acc = [4, 8] + bias 2 = [6, 10], times 0.5*1 -> [3, 5].
  // Channel 1: acc = [8, 16], times 0.5*0.5 -> [2, 4]. y_scale 1, y_zero_point 0.
  auto out = run_op("QLinearConv", 10,
                    {tensor<uint8_t>({1, 1, 2}, {2, 4}), tensor<float>({}, {0.5f}), tensor<uint8_t>({}, {0}),
                     tensor<int8_t>({2, 1, 1}, {2, 4}), tensor<float>({2}, {1, 0.5f}), tensor<int8_t>({2}, {0, 0}),
                     tensor<float>({}, {1}), tensor<uint8_t>({}, {0}), tensor<int32_t>({2}, {2, 0})});
  EXPECT_EQ(values_of<uint8_t>(out[0]), (std::vector<uint8_t>{3, 5, 2, 4}));
}

TEST(OpsD_QuantizeLinear, RoundHalfEvenAndSaturate) {
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

TEST(OpsD_QuantizeLinear, PerAxis) {
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

TEST(OpsD_DequantizeLinear, Basic) {
  auto a = run_op("DequantizeLinear", 10, {tensor<uint8_t>({3}, {0, 128, 255}), tensor<float>({}, {0.5f}), tensor<uint8_t>({}, {128})});
  expect_near(values_of<float>(a[0]), {-64, 0, 63.5f});
  auto b = run_op("DequantizeLinear", 13, {tensor<int32_t>({1}, {-5}), tensor<float>({}, {2})});
  expect_near(values_of<float>(b[0]), {-10});
  auto c = run_op("DequantizeLinear", 13,
                  {tensor<int8_t>({2, 2}, {1, 2, 3, 4}), tensor<float>({2}, {1, 10}), tensor<int8_t>({2}, {0, 1})}, {attr_int("axis", 0)});
  expect_near(values_of<float>(c[0]), {1, 2, 20, 30});
}

TEST(OpsD_DynamicQuantizeLinear, RangeIncludesZero) {
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

// ---------------------------------------------------------------- Resize and Upsample

TEST(OpsD_Resize, NearestUpsampleHalfPixel) {
  auto out = run_op("Resize", 13, {tensor<float>({1, 1, 2, 2}, {1, 2, 3, 4}), none(), tensor<float>({4}, {1, 1, 2, 2})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1, 4, 4}));
  expect_near(values_of<float>(out[0]), {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
}

TEST(OpsD_Resize, LinearHalfPixelAndAlignCorners) {
  // half_pixel, scale 2: x_original = o/2 - 0.25 -> -0.25, 0.25, 0.75, 1.25 -> [1, 1.5, 2.5, 3].
  auto a = run_op("Resize", 13, {tensor<float>({2}, {1, 3}), none(), tensor<float>({1}, {2})}, {attr_string("mode", "linear")});
  expect_near(values_of<float>(a[0]), {1, 1.5f, 2.5f, 3});
  // align_corners, sizes 3: x_original = 0, 0.5, 1.
  auto b = run_op("Resize", 13, {tensor<float>({2}, {1, 3}), none(), none(), tensor<int64_t>({1}, {3})},
                  {attr_string("mode", "linear"), attr_string("coordinate_transformation_mode", "align_corners")});
  expect_near(values_of<float>(b[0]), {1, 2, 3});
}

TEST(OpsD_Resize, NearestModesAndAsymmetric) {
  auto x = tensor<float>({4}, {1, 2, 3, 4});
  // asymmetric, scale 0.5: x_original 0, 2.
  auto a = run_op("Resize", 13, {x, none(), tensor<float>({1}, {0.5f})}, {attr_string("coordinate_transformation_mode", "asymmetric")});
  expect_near(values_of<float>(a[0]), {1, 3});
  // asymmetric, sizes 8 (scale 2): x_original = o/2; round_prefer_ceil rounds 0.5 up, default floor-preferring down.
  auto up = [&](const char* nm) {
    return values_of<float>(run_op("Resize", 13, {x, none(), none(), tensor<int64_t>({1}, {8})},
                                   {attr_string("coordinate_transformation_mode", "asymmetric"), attr_string("nearest_mode", nm)})[0]);
  };
  expect_near(up("round_prefer_floor"), {1, 1, 2, 2, 3, 3, 4, 4});
  expect_near(up("round_prefer_ceil"), {1, 2, 2, 3, 3, 4, 4, 4});
  expect_near(up("floor"), {1, 1, 2, 2, 3, 3, 4, 4});
  expect_near(up("ceil"), {1, 2, 2, 3, 3, 4, 4, 4});
}

TEST(OpsD_Resize, CubicWeightsAndExcludeOutside) {
  // A = -0.75: W(0.5) = 0.59375, W(1.5) = -0.09375. asymmetric scale 2 on [1,2,4,8]:
  // o=3 -> x=1.5: -0.09375*1 + 0.59375*2 + 0.59375*4 - 0.09375*8 = 2.71875.
  // o=1 -> x=0.5: taps -1(edge->1), 0, 1, 2: -0.09375 + 0.59375 + 1.1875 - 0.375 = 1.3125;
  // with exclude_outside the tap at -1 drops and the rest renormalise: 1.40625 / 1.09375 = 9/7.
  auto x = tensor<float>({4}, {1, 2, 4, 8});
  std::vector<onnx::AttributeProto> at = {attr_string("mode", "cubic"), attr_string("coordinate_transformation_mode", "asymmetric")};
  auto a = values_of<float>(run_op("Resize", 13, {x, none(), tensor<float>({1}, {2})}, at)[0]);
  ASSERT_EQ(a.size(), 8u);
  EXPECT_NEAR(a[0], 1, 1e-6);
  EXPECT_NEAR(a[1], 1.3125, 1e-6);
  EXPECT_NEAR(a[2], 2, 1e-6);
  EXPECT_NEAR(a[3], 2.71875, 1e-6);
  at.push_back(attr_int("exclude_outside", 1));
  auto b = values_of<float>(run_op("Resize", 13, {x, none(), tensor<float>({1}, {2})}, at)[0]);
  EXPECT_NEAR(b[1], 9.0 / 7.0, 1e-6);
  // cubic_coeff_a = -0.5: W(0.5) = 0.5625, W(1.5) = -0.0625 -> at x=1.5: -0.0625 + 1.125 + 2.25 - 0.5 = 2.8125.
  at.pop_back();
  at.push_back(attr_float("cubic_coeff_a", -0.5f));
  auto c = values_of<float>(run_op("Resize", 13, {x, none(), tensor<float>({1}, {2})}, at)[0]);
  EXPECT_NEAR(c[3], 2.8125, 1e-6);
}

TEST(OpsD_Resize, TfCropAndResize) {
  auto x = tensor<float>({4}, {1, 2, 3, 4});
  std::vector<onnx::AttributeProto> at = {attr_string("mode", "linear"), attr_string("coordinate_transformation_mode", "tf_crop_and_resize"),
                                          attr_float("extrapolation_value", 10)};
  // roi [0,1]: x_original = 0, 1.5, 3.
  auto a = run_op("Resize", 13, {x, tensor<float>({2}, {0, 1}), none(), tensor<int64_t>({1}, {3})}, at);
  expect_near(values_of<float>(a[0]), {1, 2.5f, 4});
  // roi [0.5, 1.5]: x_original = 1.5, 3, 4.5 (outside -> extrapolation_value).
  auto b = run_op("Resize", 13, {x, tensor<float>({2}, {0.5f, 1.5f}), none(), tensor<int64_t>({1}, {3})}, at);
  expect_near(values_of<float>(b[0]), {2.5f, 4, 10});
}

TEST(OpsD_Resize, Version10And11) {
  // Version 10: asymmetric, nearest downsampling takes ceil: x_original 0, 1/0.6 = 1.67 -> 2.
  auto a = run_op("Resize", 10, {tensor<float>({1, 1, 1, 4}, {1, 2, 3, 4}), tensor<float>({4}, {1, 1, 1, 0.6f})});
  expect_near(values_of<float>(a[0]), {1, 3});
  // Version 11: empty scales with sizes.
  auto b = run_op("Resize", 11, {tensor<float>({2}, {1, 3}), tensor<float>({0}, {}), tensor<float>({0}, {}), tensor<int64_t>({1}, {4})});
  expect_near(values_of<float>(b[0]), {1, 1, 3, 3});
  expect_trap([] {
    run_op("Resize", 13, {tensor<float>({2}, {1, 3}), none(), tensor<float>({1}, {2}), tensor<int64_t>({1}, {4})});
  });
}

TEST(OpsD_Resize, NearestAnyType) {
  auto s = run_op("Resize", 13, {tensor<std::string>({2}, {"a", "b"}), none(), tensor<float>({1}, {2})});
  EXPECT_EQ(values_of<std::string>(s[0]), (std::vector<std::string>{"a", "a", "b", "b"}));
  auto i = run_op("Resize", 13, {tensor<int64_t>({2}, {5, 7}), none(), none(), tensor<int64_t>({1}, {3})},
                  {attr_string("mode", "linear"), attr_string("coordinate_transformation_mode", "align_corners")});
  EXPECT_EQ(values_of<int64_t>(i[0]), (std::vector<int64_t>{5, 6, 7}));
}

TEST(OpsD_Upsample, Versions) {
  auto x = tensor<float>({1, 1, 2, 2}, {1, 2, 3, 4});
  auto a = run_op("Upsample", 9, {x, tensor<float>({4}, {1, 1, 2, 2})});
  expect_near(values_of<float>(a[0]), {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
  // linear, asymmetric: x_original 0, 0.5, 1, 1.5 -> [1, 2, 3, 3].
  auto b = run_op("Upsample", 7, {tensor<float>({2}, {1, 3})}, {attr_floats("scales", {2}), attr_string("mode", "linear")});
  expect_near(values_of<float>(b[0]), {1, 2, 3, 3});
  auto c = run_op("Upsample", 1, {tensor<float>({1, 1, 1, 2}, {1, 3})},
                  {attr_float("height_scale", 1), attr_float("width_scale", 2), attr_string("mode", "bilinear")});
  expect_near(values_of<float>(c[0]), {1, 2, 3, 3});
}

// ---------------------------------------------------------------- GridSample

TEST(OpsD_GridSample, ModesAndPadding) {
  auto x = tensor<float>({1, 1, 2, 2}, {1, 2, 3, 4});
  auto grid = [](float gx, float gy) { return tensor<float>({1, 1, 1, 2}, {gx, gy}); };
  auto run = [&](float gx, float gy, std::vector<onnx::AttributeProto> at) {
    return values_of<float>(run_op("GridSample", 16, {x, grid(gx, gy)}, at)[0])[0];
  };
  // The centre is the average of the four pixels with either alignment.
  EXPECT_NEAR(run(0, 0, {}), 2.5, 1e-6);
  EXPECT_NEAR(run(0, 0, {attr_int("align_corners", 1)}), 2.5, 1e-6);
  // (-1,-1): a pixel centre with align_corners=1; the outer corner (-0.5,-0.5) otherwise, where zeros
  // padding leaves a quarter of pixel (0,0).
  EXPECT_NEAR(run(-1, -1, {attr_int("align_corners", 1)}), 1, 1e-6);
  EXPECT_NEAR(run(-1, -1, {}), 0.25, 1e-6);
  EXPECT_NEAR(run(-1, -1, {attr_string("padding_mode", "border")}), 1, 1e-6);
  EXPECT_NEAR(run(-1, -1, {attr_string("padding_mode", "reflection")}), 1, 1e-6);
  // nearest at (1,1): pixel coordinate 1.5 rounds (to even) to 2, outside; border clamps to 1 first.
  EXPECT_NEAR(run(1, 1, {attr_string("mode", "nearest")}), 0, 1e-6);
  EXPECT_NEAR(run(1, 1, {attr_string("mode", "nearest"), attr_string("padding_mode", "border")}), 4, 1e-6);
  // bicubic at a pixel centre reproduces the pixel.
  EXPECT_NEAR(run(-1, -1, {attr_string("mode", "bicubic"), attr_int("align_corners", 1)}), 1, 1e-6);
}

// ---------------------------------------------------------------- NonMaxSuppression

TEST(OpsD_NonMaxSuppression, SelectsGreedily) {
  // box1 overlaps box0 with IoU 0.9/1.1 > 0.5; box2 is far away.
  auto boxes = tensor<float>({1, 3, 4}, {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 10, 1, 11});
  auto scores = tensor<float>({1, 1, 3}, {0.9f, 0.8f, 0.7f});
  auto run = [&](int64_t max_out, std::vector<Value> extra) {
    std::vector<Value> in = {boxes, scores, tensor<int64_t>({1}, {max_out})};
    for (auto& v : extra) in.push_back(v);
    return run_op("NonMaxSuppression", 11, in);
  };
  auto a = run(3, {tensor<float>({1}, {0.5f})});
  EXPECT_EQ(a[0].tensor.shape(), (Shape{2, 3}));
  EXPECT_EQ(values_of<int64_t>(a[0]), (std::vector<int64_t>{0, 0, 0, 0, 0, 2}));
  auto b = run(1, {tensor<float>({1}, {0.5f})});
  EXPECT_EQ(values_of<int64_t>(b[0]), (std::vector<int64_t>{0, 0, 0}));
  auto c = run(3, {tensor<float>({1}, {0.5f}), tensor<float>({1}, {0.75f})});
  EXPECT_EQ(values_of<int64_t>(c[0]), (std::vector<int64_t>{0, 0, 0}));
  auto d = run(0, {tensor<float>({1}, {0.5f})});
  EXPECT_EQ(d[0].tensor.shape(), (Shape{0, 3}));
  // iou_threshold 0.95: nothing is suppressed; order follows the scores.
  auto e = run(3, {tensor<float>({1}, {0.95f})});
  EXPECT_EQ(values_of<int64_t>(e[0]), (std::vector<int64_t>{0, 0, 0, 0, 0, 1, 0, 0, 2}));
}

TEST(OpsD_NonMaxSuppression, CenterPointBox) {
  // Centre format [xc, yc, w, h]: boxes 0 and 1 overlap fully (same box), box 2 is apart.
  auto boxes = tensor<float>({1, 3, 4}, {0.5f, 0.5f, 1, 1, 0.5f, 0.5f, 1, 1, 5, 5, 1, 1});
  auto scores = tensor<float>({1, 1, 3}, {0.5f, 0.9f, 0.1f});
  auto out = run_op("NonMaxSuppression", 11, {boxes, scores, tensor<int64_t>({}, {10}), tensor<float>({}, {0.5f})},
                    {attr_int("center_point_box", 1)});
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{0, 0, 1, 0, 0, 2}));
}

}  // namespace
}  // namespace sonnx::testing
