// Convolution and pooling (conv/pool window geometry): Conv, ConvTranspose, MaxPool, AveragePool,
// LpPool, the global pools, MaxUnpool. Expected values are worked out by hand from the operator
// definitions (the arithmetic is in the comments).
#include <cmath>
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

// ---------------------------------------------------------------------------------------------
// Conv

TEST(ConvOp, Basic2D) {
  // x = 0..8 as 3x3, 2x2 kernel of ones: sums of each 2x2 window.
  auto out = run_op("Conv", 11, {tensor<float>({1, 1, 3, 3}, iota_f(9)), tensor<float>({1, 1, 2, 2}, {1, 1, 1, 1})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1, 2, 2}));
  expect_near(values_of<float>(out[0]), {8, 12, 20, 24});
}

TEST(ConvOp, PadsStridesBias) {
  // 3x3 ones kernel, pads 1, stride 2 over 0..8: windows centred on (0,0),(0,2),(2,0),(2,2).
  // (0,0): 0+1+3+4 = 8; (0,2): 1+2+4+5 = 12; (2,0): 3+4+6+7 = 20; (2,2): 4+5+7+8 = 24; bias +1.
  auto out = run_op("Conv", 11,
                    {tensor<float>({1, 1, 3, 3}, iota_f(9)), tensor<float>({1, 1, 3, 3}, std::vector<float>(9, 1)),
                     tensor<float>({1}, {1})},
                    {attr_ints("pads", {1, 1, 1, 1}), attr_ints("strides", {2, 2}), attr_ints("kernel_shape", {3, 3})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1, 2, 2}));
  expect_near(values_of<float>(out[0]), {9, 13, 21, 25});
}

TEST(ConvOp, AsymmetricPads) {
  // 1-D, kernel [1,1], pads begin 2 end 0: out length 3+2-2+1 = 4: [0+0, 0+1, 1+2, 2+3].
  auto out = run_op("Conv", 11, {tensor<float>({1, 1, 3}, {1, 2, 3}), tensor<float>({1, 1, 2}, {1, 1})},
                    {attr_ints("pads", {2, 0})});
  expect_near(values_of<float>(out[0]), {0, 1, 3, 5});
}

TEST(ConvOp, Groups1D) {
  // group=2: channel 0 with [1,1] -> [3,5]; channel 1 with [1,-1] -> [10-20, 20-30].
  auto out = run_op("Conv", 11, {tensor<float>({1, 2, 3}, {1, 2, 3, 10, 20, 30}), tensor<float>({2, 1, 2}, {1, 1, 1, -1})},
                    {attr_int("group", 2)});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 2, 2}));
  expect_near(values_of<float>(out[0]), {3, 5, -10, -10});
}

TEST(ConvOp, DepthwiseMultiplier) {
  // group=1 channel in, 2 out channels per group (M=2, C=1, group=1) vs group=C depthwise with M=2C:
  // x channels [1,2],[3,4]; group=2, M=4: out ch0,1 use x ch0, out ch2,3 use x ch1; kernels 1x1 = 1,2,3,4.
  auto out = run_op("Conv", 11, {tensor<float>({1, 2, 2}, {1, 2, 3, 4}), tensor<float>({4, 1, 1}, {1, 2, 3, 4})},
                    {attr_int("group", 2)});
  expect_near(values_of<float>(out[0]), {1, 2, 2, 4, 9, 12, 12, 16});
}

TEST(ConvOp, Dilations) {
  // kernel [1,1] with dilation 2 adds x[i] + x[i+2].
  auto out = run_op("Conv", 11, {tensor<float>({1, 1, 5}, {1, 2, 3, 4, 5}), tensor<float>({1, 1, 2}, {1, 1})},
                    {attr_ints("dilations", {2})});
  expect_near(values_of<float>(out[0]), {4, 6, 8});
}

TEST(ConvOp, AutoPadSameUpperAndLower) {
  // length 4, kernel 2, stride 1: output 4, total padding 1: at the end (UPPER) or start (LOWER).
  auto x = tensor<float>({1, 1, 4}, {1, 2, 3, 4});
  auto w = tensor<float>({1, 1, 2}, {1, 1});
  auto up = run_op("Conv", 11, {x, w}, {attr_string("auto_pad", "SAME_UPPER")});
  expect_near(values_of<float>(up[0]), {3, 5, 7, 4});
  auto lo = run_op("Conv", 1, {x, w}, {attr_string("auto_pad", "SAME_LOWER")});
  expect_near(values_of<float>(lo[0]), {1, 3, 5, 7});
}

