// The signal operators: DFT, STFT, the window functions (Hann, Hamming, Blackman) and
// MelWeightMatrix. Expected values are worked out by hand from the schemas.
#include <cmath>
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

// ---------------------------------------------------------------------------------------------
// DFT of x = [1, 2, 3, 4]: X = [10, -2+2i, -2, -2-2i].

TEST(DftOp, RealInput) {
  auto out = run_op("DFT", 17, {tensor<float>({1, 4, 1}, {1, 2, 3, 4})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 4, 2}));
  expect_near(values_of<float>(out[0]), {10, 0, -2, 2, -2, 0, -2, -2});
}

TEST(DftOp, OnesidedKeepsHalfPlusOne) {
  auto out = run_op("DFT", 17, {tensor<float>({1, 4, 1}, {1, 2, 3, 4})}, {attr_int("onesided", 1)});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 3, 2}));
  expect_near(values_of<float>(out[0]), {10, 0, -2, 2, -2, 0});
}

TEST(DftOp, InverseOfComplexInput) {
  auto out = run_op("DFT", 17, {tensor<double>({1, 4, 2}, {10, 0, -2, 2, -2, 0, -2, -2})}, {attr_int("inverse", 1)});
  auto v = values_of<double>(out[0]);
  std::vector<double> want{1, 0, 2, 0, 3, 0, 4, 0};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(v[i], want[i], 1e-12);
}

TEST(DftOp, DftLengthCutsOrPads) {
  // First two samples: [3, -1]. Padded to 6: X0 = 10.
  auto out = run_op("DFT", 17, {tensor<float>({1, 4, 1}, {1, 2, 3, 4}), tensor<int64_t>({}, {2})});
  expect_near(values_of<float>(out[0]), {3, 0, -1, 0});
  out = run_op("DFT", 17, {tensor<float>({1, 4, 1}, {1, 2, 3, 4}), tensor<int32_t>({}, {6})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 6, 2}));
  EXPECT_NEAR(values_of<float>(out[0])[0], 10, 1e-5);
  // Bin 3 of the padded signal: 1 - 2 + 3 - 4 = -2.
  EXPECT_NEAR(values_of<float>(out[0])[6], -2, 1e-5);
}

TEST(DftOp, AxisSelectsTheDimension) {
  // [1, 2, 2, 1]: along axis 2 (negative: -2) each row [a, b] becomes [a+b, a-b].
  auto x = tensor<float>({1, 2, 2, 1}, {1, 2, 3, 5});
  auto out = run_op("DFT", 17, {x}, {attr_int("axis", -2)});
  expect_near(values_of<float>(out[0]), {3, 0, -1, 0, 8, 0, -2, 0});
  // Along axis 1 each column: [1+3, 1-3], [2+5, 2-5].
  out = run_op("DFT", 17, {x}, {attr_int("axis", 1)});
  expect_near(values_of<float>(out[0]), {4, 0, 7, 0, -2, 0, -3, 0});
}

TEST(DftOp, InvalidCombinationsTrap) {
  expect_trap([] { run_op("DFT", 17, {tensor<float>({1, 2, 2}, {1, 0, 1, 0})}, {attr_int("onesided", 1)}); }, "complex");
  expect_trap([] { run_op("DFT", 17, {tensor<float>({1, 2, 3}, {1, 0, 1, 0, 0, 0})}); }, "last dimension");
  expect_trap([] { run_op("DFT", 17, {tensor<float>({1, 2, 1}, {1, 0})}, {attr_int("axis", 2)}); }, "axis");
  expect_trap([] { run_op("DFT", 17, {tensor<float>({1, 2, 1}, {1, 0}), tensor<int64_t>({}, {0})}); }, "positive");
}

