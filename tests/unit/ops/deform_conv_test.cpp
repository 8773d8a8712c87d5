// DeformConv: expected values worked out by hand from the operator definition (the arithmetic is
// in the comments). Offset channel (og*K + k)*r + d moves kernel tap k of offset group og along
// spatial axis d; mask channel og*K + k scales it.
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

TEST(DeformConvOp, ZeroOffsetsArePlainConvolution) {
  // x = 0..8 as 3x3, 2x2 kernel of ones, bias 1: window sums 8, 12, 20, 24 plus 1.
  // offset [1, 1*4*2, 2, 2] all zero.
  auto out = run_op("DeformConv", 19,
                    {tensor<float>({1, 1, 3, 3}, iota_f(9)), tensor<float>({1, 1, 2, 2}, {1, 1, 1, 1}),
                     tensor<float>({1, 8, 2, 2}, std::vector<float>(32, 0)), tensor<float>({1}, {1})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1, 2, 2}));
  expect_near(values_of<float>(out[0]), {9, 13, 21, 25});
}

TEST(DeformConvOp, WholeAndHalfPixelOffsets) {
  // 1x1 kernel of 1 over x = 0..8 (3x3): Y is X sampled at (i + dh, j + dw).
  Value x = tensor<float>({1, 1, 3, 3}, iota_f(9));
  Value w = tensor<float>({1, 1, 1, 1}, {1});
  // dh = +1 (channel 0), dw = 0 (channel 1): rows 1 and 2 move up, the last row reads outside -> 0.
  std::vector<float> down(18, 0);
  for (int i = 0; i < 9; ++i) down[static_cast<size_t>(i)] = 1;
  auto shifted = run_op("DeformConv", 19, {x, w, tensor<float>({1, 2, 3, 3}, down)});
  expect_near(values_of<float>(shifted[0]), {3, 4, 5, 6, 7, 8, 0, 0, 0});
  // dh = 0, dw = 0.5: the mean of (i, j) and (i, j+1), the pixel right of the last column being 0:
  // row 0: (0+1)/2, (1+2)/2, (2+0)/2; row 1: (3+4)/2, (4+5)/2, 5/2; row 2: (6+7)/2, (7+8)/2, 8/2.
  std::vector<float> half(18, 0);
  for (int i = 9; i < 18; ++i) half[static_cast<size_t>(i)] = 0.5f;
  auto averaged = run_op("DeformConv", 22, {x, w, tensor<float>({1, 2, 3, 3}, half)});
  expect_near(values_of<float>(averaged[0]), {0.5f, 1.5f, 1, 3.5f, 4.5f, 2.5f, 6.5f, 7.5f, 4});
}

TEST(DeformConvOp, OffsetGroupsAndMask) {
  // x channels [1, 2] and [10, 20] (1x2 each), W = [1, 1] (1x1 kernel), offset_group 2: channel 0
  // uses offset channels 0,1 and mask channel 0; channel 1 offset channels 2,3 and mask channel 1.
  // Offsets: only channel 3 (channel 1's dw) is non-zero, [+1, -1]: channel 1 reads 20 at
  // position 0 and 10 at position 1. Masks: channel 0 [1, 0.5], channel 1 [0, 1].
  // Y = [1*1 + 20*0, 2*0.5 + 10*1] = [1, 11].
  std::vector<float> off(8, 0);
  off[6] = 1;
  off[7] = -1;
  auto out = run_op("DeformConv", 19,
                    {tensor<float>({1, 2, 1, 2}, {1, 2, 10, 20}), tensor<float>({1, 2, 1, 1}, {1, 1}),
                     tensor<float>({1, 4, 1, 2}, off), none(), tensor<float>({1, 2, 1, 2}, {1, 0.5f, 0, 1})},
                    {attr_int("offset_group", 2)});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1, 1, 2}));
  expect_near(values_of<float>(out[0]), {1, 11});
}

TEST(DeformConvOp, BadShapesTrap) {
  Value x = tensor<float>({1, 2, 3, 3}, iota_f(18));
  Value w = tensor<float>({1, 2, 1, 1}, {1, 1});
  // offset must be [1, 2, 3, 3] for one offset group and a 1x1 kernel.
  expect_trap(
      [&] {
        run_op("DeformConv", 19, {x, w, tensor<float>({1, 2, 2, 3}, std::vector<float>(12, 0))});
      },
      "offset has shape");
  // mask must be [1, 1, 3, 3].
  expect_trap(
      [&] {
        run_op("DeformConv", 19,
               {x, w, tensor<float>({1, 2, 3, 3}, std::vector<float>(18, 0)), none(),
                tensor<float>({1, 2, 3, 3}, std::vector<float>(18, 1))});
      },
      "mask has shape");
  // 2 channels cannot be split into 3 offset groups.
  expect_trap(
      [&] {
        run_op("DeformConv", 19, {x, w, tensor<float>({1, 6, 3, 3}, std::vector<float>(54, 0))}, {attr_int("offset_group", 3)});
      },
      "offset_group");
}

}  // namespace
}  // namespace sonnx::testing
