// Resampling: Resize, Upsample, GridSample and the region-of-interest poolings MaxRoiPool and
// RoiAlign. Expected values are worked out by hand from the operator definitions (the arithmetic is
// in the comments).
#include <string>
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

// ---------------------------------------------------------------------------------------------
// MaxRoiPool, RoiAlign

TEST(MaxRoiPoolOp, Basic) {
  // x = 0..15 as 4x4, RoI covering the image, 2x2 bins of 2x2 pixels: maxima 5, 7, 13, 15.
  auto out = run_op("MaxRoiPool", 1, {tensor<float>({1, 1, 4, 4}, iota_f(16)), tensor<float>({1, 5}, {0, 0, 0, 3, 3})},
                    {attr_ints("pooled_shape", {2, 2})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1, 2, 2}));
  expect_near(values_of<float>(out[0]), {5, 7, 13, 15});
}

TEST(RoiAlignOp, ModesAndCoordinateTransform) {
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

TEST(RoiAlignOp, BadBatchIndexTraps) {
  expect_trap([] {
    run_op("RoiAlign", 16,
           {tensor<float>({1, 1, 2, 2}, {0, 1, 2, 3}), tensor<float>({1, 4}, {0, 0, 1, 1}), tensor<int64_t>({1}, {1})});
  });
}

// ---------------------------------------------------------------------------------------------
// Resize and Upsample

TEST(ResizeOp, NearestUpsampleHalfPixel) {
  auto out = run_op("Resize", 13, {tensor<float>({1, 1, 2, 2}, {1, 2, 3, 4}), none(), tensor<float>({4}, {1, 1, 2, 2})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1, 4, 4}));
  expect_near(values_of<float>(out[0]), {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
}

TEST(ResizeOp, LinearHalfPixelAndAlignCorners) {
  // half_pixel, scale 2: x_original = o/2 - 0.25 -> -0.25, 0.25, 0.75, 1.25 -> [1, 1.5, 2.5, 3].
  auto a = run_op("Resize", 13, {tensor<float>({2}, {1, 3}), none(), tensor<float>({1}, {2})}, {attr_string("mode", "linear")});
  expect_near(values_of<float>(a[0]), {1, 1.5f, 2.5f, 3});
  // align_corners, sizes 3: x_original = 0, 0.5, 1.
  auto b = run_op("Resize", 13, {tensor<float>({2}, {1, 3}), none(), none(), tensor<int64_t>({1}, {3})},
                  {attr_string("mode", "linear"), attr_string("coordinate_transformation_mode", "align_corners")});
  expect_near(values_of<float>(b[0]), {1, 2, 3});
}

TEST(ResizeOp, NearestModesAndAsymmetric) {
  auto x = tensor<float>({4}, {1, 2, 3, 4});
  // asymmetric, scale 0.5: x_original 0, 2.
  auto a = run_op("Resize", 13, {x, none(), tensor<float>({1}, {0.5f})},
                  {attr_string("coordinate_transformation_mode", "asymmetric")});
  expect_near(values_of<float>(a[0]), {1, 3});
  // asymmetric, sizes 8 (scale 2): x_original = o/2; round_prefer_ceil rounds 0.5 up, default floor-preferring down.
  auto up = [&](const char* nm) {
    return values_of<float>(
        run_op("Resize", 13, {x, none(), none(), tensor<int64_t>({1}, {8})},
               {attr_string("coordinate_transformation_mode", "asymmetric"), attr_string("nearest_mode", nm)})[0]);
  };
  expect_near(up("round_prefer_floor"), {1, 1, 2, 2, 3, 3, 4, 4});
  expect_near(up("round_prefer_ceil"), {1, 2, 2, 3, 3, 4, 4, 4});
  expect_near(up("floor"), {1, 1, 2, 2, 3, 3, 4, 4});
  expect_near(up("ceil"), {1, 2, 2, 3, 3, 4, 4, 4});
}

TEST(ResizeOp, CubicWeightsAndExcludeOutside) {
  // A = -0.75: W(0.5) = 0.59375, W(1.5) = -0.09375. asymmetric scale 2 on [1,2,4,8]:
  // o=3 -> x=1.5: -0.09375*1 + 0.59375*2 + 0.59375*4 - 0.09375*8 = 2.71875.
  // o=1 -> x=0.5: taps -1(edge->1), 0, 1, 2: -0.09375 + 0.59375 + 1.1875 - 0.375 = 1.3125;
  // with exclude_outside the tap at -1 drops and the rest renormalise: 1.40625 / 1.09375 = 9/7.
  auto x = tensor<float>({4}, {1, 2, 4, 8});
  std::vector<onnx::AttributeProto> at = {attr_string("mode", "cubic"),
                                          attr_string("coordinate_transformation_mode", "asymmetric")};
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

TEST(ResizeOp, TfCropAndResize) {
  auto x = tensor<float>({4}, {1, 2, 3, 4});
  std::vector<onnx::AttributeProto> at = {attr_string("mode", "linear"),
                                          attr_string("coordinate_transformation_mode", "tf_crop_and_resize"),
                                          attr_float("extrapolation_value", 10)};
  // roi [0,1]: x_original = 0, 1.5, 3.
  auto a = run_op("Resize", 13, {x, tensor<float>({2}, {0, 1}), none(), tensor<int64_t>({1}, {3})}, at);
  expect_near(values_of<float>(a[0]), {1, 2.5f, 4});
  // roi [0.5, 1.5]: x_original = 1.5, 3, 4.5 (outside -> extrapolation_value).
  auto b = run_op("Resize", 13, {x, tensor<float>({2}, {0.5f, 1.5f}), none(), tensor<int64_t>({1}, {3})}, at);
  expect_near(values_of<float>(b[0]), {2.5f, 4, 10});
}

TEST(ResizeOp, Version10And11) {
  // Version 10: asymmetric, nearest downsampling takes ceil: x_original 0, 1/0.6 = 1.67 -> 2.
  auto a = run_op("Resize", 10, {tensor<float>({1, 1, 1, 4}, {1, 2, 3, 4}), tensor<float>({4}, {1, 1, 1, 0.6f})});
  expect_near(values_of<float>(a[0]), {1, 3});
  // Version 11: empty scales with sizes.
  auto b = run_op("Resize", 11,
                  {tensor<float>({2}, {1, 3}), tensor<float>({0}, {}), tensor<float>({0}, {}), tensor<int64_t>({1}, {4})});
  expect_near(values_of<float>(b[0]), {1, 1, 3, 3});
  expect_trap([] {
    run_op("Resize", 13, {tensor<float>({2}, {1, 3}), none(), tensor<float>({1}, {2}), tensor<int64_t>({1}, {4})});
  });
}

TEST(ResizeOp, NearestAnyType) {
  auto s = run_op("Resize", 13, {tensor<std::string>({2}, {"a", "b"}), none(), tensor<float>({1}, {2})});
  EXPECT_EQ(values_of<std::string>(s[0]), (std::vector<std::string>{"a", "a", "b", "b"}));
  auto i = run_op("Resize", 13, {tensor<int64_t>({2}, {5, 7}), none(), none(), tensor<int64_t>({1}, {3})},
                  {attr_string("mode", "linear"), attr_string("coordinate_transformation_mode", "align_corners")});
  EXPECT_EQ(values_of<int64_t>(i[0]), (std::vector<int64_t>{5, 6, 7}));
}

TEST(ResizeOp, Version18AxesAttribute) {
  // Only axis 1 (given as -1) of [2, 2] doubles; half_pixel, round_prefer_floor:
  // x_original = -0.25, 0.25, 0.75, 1.25 -> 0, 0, 1, 1.
  auto out = run_op("Resize", 18, {tensor<float>({2, 2}, {1, 2, 3, 4}), none(), tensor<float>({1}, {2})},
                    {attr_ints("axes", {-1})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 4}));
  expect_near(values_of<float>(out[0]), {1, 1, 2, 2, 3, 3, 4, 4});
  // sizes for axis 0 only: [2, 2] -> [1, 2]; half_pixel with scale 1/2: x_original 0.5 ->
  // round_prefer_floor gives row 0.
  auto sz = run_op("Resize", 18, {tensor<float>({2, 2}, {1, 2, 3, 4}), none(), none(), tensor<int64_t>({1}, {1})},
                   {attr_ints("axes", {0})});
  EXPECT_EQ(sz[0].tensor.shape(), (Shape{1, 2}));
  expect_near(values_of<float>(sz[0]), {1, 2});
  expect_trap([] {
    run_op("Resize", 18, {tensor<float>({2, 2}, {1, 2, 3, 4}), none(), tensor<float>({2}, {2, 2})}, {attr_ints("axes", {1})});
  });
}

TEST(ResizeOp, Version18KeepAspectRatioPolicy) {
  Value x = tensor<float>({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  Value sizes = tensor<int64_t>({2}, {4, 4});
  // sizes / in = 2 and 1: not_larger takes 1 (the shape stays [2, 4]), not_smaller 2 ([4, 8]).
  auto nl = run_op("Resize", 18, {x, none(), none(), sizes}, {attr_string("keep_aspect_ratio_policy", "not_larger")});
  EXPECT_EQ(nl[0].tensor.shape(), (Shape{2, 4}));
  expect_near(values_of<float>(nl[0]), {1, 2, 3, 4, 5, 6, 7, 8});
  auto ns = run_op("Resize", 18, {x, none(), none(), sizes}, {attr_string("keep_aspect_ratio_policy", "not_smaller")});
  EXPECT_EQ(ns[0].tensor.shape(), (Shape{4, 8}));
  // [3] with sizes 2 under not_smaller: scale 2/3, length round_half_up(2) = 2; stretch gives 2 too.
  auto one_axis = run_op("Resize", 18, {tensor<float>({3}, {1, 2, 3}), none(), none(), tensor<int64_t>({1}, {2})},
                         {attr_string("keep_aspect_ratio_policy", "not_smaller")});
  EXPECT_EQ(one_axis[0].tensor.shape(), (Shape{2}));
  expect_trap([&] { run_op("Resize", 18, {x, none(), none(), sizes}, {attr_string("keep_aspect_ratio_policy", "fit")}); });
}

TEST(ResizeOp, Version18AntialiasLinear) {
  // [0, 1, 2, 3] at scale 1/2, half_pixel: x_original 0.5 and 2.5. The tent is stretched to
  // half-width 2: taps at distance 1.5, 0.5, 0.5, 1.5 weigh 0.25, 0.75, 0.75, 0.25 (sum 2, so
  // 1/8, 3/8, 3/8, 1/8); the tap below 0 reads element 0, the one past 3 element 3.
  // 0.5: 0/8 + 0*3/8 + 1*3/8 + 2/8 = 0.625; 2.5: 1/8 + 2*3/8 + 3*3/8 + 3/8 = 2.375.
  Value x = tensor<float>({4}, {0, 1, 2, 3});
  Value scales = tensor<float>({1}, {0.5f});
  auto aa = run_op("Resize", 18, {x, none(), scales}, {attr_string("mode", "linear"), attr_int("antialias", 1)});
  expect_near(values_of<float>(aa[0]), {0.625f, 2.375f});
  // Without antialias: plain interpolation at 0.5 and 2.5.
  auto plain = run_op("Resize", 18, {x, none(), scales}, {attr_string("mode", "linear")});
  expect_near(values_of<float>(plain[0]), {0.5f, 2.5f});
  // Upsampling is unaffected by antialias.
  auto up = run_op("Resize", 18, {tensor<float>({2}, {1, 3}), none(), tensor<float>({1}, {2})},
                   {attr_string("mode", "linear"), attr_int("antialias", 1)});
  expect_near(values_of<float>(up[0]), {1, 1.5f, 2.5f, 3});
  expect_trap([&] { run_op("Resize", 18, {x, none(), scales}, {attr_int("antialias", 1)}); }, "antialias");
}

TEST(ResizeOp, Version18AntialiasCubic) {
  // A constant input stays constant whatever the (normalized) weights are.
  auto out = run_op("Resize", 18, {tensor<float>({6}, {2, 2, 2, 2, 2, 2}), none(), tensor<float>({1}, {0.5f})},
                    {attr_string("mode", "cubic"), attr_int("antialias", 1)});
  expect_near(values_of<float>(out[0]), {2, 2, 2});
}

TEST(ResizeOp, Version19HalfPixelSymmetric) {
  // [0, 1, 2, 3] at scale 0.6: length floor(2.4) = 2; adjustment 2 / 2.4, offset 2 * (1 - 5/6) = 1/3;
  // x_original = 1/3 + (o + 0.5) / 0.6 - 0.5 = 2/3 and 7/3 (linear on 0..3 gives those values).
  Value x = tensor<float>({4}, {0, 1, 2, 3});
  auto out = run_op("Resize", 19, {x, none(), tensor<float>({1}, {0.6f})},
                    {attr_string("mode", "linear"), attr_string("coordinate_transformation_mode", "half_pixel_symmetric")});
  expect_near(values_of<float>(out[0]), {2.f / 3, 7.f / 3});
  expect_trap([&] {
    run_op("Resize", 18, {x, none(), tensor<float>({1}, {0.6f})},
           {attr_string("coordinate_transformation_mode", "half_pixel_symmetric")});
  });
}

TEST(UpsampleOp, Versions) {
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

// ---------------------------------------------------------------------------------------------
// GridSample

TEST(GridSampleOp, ModesAndPadding) {
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

TEST(GridSampleOp, Version20OneSpatialAxis) {
  // X = [1, 2, 4] (N=1, C=1), align_corners=1: pixel = v + 1, so -1 -> 0 (1) and 0.5 -> 1.5,
  // halfway between 2 and 4 (3).
  auto out = run_op("GridSample", 20, {tensor<float>({1, 1, 3}, {1, 2, 4}), tensor<float>({1, 2, 1}, {-1, 0.5f})},
                    {attr_int("align_corners", 1)});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1, 2}));
  expect_near(values_of<float>(out[0]), {1, 3});
}

TEST(GridSampleOp, Version20VolumetricCoordinatesInnermostFirst) {
  // X[d, h, w] = 4d + 2h + w + 1. The grid vector is (x, y, z) = (w, h, d): (1, -1, 1) with
  // align_corners=1 is w=1, h=0, d=1 -> 6; the centre averages all eight values -> 4.5.
  Value x = tensor<float>({1, 1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  auto out = run_op("GridSample", 20, {x, tensor<float>({1, 1, 1, 2, 3}, {1, -1, 1, 0, 0, 0})}, {attr_int("align_corners", 1)});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1, 1, 1, 2}));
  expect_near(values_of<float>(out[0]), {6, 4.5f});
  // nearest at (w, h, d) = (-1, 1, -1) -> w=0, h=1, d=0 -> 3; cubic at a voxel centre -> the voxel.
  auto nn = run_op("GridSample", 22, {x, tensor<float>({1, 1, 1, 1, 3}, {-1, 1, -1})},
                   {attr_int("align_corners", 1), attr_string("mode", "nearest")});
  expect_near(values_of<float>(nn[0]), {3});
  auto cu = run_op("GridSample", 20, {x, tensor<float>({1, 1, 1, 1, 3}, {1, 1, 1})},
                   {attr_int("align_corners", 1), attr_string("mode", "cubic")});
  expect_near(values_of<float>(cu[0]), {8});
}

TEST(GridSampleOp, Version20ModeNames) {
  auto x = tensor<float>({1, 1, 2, 2}, {1, 2, 3, 4});
  auto centre = tensor<float>({1, 1, 1, 2}, {0, 0});
  // The default mode is linear: the centre averages the four pixels.
  expect_near(values_of<float>(run_op("GridSample", 20, {x, centre})[0]), {2.5f});
  expect_trap([&] { run_op("GridSample", 20, {x, centre}, {attr_string("mode", "bilinear")}); }, "mode");
  expect_trap([&] { run_op("GridSample", 16, {x, centre}, {attr_string("mode", "linear")}); }, "mode");
  expect_trap([&] { run_op("GridSample", 20, {x, tensor<float>({1, 1, 1, 3}, {0, 0, 0})}); }, "grid");
}

}  // namespace
}  // namespace sonnx::testing