TEST(DftOp, Version20AxisInput) {
  // Default axis -2: the last signal axis, here axis 1 of [1, 4, 1].
  auto out = run_op("DFT", 20, {tensor<float>({1, 4, 1}, {1, 2, 3, 4})});
  expect_near(values_of<float>(out[0]), {10, 0, -2, 2, -2, 0, -2, -2});
  // axis 1 of [1, 2, 2, 1] (the first signal axis) as an input: columns [1, 3], [2, 5].
  auto x = tensor<float>({1, 2, 2, 1}, {1, 2, 3, 5});
  out = run_op("DFT", 20, {x, none(), tensor<int64_t>({}, {1})});
  expect_near(values_of<float>(out[0]), {4, 0, 7, 0, -2, 0, -3, 0});
  // With dft_length 3 along axis -2 (rows [1, 2] and [3, 5] padded by one zero): bin 0 is the sum.
  out = run_op("DFT", 20, {x, tensor<int64_t>({}, {3}), tensor<int64_t>({}, {-2})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 2, 3, 2}));
  EXPECT_NEAR(values_of<float>(out[0])[0], 3, 1e-5);
  EXPECT_NEAR(values_of<float>(out[0])[6], 8, 1e-5);
  expect_trap([&] { run_op("DFT", 20, {x, none(), tensor<int64_t>({}, {-1})}); }, "axis");
  expect_trap([&] { run_op("DFT", 20, {x, none(), tensor<int64_t>({}, {4})}); });
}

TEST(DftOp, Version20InverseOnesidedIsIrfft) {
  // The one-sided spectrum of [1, 2, 3, 4] ([10, -2+2i, -2]) gives the signal back; the default
  // length is 2 * (3 - 1) = 4 and the output is real ([..., 1]).
  Value half = tensor<double>({1, 3, 2}, {10, 0, -2, 2, -2, 0});
  auto out = run_op("DFT", 20, {half}, {attr_int("onesided", 1), attr_int("inverse", 1)});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 4, 1}));
  auto v = values_of<double>(out[0]);
  std::vector<double> want{1, 2, 3, 4};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(v[i], want[i], 1e-12);
  // Length 3 uses bins 0 and 1: x[m] = (10 + 2 Re((-2+2i) e^{2 pi i m / 3})) / 3
  //   = 2, 4 - 2/sqrt(3), 4 + 2/sqrt(3).
  out = run_op("DFT", 20, {half, tensor<int64_t>({}, {3})}, {attr_int("onesided", 1), attr_int("inverse", 1)});
  v = values_of<double>(out[0]);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_NEAR(v[0], 2, 1e-12);
  EXPECT_NEAR(v[1], 4 - 2 / std::sqrt(3.0), 1e-12);
  EXPECT_NEAR(v[2], 4 + 2 / std::sqrt(3.0), 1e-12);
  // Real input cannot be inverse one-sided; complex input cannot be forward one-sided.
  expect_trap(
      [] {
        run_op("DFT", 20, {tensor<float>({1, 2, 1}, {1, 0})}, {attr_int("onesided", 1), attr_int("inverse", 1)});
      },
      "complex");
  expect_trap([] { run_op("DFT", 20, {tensor<float>({1, 2, 2}, {1, 0, 1, 0})}, {attr_int("onesided", 1)}); }, "complex");
}

// ---------------------------------------------------------------------------------------------
// STFT of [1, 2, 3, 4] with frames of 2 every 2 samples: frames [1, 2] and [3, 4].

TEST(StftOp, FramesWithoutWindow) {
  auto out = run_op("STFT", 17,
                    {tensor<float>({1, 4, 1}, {1, 2, 3, 4}), tensor<int64_t>({}, {2}), none(), tensor<int64_t>({}, {2})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 2, 2, 2}));
  expect_near(values_of<float>(out[0]), {3, 0, -1, 0, 7, 0, -1, 0});
}

TEST(StftOp, WindowMultipliesEachFrame) {
  // window [1, 0]: frames become [1, 0] and [3, 0].
  auto out = run_op("STFT", 17, {tensor<float>({1, 4, 1}, {1, 2, 3, 4}), tensor<int32_t>({}, {2}), tensor<float>({2}, {1, 0})});
  expect_near(values_of<float>(out[0]), {1, 0, 1, 0, 3, 0, 3, 0});
}

TEST(StftOp, StepOneTwoSidedAndShortSignal) {
  // Frames of 3 every 1 sample over 4 samples: 2 frames; two-sided: 3 bins each.
  auto out = run_op("STFT", 17,
                    {tensor<float>({1, 4, 1}, {1, 1, 1, 0}), tensor<int64_t>({}, {1}), none(), tensor<int64_t>({}, {3})},
                    {attr_int("onesided", 0)});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 2, 3, 2}));
  // Frame [1, 1, 1]: [3, 0, 0]. Frame [1, 1, 0]: X1 = 1 + e^{-2pi i/3} = 0.5 - (sqrt(3)/2) i.
  const float s = static_cast<float>(std::sqrt(3.0) / 2);
  expect_near(values_of<float>(out[0]), {3, 0, 0, 0, 0, 0, 2, 0, 0.5f, -s, 0.5f, s});
  // A signal shorter than one frame has no frames.
  out = run_op("STFT", 17, {tensor<float>({1, 2, 1}, {1, 2}), tensor<int64_t>({}, {1}), none(), tensor<int64_t>({}, {3})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 0, 2, 2}));
}