TEST(ConvOp, AutoPadValidWithStride) {
  // VALID: ceil((5 - 3 + 1) / 2) = 2 outputs: 1+2+3, 3+4+5.
  auto out = run_op("Conv", 11, {tensor<float>({1, 1, 5}, {1, 2, 3, 4, 5}), tensor<float>({1, 1, 3}, {1, 1, 1})},
                    {attr_string("auto_pad", "VALID"), attr_ints("strides", {2})});
  expect_near(values_of<float>(out[0]), {6, 12});
}

TEST(ConvOp, ThreeD) {
  auto out = run_op("Conv", 11,
                    {tensor<float>({1, 1, 2, 2, 2}, iota_f(8, 1)), tensor<float>({1, 1, 2, 2, 2}, std::vector<float>(8, 1))});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1, 1, 1, 1}));
  expect_near(values_of<float>(out[0]), {36});
}

TEST(ConvOp, Float16AndDouble) {
  auto h = run_op("Conv", 11,
                  {tensor<float16_t>({1, 1, 2}, {float16_t(1.5f), float16_t(2.f)}),
                   tensor<float16_t>({1, 1, 1}, {float16_t(2.f)})});
  EXPECT_EQ(static_cast<float>(values_of<float16_t>(h[0])[1]), 4.f);
  auto d = run_op("Conv", 11, {tensor<double>({1, 1, 2}, {1.25, 2}), tensor<double>({1, 1, 1}, {2})});
  EXPECT_EQ(values_of<double>(d[0]), (std::vector<double>{2.5, 4}));
}

TEST(ConvOp, ZeroBatch) {
  auto out = run_op("Conv", 11, {tensor<float>({0, 1, 3, 3}, {}), tensor<float>({1, 1, 2, 2}, {1, 1, 1, 1})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{0, 1, 2, 2}));
}

TEST(ConvOp, NaNPropagates) {
  auto out = run_op("Conv", 11, {tensor<float>({1, 1, 3}, {1, kNaN, 2}), tensor<float>({1, 1, 1}, {1})});
  auto v = values_of<float>(out[0]);
  EXPECT_EQ(v[0], 1.f);
  EXPECT_TRUE(std::isnan(v[1]));
}

TEST(ConvOp, ChannelMismatchTraps) {
  expect_trap([] { run_op("Conv", 11, {tensor<float>({1, 2, 3}, iota_f(6)), tensor<float>({1, 1, 1}, {1})}); });
  expect_trap([] { run_op("Conv", 11, {tensor<float>({1, 1, 2}, {1, 2}), tensor<float>({1, 1, 3}, {1, 1, 1})}); });
}

// ---------------------------------------------------------------------------------------------
// ConvTranspose

TEST(ConvTransposeOp, Basic1D) {
  // Each input spreads over three outputs: [1,1,1] + [0,2,2,2] = [1,3,3,2].
  auto out = run_op("ConvTranspose", 11, {tensor<float>({1, 1, 2}, {1, 2}), tensor<float>({1, 1, 3}, {1, 1, 1})});
  expect_near(values_of<float>(out[0]), {1, 3, 3, 2});
}