TEST(StftOp, BadArgumentsTrap) {
  auto sig = tensor<float>({1, 4, 1}, {1, 2, 3, 4});
  expect_trap([&] { run_op("STFT", 17, {sig, tensor<int64_t>({}, {0}), none(), tensor<int64_t>({}, {2})}); }, "frame_step");
  expect_trap([&] { run_op("STFT", 17, {sig, tensor<int64_t>({}, {1})}); }, "window or frame_length");
  expect_trap(
      [&] {
        run_op("STFT", 17, {sig, tensor<int64_t>({}, {1}), tensor<float>({3}, {1, 1, 1}), tensor<int64_t>({}, {2})});
      },
      "differs");
  expect_trap(
      [&] {
        run_op("STFT", 17, {tensor<float>({1, 2, 2}, {1, 0, 1, 0}), tensor<int64_t>({}, {1}), none(), tensor<int64_t>({}, {2})});
      },
      "complex");
}

// ---------------------------------------------------------------------------------------------
// Windows.

TEST(WindowFunctionOp, Hann) {
  auto out = run_op("HannWindow", 17, {tensor<int64_t>({}, {4})});
  expect_near(values_of<float>(out[0]), {0, 0.5f, 1, 0.5f}, 1e-6f);
  out = run_op("HannWindow", 17, {tensor<int32_t>({}, {3})}, {attr_int("periodic", 0)});
  expect_near(values_of<float>(out[0]), {0, 1, 0}, 1e-6f);
}

TEST(WindowFunctionOp, Hamming) {
  auto out = run_op("HammingWindow", 17, {tensor<int32_t>({}, {2})});
  expect_near(values_of<float>(out[0]), {4.0f / 46, 1}, 1e-6f);
}

TEST(WindowFunctionOp, Blackman) {
  auto out = run_op("BlackmanWindow", 17, {tensor<int64_t>({}, {4})});
  expect_near(values_of<float>(out[0]), {0, 0.34f, 1, 0.34f}, 1e-6f);
}

TEST(WindowFunctionOp, OutputDatatypeAndEmpty) {
  // int32 output truncates 0.5 toward zero.
  auto out = run_op("HannWindow", 17, {tensor<int64_t>({}, {4})}, {attr_int("output_datatype", 6)});
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{0, 0, 1, 0}));
  out = run_op("HannWindow", 17, {tensor<int64_t>({}, {4})}, {attr_int("output_datatype", 11)});
  EXPECT_NEAR(values_of<double>(out[0])[2], 1.0, 1e-7);
  out = run_op("BlackmanWindow", 17, {tensor<int64_t>({}, {0})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{0}));
  expect_trap([] { run_op("HannWindow", 17, {tensor<int64_t>({}, {4})}, {attr_int("output_datatype", 8)}); }, "output_datatype");
}

// ---------------------------------------------------------------------------------------------
// MelWeightMatrix: 2 mel bins, dft_length 8 (5 spectrogram bins), sample rate 10, 0..5 Hz.
// The 4 edge points are a little below 0, 1.25, 2.5, 3.75 Hz (mel is concave), i.e. bins
// floor(9*hz/10) = 0, 1, 2, 3: filter 0 peaks at bin 1, filter 1 at bin 2.

TEST(MelWeightMatrixOp, TriangularFilters) {
  auto out = run_op("MelWeightMatrix", 17,
                    {tensor<int64_t>({}, {2}), tensor<int64_t>({}, {8}), tensor<int64_t>({}, {10}), tensor<float>({}, {0}),
                     tensor<float>({}, {5})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{5, 2}));
  expect_near(values_of<float>(out[0]), {0, 0, 1, 0, 0, 1, 0, 0, 0, 0});
}

TEST(MelWeightMatrixOp, EdgeAboveNyquistTraps) {
  expect_trap(
      [] {
        run_op("MelWeightMatrix", 17,
               {tensor<int64_t>({}, {2}), tensor<int64_t>({}, {8}), tensor<int64_t>({}, {10}), tensor<float>({}, {0}),
                tensor<float>({}, {50})});
      },
      "spectrogram bins");
}

}  // namespace
}  // namespace sonnx::testing