TEST(ConvTransposeOp, StridePadsOutputPaddingBias) {
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

TEST(ConvTransposeOp, OutputShapeAndAutoPad) {
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

TEST(ConvTransposeOp, GroupsAndDilations) {
  // group 2: x channels [1], [10]; W [C=2, M/group=1, 1] = 2, 3 -> out channels 2, 30.
  auto g = run_op("ConvTranspose", 11, {tensor<float>({1, 2, 1}, {1, 10}), tensor<float>({2, 1, 1}, {2, 3})},
                  {attr_int("group", 2)});
  expect_near(values_of<float>(g[0]), {2, 30});
  // dilation 2: kernel taps at 0 and 2: [1, 0, 2].
  auto d = run_op("ConvTranspose", 11, {tensor<float>({1, 1, 1}, {1}), tensor<float>({1, 1, 2}, {1, 2})},
                  {attr_ints("dilations", {2})});
  expect_near(values_of<float>(d[0]), {1, 0, 2});
}

TEST(ConvTransposeOp, TwoD) {
  // x 1x1x2x2 = [[1,2],[3,4]], kernel 2x2 ones, stride 1: 3x3 output of overlapping sums.
  auto out = run_op("ConvTranspose", 11, {tensor<float>({1, 1, 2, 2}, {1, 2, 3, 4}), tensor<float>({1, 1, 2, 2}, {1, 1, 1, 1})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1, 3, 3}));
  expect_near(values_of<float>(out[0]), {1, 3, 2, 4, 10, 6, 3, 7, 4});
}

// ---------------------------------------------------------------------------------------------
// MaxPool

TEST(MaxPoolOp, IndicesRowAndColumnMajor) {
  // x = [[1,5,3],[4,2,6],[7,8,9]], 2x2 windows stride 1: maxima 5,6,8,9 at (0,1),(1,2),(2,1),(2,2).
  auto x = tensor<float>({1, 1, 3, 3}, {1, 5, 3, 4, 2, 6, 7, 8, 9});
  auto out = run_op("MaxPool", 12, {x}, {attr_ints("kernel_shape", {2, 2})}, 2);
  expect_near(values_of<float>(out[0]), {5, 6, 8, 9});
  EXPECT_EQ(values_of<int64_t>(out[1]), (std::vector<int64_t>{1, 5, 7, 8}));
  // Column-major: offset = col*3 + row.
  auto cm = run_op("MaxPool", 12, {x}, {attr_ints("kernel_shape", {2, 2}), attr_int("storage_order", 1)}, 2);
  EXPECT_EQ(values_of<int64_t>(cm[1]), (std::vector<int64_t>{3, 7, 5, 8}));
}

TEST(MaxPoolOp, IndicesIncludeBatchAndChannelOffset) {
  // 2 channels of length 2, kernel 2: the second channel's index is offset by 2.
  auto out = run_op("MaxPool", 12, {tensor<float>({1, 2, 2}, {1, 3, 7, 5})}, {attr_ints("kernel_shape", {2})}, 2);
  expect_near(values_of<float>(out[0]), {3, 7});
  EXPECT_EQ(values_of<int64_t>(out[1]), (std::vector<int64_t>{1, 2}));
}

TEST(MaxPoolOp, PaddingIsNotAValue) {
  // Negative inputs with padding: the pad never wins (results are not 0).
  auto out = run_op("MaxPool", 12, {tensor<float>({1, 1, 2}, {-3, -1})},
                    {attr_ints("kernel_shape", {2}), attr_ints("pads", {1, 1})});
  expect_near(values_of<float>(out[0]), {-3, -1, -1});
}

// A window with no element of the input has no maximum (spec/ops/MaxPool.md): the kernel traps,
// whether the window lies in the padding (pads >= kernel) or its dilated taps step over the input.
TEST(MaxPoolOp, AWindowWithNoInputElementTraps) {
  expect_trap(
      [] {
        run_op("MaxPool", 22, {tensor<float>({1, 1, 2}, {1, 2})}, {attr_ints("kernel_shape", {1}), attr_ints("pads", {1, 1})});
      },
      "lies in the padding");
  expect_trap(
      [] {
        run_op("MaxPool", 22, {tensor<float>({1, 1, 1}, {1})},
               {attr_ints("kernel_shape", {2}), attr_ints("dilations", {2}), attr_ints("pads", {1, 1})});
      },
      "input positions -1 to 1 in steps of 2");
}

// AveragePool: without count_include_pad such a window has no mean (trap); with it, the mean of
// padding zeros over the counted positions, 0.
TEST(AveragePoolOp, AWindowWithNoInputElement) {
  auto x = tensor<float>({1, 1, 2}, {2, 4});
  expect_trap(
      [&] {
        run_op("AveragePool", 19, {x}, {attr_ints("kernel_shape", {1}), attr_ints("pads", {1, 1})});
      },
      "lies in the padding");
  auto out = run_op("AveragePool", 19, {x},
                    {attr_ints("kernel_shape", {1}), attr_ints("pads", {1, 1}), attr_int("count_include_pad", 1)});
  expect_near(values_of<float>(out[0]), {0, 2, 4, 0});
}

TEST(MaxPoolOp, CeilMode) {
  auto x = tensor<float>({1, 1, 5}, {1, 2, 3, 4, 5});
  auto fl = run_op("MaxPool", 12, {x}, {attr_ints("kernel_shape", {2}), attr_ints("strides", {2})});
  expect_near(values_of<float>(fl[0]), {2, 4});
  auto ce = run_op("MaxPool", 12, {x}, {attr_ints("kernel_shape", {2}), attr_ints("strides", {2}), attr_int("ceil_mode", 1)});
  expect_near(values_of<float>(ce[0]), {2, 4, 5});
  // in 3, pads 1,1, kernel 2, stride 2: ceil((3+2-2)/2)+1 = 3, but the third window would start
  // at 3 = in + pad_begin - 1 + 1, wholly in the end padding: dropped -> 2 outputs.
  auto dr = run_op("MaxPool", 12, {tensor<float>({1, 1, 3}, {1, 2, 3})},
                   {attr_ints("kernel_shape", {2}), attr_ints("strides", {2}), attr_ints("pads", {1, 1}),
                    attr_int("ceil_mode", 1)});
  expect_near(values_of<float>(dr[0]), {1, 3});
}

TEST(MaxPoolOp, Dilations) {
  // kernel 2 dilation 2 pairs x[i], x[i+2]: {1,2},{5,4},{2,3}.
  auto out = run_op("MaxPool", 12, {tensor<float>({1, 1, 5}, {1, 5, 2, 4, 3})},
                    {attr_ints("kernel_shape", {2}), attr_ints("dilations", {2})}, 2);
  expect_near(values_of<float>(out[0]), {2, 5, 3});
  EXPECT_EQ(values_of<int64_t>(out[1]), (std::vector<int64_t>{2, 1, 4}));
}

TEST(MaxPoolOp, AutoPadSame) {
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

TEST(MaxPoolOp, NaNPropagatesAndIntegerTypes) {
  auto n = run_op("MaxPool", 12, {tensor<float>({1, 1, 3}, {1, kNaN, 3})}, {attr_ints("kernel_shape", {2})});
  auto v = values_of<float>(n[0]);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_TRUE(std::isnan(v[1]));
  auto u = run_op("MaxPool", 12, {tensor<uint8_t>({1, 1, 3}, {3, 7, 1})}, {attr_ints("kernel_shape", {2})});
  EXPECT_EQ(values_of<uint8_t>(u[0]), (std::vector<uint8_t>{7, 7}));
  auto i = run_op("MaxPool", 12, {tensor<int8_t>({1, 1, 3}, {-3, -7, -1})}, {attr_ints("kernel_shape", {2})});
  EXPECT_EQ(values_of<int8_t>(i[0]), (std::vector<int8_t>{-3, -1}));
}

TEST(MaxPoolOp, Version1) {
  auto out = run_op("MaxPool", 1, {tensor<float>({1, 1, 2, 2}, {1, 4, 3, 2})}, {attr_ints("kernel_shape", {2, 2})});
  expect_near(values_of<float>(out[0]), {4});
}

// ---------------------------------------------------------------------------------------------
// AveragePool

TEST(AveragePoolOp, CountIncludePad) {
  auto x = tensor<float>({1, 1, 4}, {1, 2, 3, 4});
  // Windows {pad,1},{1,2},{2,3},{3,4},{4,pad}.
  auto ex = run_op("AveragePool", 11, {x}, {attr_ints("kernel_shape", {2}), attr_ints("pads", {1, 1})});
  expect_near(values_of<float>(ex[0]), {1, 1.5f, 2.5f, 3.5f, 4});
  auto in = run_op("AveragePool", 11, {x},
                   {attr_ints("kernel_shape", {2}), attr_ints("pads", {1, 1}), attr_int("count_include_pad", 1)});
  expect_near(values_of<float>(in[0]), {0.5f, 1.5f, 2.5f, 3.5f, 2});
}

TEST(AveragePoolOp, CeilModeCountsOnlyRealWindow) {
  // Third window covers only x[4] (and one position past the end, which is not padding).
  auto out = run_op("AveragePool", 11, {tensor<float>({1, 1, 5}, {1, 2, 3, 4, 5})},
                    {attr_ints("kernel_shape", {2}), attr_ints("strides", {2}), attr_int("ceil_mode", 1),
                     attr_int("count_include_pad", 1)});
  expect_near(values_of<float>(out[0]), {1.5f, 3.5f, 5});
}

TEST(AveragePoolOp, TwoDAndVersion1) {
  auto a = run_op("AveragePool", 1, {tensor<float>({1, 1, 2, 2}, {1, 2, 3, 4})}, {attr_ints("kernel_shape", {2, 2})});
  expect_near(values_of<float>(a[0]), {2.5f});
  // Version 1 never counts padding.
  auto b = run_op("AveragePool", 1, {tensor<float>({1, 1, 2}, {2, 4})},
                  {attr_ints("kernel_shape", {2}), attr_ints("pads", {1, 0})});
  expect_near(values_of<float>(b[0]), {2, 3});
}

TEST(AveragePoolOp, SameUpperExcludesPad) {
  // length 3, kernel 2: SAME_UPPER pads one at the end: {1,2},{2,3},{3} -> 1.5, 2.5, 3.
  auto out = run_op("AveragePool", 11, {tensor<float>({1, 1, 3}, {1, 2, 3})},
                    {attr_ints("kernel_shape", {2}), attr_string("auto_pad", "SAME_UPPER")});
  expect_near(values_of<float>(out[0]), {1.5f, 2.5f, 3});
}

TEST(AveragePoolOp, Version19Dilations) {
  // kernel 2, dilation 2 averages x[i] and x[i+2]: (1+3)/2, (2+4)/2, (3+5)/2.
  Value x = tensor<float>({1, 1, 5}, {1, 2, 3, 4, 5});
  auto out = run_op("AveragePool", 19, {x}, {attr_ints("kernel_shape", {2}), attr_ints("dilations", {2})});
  expect_near(values_of<float>(out[0]), {2, 3, 4});
  // With pads 2, 2 and count_include_pad: positions -2..6; windows {-2,0},{-1,1},{0,2},{1,3},{2,4},{3,5},{4,6}.
  // Inside the padded input every dilated position counts (2), so each sum is halved:
  // (0+1)/2, (0+2)/2, (1+3)/2, (2+4)/2, (3+5)/2, (4+0)/2, (5+0)/2.
  auto inc = run_op("AveragePool", 22, {x},
                    {attr_ints("kernel_shape", {2}), attr_ints("dilations", {2}), attr_ints("pads", {2, 2}),
                     attr_int("count_include_pad", 1)});
  expect_near(values_of<float>(inc[0]), {0.5f, 1, 2, 3, 4, 2, 2.5f});
  // Not counting the padding, the windows touching it have one real element.
  auto exc = run_op("AveragePool", 19, {x},
                    {attr_ints("kernel_shape", {2}), attr_ints("dilations", {2}), attr_ints("pads", {2, 2})});
  expect_near(values_of<float>(exc[0]), {1, 2, 2, 3, 4, 4, 5});
  // Before 19 dilations are refused.
  expect_trap(
      [&] {
        run_op("AveragePool", 11, {x}, {attr_ints("kernel_shape", {2}), attr_ints("dilations", {2})});
      },
      "dilations");
}

TEST(MaxPoolOp, Version22SameAsBefore) {
  // The ceil_mode case of MaxPoolOp.CeilMode: the window starting in the end padding is dropped.
  auto dr = run_op("MaxPool", 22, {tensor<float>({1, 1, 3}, {1, 2, 3})},
                   {attr_ints("kernel_shape", {2}), attr_ints("strides", {2}), attr_ints("pads", {1, 1}),
                    attr_int("ceil_mode", 1)});
  expect_near(values_of<float>(dr[0]), {1, 3});
  auto bf = run_op("MaxPool", 22, {tensor<bfloat16_t>({1, 1, 2}, {bfloat16_t(1.f), bfloat16_t(-2.f)})},
                   {attr_ints("kernel_shape", {2})});
  EXPECT_EQ(static_cast<float>(values_of<bfloat16_t>(bf[0])[0]), 1.f);
}

// ---------------------------------------------------------------------------------------------
// LpPool and global pools

TEST(LpPoolOp, IntegerAndFloatP) {
  auto a = run_op("LpPool", 11, {tensor<float>({1, 1, 2}, {3, 4})}, {attr_ints("kernel_shape", {2})});
  expect_near(values_of<float>(a[0]), {5});
  auto b = run_op("LpPool", 1, {tensor<float>({1, 1, 2}, {-3, 4})}, {attr_ints("kernel_shape", {2}), attr_float("p", 1.0f)});
  expect_near(values_of<float>(b[0]), {7});
  auto c = run_op("LpPool", 2, {tensor<float>({1, 1, 3}, {1, 2, 2})}, {attr_ints("kernel_shape", {2}), attr_int("p", 3)});
  expect_near(values_of<float>(c[0]), {std::cbrt(9.f), std::cbrt(16.f)});
}

TEST(LpPoolOp, Version18DilationsAndCeilMode) {
  // p = 2, kernel 2, dilation 2: sqrt(3^2 + 0^2) ... pairs (3,0), (4,4), (0,3) -> 3, sqrt(32), 3.
  Value x = tensor<float>({1, 1, 5}, {3, 4, 0, 4, 3});
  auto d = run_op("LpPool", 18, {x}, {attr_ints("kernel_shape", {2}), attr_ints("dilations", {2})});
  expect_near(values_of<float>(d[0]), {3, std::sqrt(32.f), 3});
  // kernel 2, stride 2 on 5 elements: floor gives {3,4},{0,4}; ceil adds the partial window {3}.
  auto c = run_op("LpPool", 22, {x}, {attr_ints("kernel_shape", {2}), attr_ints("strides", {2}), attr_int("ceil_mode", 1)});
  expect_near(values_of<float>(c[0]), {5, 4, 3});
  auto f = run_op("LpPool", 18, {x}, {attr_ints("kernel_shape", {2}), attr_ints("strides", {2})});
  expect_near(values_of<float>(f[0]), {5, 4});
}

TEST(GlobalPoolOp, AverageMaxLp) {
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

TEST(GlobalPoolOp, NaNAndOneD) {
  auto mx = run_op("GlobalMaxPool", 1, {tensor<float>({1, 1, 3}, {1, kNaN, 3})});
  EXPECT_TRUE(std::isnan(values_of<float>(mx[0])[0]));
  auto avg = run_op("GlobalAveragePool", 1, {tensor<float>({2, 1, 2}, {1, 2, 3, 5})});
  EXPECT_EQ(avg[0].tensor.shape(), (Shape{2, 1, 1}));
  expect_near(values_of<float>(avg[0]), {1.5f, 4});
}

// ---------------------------------------------------------------------------------------------
// MaxUnpool

TEST(MaxUnpoolOp, WithAndWithoutOutputShape) {
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

TEST(MaxUnpoolOp, IndexOutOfRangeTraps) {
  expect_trap([] {
    run_op("MaxUnpool", 11, {tensor<float>({1, 1, 1}, {1}), tensor<int64_t>({1, 1, 1}, {2})}, {attr_ints("kernel_shape", {2})});
  });
}

TEST(Col2ImOp, OverlappingBlocksAddUp) {
  // A 3x3 image folded from 2x2 blocks at stride 1: 4 block positions. With every column element 1,
  // each pixel counts the windows covering it: corners 1, edges 2, the centre 4.
  auto cols = tensor<float>({1, 4, 4}, std::vector<float>(16, 1.f));
  auto out = run_op("Col2Im", 18, {cols, tensor<int64_t>({2}, {3, 3}), tensor<int64_t>({2}, {2, 2})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1, 3, 3}));
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{1, 2, 1, 2, 4, 2, 1, 2, 1}));
  // Padding 1 on every side with 2x2 blocks at stride 2: 2x2 positions, disjoint; block (0,0)
  // covers padded rows/cols 0-1, i.e. only pixel (0,0) of the image (its offset (1,1)).
  std::vector<float> v(16);
  for (int i = 0; i < 16; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i);  // element (k, l) = 4k + l
  auto padded = run_op("Col2Im", 18, {tensor<float>({1, 4, 4}, v), tensor<int64_t>({2}, {2, 2}), tensor<int64_t>({2}, {2, 2})},
                       {attr_ints("pads", {1, 1, 1, 1}), attr_ints("strides", {2, 2})});
  // Pixel (r, c) comes from block l = 2r + c at offset k = 3 - l (k = (1-r, 1-c) flattened): 4k + l.
  EXPECT_EQ(values_of<float>(padded[0]), (std::vector<float>{12, 9, 6, 3}));
  // A block count that does not match the geometry is refused.
  EXPECT_THROW(run_op("Col2Im", 18,
                      {tensor<float>({1, 4, 3}, std::vector<float>(12, 1.f)), tensor<int64_t>({2}, {3, 3}),
                       tensor<int64_t>({2}, {2, 2})}),
               Trap);
}

}  // namespace
}  // namespace sonnx::testing
