// The indexing and data-movement operators: Reshape, Transpose, Concat, Split, Slice, Gather*,
// Scatter*, Pad, Tile, Expand, Squeeze, Unsqueeze, Flatten, Range, NonZero, TopK, OneHot, CumSum,
// Trilu, Unique, Compress, DepthToSpace, SpaceToDepth, Shape, Size, ConstantOfShape, EyeLike,
// ReverseSequence, Einsum, Constant. Expected values are worked out by hand from the ONNX operator
// text.
#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

using i64 = int64_t;
constexpr i64 kMax = std::numeric_limits<i64>::max();
constexpr i64 kMin = std::numeric_limits<i64>::min();

Value ints(const std::vector<i64>& v) { return tensor<i64>({static_cast<i64>(v.size())}, v); }
Value floats(const Shape& s, const std::vector<float>& v) { return tensor<float>(s, v); }

// ---------------------------------------------------------------------------------------------
// Reshape
TEST(ReshapeOp, ZeroCopiesAndMinusOneInfers) {
  auto out = run_op("Reshape", 14, {floats({2, 3, 1}, {1, 2, 3, 4, 5, 6}), ints({0, -1})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 3}));
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(ReshapeOp, AllowZeroKeepsZero) {
  auto out = run_op("Reshape", 14, {tensor<float>({0, 3}, {}), ints({3, 0})}, {attr_int("allowzero", 1)});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{3, 0}));
  // Without allowzero the 0 copies the input's dim 1 (3): 9 elements from 0 is an error.
  expect_trap([] { run_op("Reshape", 14, {tensor<float>({0, 3}, {}), ints({3, 0})}); });
  expect_trap([] { run_op("Reshape", 14, {tensor<float>({0, 3}, {}), ints({0, -1})}, {attr_int("allowzero", 1)}); });
}

TEST(ReshapeOp, Version1AttributeAndErrors) {
  auto out = run_op("Reshape", 1, {floats({2, 3}, {1, 2, 3, 4, 5, 6})}, {attr_ints("shape", {3, -1})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{3, 2}));
  expect_trap([] { run_op("Reshape", 13, {floats({2, 3}, {1, 2, 3, 4, 5, 6}), ints({-1, -1})}); });
  expect_trap([] { run_op("Reshape", 13, {floats({2, 3}, {1, 2, 3, 4, 5, 6}), ints({4, -1})}); });
  expect_trap([] { run_op("Reshape", 13, {floats({2, 3}, {1, 2, 3, 4, 5, 6}), ints({kMax, kMax, -1})}); });
}

TEST(ReshapeOp, ScalarRoundTrip) {
  auto out = run_op("Reshape", 13, {tensor<std::string>({1, 1}, {"s"}), tensor<i64>({0}, {})});
  EXPECT_EQ(out[0].tensor.shape(), Shape{});
  EXPECT_EQ(values_of<std::string>(out[0]), (std::vector<std::string>{"s"}));
}

// ---------------------------------------------------------------------------------------------
// Transpose
TEST(TransposeOp, DefaultReversesAxesForAnyType) {
  auto out = run_op("Transpose", 13, {tensor<std::string>({2, 3}, {"a", "b", "c", "d", "e", "f"})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{3, 2}));
  EXPECT_EQ(values_of<std::string>(out[0]), (std::vector<std::string>{"a", "d", "b", "e", "c", "f"}));
  auto b = run_op("Transpose", 1, {tensor<bool>({1, 2}, {true, false})});
  EXPECT_EQ(values_of<bool>(b[0]), (std::vector<bool>{true, false}));
  EXPECT_EQ(b[0].tensor.shape(), (Shape{2, 1}));
}

TEST(TransposeOp, PermOf3D) {
  // x[i][j][k] = 100i + 10j + k, shape [2,1,3]; perm (2,0,1) -> shape [3,2,1], y[k][i][j] = x[i][j][k].
  std::vector<int32_t> v{0, 1, 2, 100, 101, 102};
  auto out = run_op("Transpose", 13, {tensor<int32_t>({2, 1, 3}, v)}, {attr_ints("perm", {2, 0, 1})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{3, 2, 1}));
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{0, 100, 1, 101, 2, 102}));
  expect_trap([] { run_op("Transpose", 13, {tensor<int32_t>({1, 2}, {1, 2})}, {attr_ints("perm", {0, 0})}); });
}

TEST(TransposeOp, ComplexAndFloat16) {
  using c64 = std::complex<float>;
  auto out = run_op("Transpose", 13, {tensor<c64>({2, 1}, {c64(1, 2), c64(3, 4)})});
  EXPECT_EQ(values_of<c64>(out[0]), (std::vector<c64>{c64(1, 2), c64(3, 4)}));
  auto h = run_op("Transpose", 13,
                  {tensor<float16_t>({2, 2}, {float16_t(1.f), float16_t(2.f), float16_t(3.f), float16_t(-0.f)})});
  auto hv = values_of<float16_t>(h[0]);
  EXPECT_EQ(hv[1].bits, float16_t(3.f).bits);
  EXPECT_EQ(hv[3].bits, 0x8000);  // -0 moved bit-exactly
}

// ---------------------------------------------------------------------------------------------
// Concat
TEST(ConcatOp, NegativeAxisAndEmptyInput) {
  auto out = run_op("Concat", 13,
                    {tensor<int32_t>({2, 1}, {1, 2}), tensor<int32_t>({2, 0}, {}), tensor<int32_t>({2, 2}, {3, 4, 5, 6})},
                    {attr_int("axis", -1)});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 3}));
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{1, 3, 4, 2, 5, 6}));
}

TEST(ConcatOp, Version1DefaultsToAxis1AndStrings) {
  auto out = run_op("Concat", 1, {floats({1, 1}, {1}), floats({1, 2}, {2, 3})});
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{1, 2, 3}));
  auto s = run_op("Concat", 11, {tensor<std::string>({1}, {"x"}), tensor<std::string>({2}, {"y", "z"})}, {attr_int("axis", 0)});
  EXPECT_EQ(values_of<std::string>(s[0]), (std::vector<std::string>{"x", "y", "z"}));
  expect_trap([] { run_op("Concat", 13, {floats({1, 2}, {1, 2}), floats({2, 1}, {1, 2})}, {attr_int("axis", 0)}); });
}

// ---------------------------------------------------------------------------------------------
// Split
TEST(SplitOp, UnevenSplitInput) {
  auto out = run_op("Split", 13, {tensor<int32_t>({6}, {1, 2, 3, 4, 5, 6}), ints({2, 4})}, {}, 2);
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(values_of<int32_t>(out[1]), (std::vector<int32_t>{3, 4, 5, 6}));
}

TEST(SplitOp, EqualPartsAlongAxis1AndZeroLength) {
  auto out = run_op("Split", 11, {tensor<int32_t>({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8})}, {attr_int("axis", -1)}, 2);
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{1, 2, 5, 6}));
  EXPECT_EQ(values_of<int32_t>(out[1]), (std::vector<int32_t>{3, 4, 7, 8}));
  auto z = run_op("Split", 2, {tensor<int32_t>({3}, {1, 2, 3})}, {attr_ints("split", {0, 3})}, 2);
  EXPECT_EQ(z[0].tensor.shape(), (Shape{0}));
  EXPECT_EQ(values_of<int32_t>(z[1]), (std::vector<int32_t>{1, 2, 3}));
  expect_trap([] { run_op("Split", 13, {tensor<int32_t>({3}, {1, 2, 3})}, {}, 2); });
  expect_trap([] { run_op("Split", 13, {tensor<int32_t>({3}, {1, 2, 3}), ints({1, 1})}, {}, 2); });
}

TEST(SplitOp, Version1SecondInput) {
  auto out = run_op("Split", 1, {floats({3}, {1, 2, 3}), ints({1, 2})}, {}, 2);
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{1}));
  EXPECT_EQ(values_of<float>(out[1]), (std::vector<float>{2, 3}));
}

TEST(SplitOp, Version18NumOutputsUnevenLastChunk) {
  // 7 into 3 parts: ceil(7/3) = 3, so 3, 3 and a smaller last part of 1.
  auto out = run_op("Split", 18, {tensor<int32_t>({7}, {1, 2, 3, 4, 5, 6, 7})}, {attr_int("num_outputs", 3)}, 3);
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{1, 2, 3}));
  EXPECT_EQ(values_of<int32_t>(out[1]), (std::vector<int32_t>{4, 5, 6}));
  EXPECT_EQ(values_of<int32_t>(out[2]), (std::vector<int32_t>{7}));
  // Even division along axis 1 of [2, 4].
  auto even = run_op("Split", 18, {tensor<int32_t>({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8})},
                     {attr_int("axis", 1), attr_int("num_outputs", 2)}, 2);
  EXPECT_EQ(values_of<int32_t>(even[1]), (std::vector<int32_t>{3, 4, 7, 8}));
  // Neither split nor num_outputs: the output count (2) divides 5 into 3 and 2.
  auto implicit = run_op("Split", 18, {tensor<int32_t>({5}, {1, 2, 3, 4, 5})}, {}, 2);
  EXPECT_EQ(values_of<int32_t>(implicit[0]), (std::vector<int32_t>{1, 2, 3}));
  EXPECT_EQ(values_of<int32_t>(implicit[1]), (std::vector<int32_t>{4, 5}));
  // The split input still works at 18.
  auto given = run_op("Split", 18, {tensor<int32_t>({3}, {1, 2, 3}), ints({1, 2})}, {}, 2);
  EXPECT_EQ(values_of<int32_t>(given[1]), (std::vector<int32_t>{2, 3}));
}

TEST(SplitOp, Version18NumOutputsErrors) {
  Value x = tensor<int32_t>({5}, {1, 2, 3, 4, 5});
  // num_outputs differs from the output count; both split and num_outputs; 5 into 4 parts of 2.
  expect_trap([&] { run_op("Split", 18, {x}, {attr_int("num_outputs", 3)}, 2); }, "num_outputs");
  expect_trap([&] { run_op("Split", 18, {x, ints({2, 3})}, {attr_int("num_outputs", 2)}, 2); }, "both");
  expect_trap([&] { run_op("Split", 18, {x}, {attr_int("num_outputs", 4)}, 4); }, "cannot be split");
}

// ---------------------------------------------------------------------------------------------
// Slice
Value iota_i32(i64 n) {
  std::vector<int32_t> v(static_cast<size_t>(n));
  for (i64 i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<int32_t>(i);
  return tensor<int32_t>({n}, v);
}

TEST(SliceOp, NegativeStepWithIntMinEnd) {
  auto out = run_op("Slice", 13, {iota_i32(10), ints({8}), ints({kMin}), ints({0}), ints({-3})});
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{8, 5, 2}));
  // start past the end clamps to dim-1 for a negative step.
  auto r = run_op("Slice", 13, {iota_i32(4), ints({20}), ints({0}), none(), ints({-1})});
  EXPECT_EQ(values_of<int32_t>(r[0]), (std::vector<int32_t>{3, 2, 1}));
}

TEST(SliceOp, IntMaxEndAndNegativeStart) {
  auto out = run_op("Slice", 10, {iota_i32(10), ints({-3}), ints({kMax})});
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{7, 8, 9}));
  auto big = run_op("Slice", 13, {iota_i32(5), ints({1}), ints({kMax}), ints({0}), ints({kMax})});
  EXPECT_EQ(values_of<int32_t>(big[0]), (std::vector<int32_t>{1}));
  auto minstep = run_op("Slice", 13, {iota_i32(5), ints({kMax}), ints({kMin}), ints({0}), ints({kMin})});
  EXPECT_EQ(values_of<int32_t>(minstep[0]), (std::vector<int32_t>{4}));
}

TEST(SliceOp, AxesStepsAndEmptyResult) {
  std::vector<int32_t> v(12);
  for (int i = 0; i < 12; ++i) v[static_cast<size_t>(i)] = i;
  auto out = run_op("Slice", 13, {tensor<int32_t>({3, 4}, v), ints({1}), ints({1000}), ints({-1}), ints({2})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{3, 2}));
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{1, 3, 5, 7, 9, 11}));
  auto e = run_op("Slice", 13, {tensor<int32_t>({3, 4}, v), ints({2}), ints({1}), ints({0})});
  EXPECT_EQ(e[0].tensor.shape(), (Shape{0, 4}));
  expect_trap([&] { run_op("Slice", 13, {tensor<int32_t>({3, 4}, v), ints({0}), ints({1}), ints({0}), ints({0})}); });
  expect_trap([&] { run_op("Slice", 13, {tensor<int32_t>({3, 4}, v), ints({0, 0}), ints({1, 1}), ints({0, -2})}); });
}

TEST(SliceOp, Version1Attributes) {
  auto out = run_op("Slice", 1, {floats({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8})},
                    {attr_ints("starts", {1, 0}), attr_ints("ends", {2, 3}), attr_ints("axes", {0, 1})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 3}));
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{5, 6, 7}));
  auto d = run_op("Slice", 1, {floats({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8})},
                  {attr_ints("starts", {0, 1}), attr_ints("ends", {-1, 1000})});
  EXPECT_EQ(values_of<float>(d[0]), (std::vector<float>{2, 3, 4}));
}

TEST(SliceOp, Int32Indices) {
  auto out = run_op("Slice", 13,
                    {iota_i32(6), tensor<int32_t>({1}, {-2}), tensor<int32_t>({1}, {-100}), tensor<int32_t>({1}, {0}),
                     tensor<int32_t>({1}, {-2})});
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{4, 2, 0}));
}

// ---------------------------------------------------------------------------------------------
// Gather family
TEST(GatherOp, NegativeIndicesAndAxis1) {
  auto out = run_op("Gather", 13, {floats({3, 2}, {1, 2, 3, 4, 5, 6}), tensor<int64_t>({1, 2}, {0, -1})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 2, 2}));
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{1, 2, 5, 6}));
  auto a1 = run_op("Gather", 11, {floats({3, 2}, {1, 2, 3, 4, 5, 6}), tensor<int32_t>({1}, {1})}, {attr_int("axis", 1)});
  EXPECT_EQ(a1[0].tensor.shape(), (Shape{3, 1}));
  EXPECT_EQ(values_of<float>(a1[0]), (std::vector<float>{2, 4, 6}));
  auto s = run_op("Gather", 13, {tensor<std::string>({3}, {"a", "b", "c"}), tensor<int64_t>({}, {2})});
  EXPECT_EQ(s[0].tensor.shape(), Shape{});
  EXPECT_EQ(values_of<std::string>(s[0]), (std::vector<std::string>{"c"}));
  expect_trap([] { run_op("Gather", 13, {floats({3}, {1, 2, 3}), tensor<int64_t>({1}, {3})}); });
  expect_trap([] { run_op("Gather", 13, {floats({3}, {1, 2, 3}), tensor<int64_t>({1}, {-4})}); });
}

TEST(GatherElementsOp, Axis1AndNegative) {
  auto out = run_op("GatherElements", 13, {tensor<int32_t>({2, 2}, {1, 2, 3, 4}), tensor<int64_t>({2, 2}, {0, 0, 1, -2})},
                    {attr_int("axis", 1)});
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{1, 1, 4, 3}));
  auto a0 = run_op("GatherElements", 11,
                   {tensor<int32_t>({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}), tensor<int32_t>({2, 3}, {1, 2, 0, 2, 0, 0})});
  EXPECT_EQ(values_of<int32_t>(a0[0]), (std::vector<int32_t>{4, 8, 3, 7, 2, 3}));
  expect_trap([] { run_op("GatherElements", 13, {tensor<int32_t>({2}, {1, 2}), tensor<int64_t>({1}, {2})}); });
}

TEST(GatherNDOp, BatchDimsAndSlices) {
  auto out = run_op("GatherND", 12, {tensor<int32_t>({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}), tensor<int64_t>({2, 1}, {1, 0})},
                    {attr_int("batch_dims", 1)});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 2}));
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{2, 3, 4, 5}));
  auto full = run_op("GatherND", 11, {tensor<int32_t>({2, 2}, {0, 1, 2, 3}), tensor<int64_t>({2, 2}, {0, 0, 1, -1})});
  EXPECT_EQ(values_of<int32_t>(full[0]), (std::vector<int32_t>{0, 3}));
  auto sl = run_op("GatherND", 13, {tensor<int32_t>({2, 2}, {0, 1, 2, 3}), tensor<int64_t>({2, 1}, {1, 0})});
  EXPECT_EQ(values_of<int32_t>(sl[0]), (std::vector<int32_t>{2, 3, 0, 1}));
  expect_trap([] { run_op("GatherND", 13, {tensor<int32_t>({2}, {0, 1}), tensor<int64_t>({1, 1}, {2})}); });
}

// ---------------------------------------------------------------------------------------------
// Scatter family
TEST(ScatterOp, DeprecatedVersion9) {
  auto out = run_op("Scatter", 9, {floats({1, 5}, {1, 2, 3, 4, 5}), tensor<int64_t>({1, 2}, {1, 3}), floats({1, 2}, {10, 20})},
                    {attr_int("axis", 1)});
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{1, 10, 3, 20, 5}));
  auto v11 = run_op("Scatter", 11, {floats({3}, {0, 0, 0}), tensor<int32_t>({2}, {-1, 0}), floats({2}, {7, 8})});
  EXPECT_EQ(values_of<float>(v11[0]), (std::vector<float>{8, 0, 7}));
}

TEST(ScatterElementsOp, ReductionsWithDuplicates) {
  auto add = run_op("ScatterElements", 16,
                    {tensor<int32_t>({1, 5}, {1, 2, 3, 4, 5}), tensor<int64_t>({1, 2}, {1, 1}),
                     tensor<int32_t>({1, 2}, {10, 20})},
                    {attr_int("axis", 1), attr_string("reduction", "add")});
  EXPECT_EQ(values_of<int32_t>(add[0]), (std::vector<int32_t>{1, 32, 3, 4, 5}));
  auto mul = run_op("ScatterElements", 16,
                    {tensor<int32_t>({1, 5}, {1, 2, 3, 4, 5}), tensor<int64_t>({1, 2}, {1, 1}),
                     tensor<int32_t>({1, 2}, {10, 20})},
                    {attr_int("axis", 1), attr_string("reduction", "mul")});
  EXPECT_EQ(values_of<int32_t>(mul[0]), (std::vector<int32_t>{1, 400, 3, 4, 5}));
  // Without reduction the last duplicate (row-major order) wins.
  auto none_r = run_op("ScatterElements", 13,
                       {tensor<int32_t>({3}, {1, 2, 3}), tensor<int64_t>({2}, {0, 0}), tensor<int32_t>({2}, {7, 9})});
  EXPECT_EQ(values_of<int32_t>(none_r[0]), (std::vector<int32_t>{9, 2, 3}));
  expect_trap([] {
    run_op("ScatterElements", 13, {tensor<int32_t>({3}, {1, 2, 3}), tensor<int64_t>({1}, {3}), tensor<int32_t>({1}, {7})});
  });
}

TEST(ScatterElementsOp, Axis0StringsAndBoolAdd) {
  auto s = run_op("ScatterElements", 11,
                  {tensor<std::string>({2, 2}, {"a", "b", "c", "d"}), tensor<int64_t>({1, 2}, {1, 0}),
                   tensor<std::string>({1, 2}, {"x", "y"})});
  EXPECT_EQ(values_of<std::string>(s[0]), (std::vector<std::string>{"a", "y", "x", "d"}));
  auto b = run_op("ScatterElements", 16,
                  {tensor<bool>({2}, {false, false}), tensor<int64_t>({2}, {1, 1}), tensor<bool>({2}, {true, false})},
                  {attr_string("reduction", "add")});
  EXPECT_EQ(values_of<bool>(b[0]), (std::vector<bool>{false, true}));
}

TEST(ScatterElementsOp, Version18MaxMin) {
  // data [1, 5, 3], updates 4 and 2 both to position 1, then 6 to position 2.
  Value data = floats({3}, {1, 5, 3});
  Value idx = tensor<int64_t>({3}, {1, 1, 2});
  Value upd = floats({3}, {4, 2, 6});
  auto mx = run_op("ScatterElements", 18, {data, idx, upd}, {attr_string("reduction", "max")});
  EXPECT_EQ(values_of<float>(mx[0]), (std::vector<float>{1, 5, 6}));
  auto mn = run_op("ScatterElements", 18, {data, idx, upd}, {attr_string("reduction", "min")});
  EXPECT_EQ(values_of<float>(mn[0]), (std::vector<float>{1, 2, 3}));
  // NaN on either side wins.
  auto nan = run_op("ScatterElements", 18, {floats({2}, {kNaN, 1}), tensor<int64_t>({2}, {0, 1}), floats({2}, {7, kNaN})},
                    {attr_string("reduction", "max")});
  expect_floats_near(nan[0], {kNaN, kNaN});
  // Along axis 1 with int32, and max not yet known at 16.
  auto ax1 = run_op("ScatterElements", 18,
                    {tensor<int32_t>({2, 2}, {1, 2, 3, 4}), tensor<int64_t>({2, 1}, {1, 0}), tensor<int32_t>({2, 1}, {0, 9})},
                    {attr_int("axis", 1), attr_string("reduction", "min")});
  EXPECT_EQ(values_of<int32_t>(ax1[0]), (std::vector<int32_t>{1, 0, 3, 4}));
  expect_trap([&] { run_op("ScatterElements", 16, {data, idx, upd}, {attr_string("reduction", "max")}); }, "reduction");
}

TEST(ScatterNDOp, Version18MaxMinOnSlices) {
  // Rows 0 and 0 again of [[1, 8], [3, 4]]: max with [5, 2] then [0, 9] gives [5, 9].
  Value data = tensor<int64_t>({2, 2}, {1, 8, 3, 4});
  Value idx = tensor<int64_t>({2, 1}, {0, 0});
  Value upd = tensor<int64_t>({2, 2}, {5, 2, 0, 9});
  auto mx = run_op("ScatterND", 18, {data, idx, upd}, {attr_string("reduction", "max")});
  EXPECT_EQ(values_of<int64_t>(mx[0]), (std::vector<int64_t>{5, 9, 3, 4}));
  auto mn = run_op("ScatterND", 18, {data, idx, upd}, {attr_string("reduction", "min")});
  EXPECT_EQ(values_of<int64_t>(mn[0]), (std::vector<int64_t>{0, 2, 3, 4}));
  auto b = run_op("ScatterND", 18,
                  {tensor<bool>({2}, {false, true}), tensor<int64_t>({2, 1}, {0, 1}), tensor<bool>({2}, {true, false})},
                  {attr_string("reduction", "min")});
  EXPECT_EQ(values_of<bool>(b[0]), (std::vector<bool>{false, false}));
}

TEST(ScatterNDOp, SlicesAndMul) {
  auto out = run_op("ScatterND", 11,
                    {tensor<int32_t>({2, 2}, {1, 2, 3, 4}), tensor<int64_t>({1, 1}, {1}), tensor<int32_t>({1, 2}, {8, 9})});
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{1, 2, 8, 9}));
  auto mul = run_op("ScatterND", 16,
                    {tensor<int32_t>({4}, {1, 2, 3, 4}), tensor<int64_t>({2, 1}, {1, -3}), tensor<int32_t>({2}, {3, 5})},
                    {attr_string("reduction", "mul")});
  EXPECT_EQ(values_of<int32_t>(mul[0]), (std::vector<int32_t>{1, 30, 3, 4}));
  expect_trap([] {
    run_op("ScatterND", 13, {tensor<int32_t>({4}, {1, 2, 3, 4}), tensor<int64_t>({1, 1}, {1}), tensor<int32_t>({2}, {3, 5})});
  });
}

// ---------------------------------------------------------------------------------------------
// Pad
TEST(PadOp, ReflectEdgeConstant) {
  auto r = run_op("Pad", 13, {floats({3}, {1, 2, 3}), ints({2, 2})}, {attr_string("mode", "reflect")});
  EXPECT_EQ(values_of<float>(r[0]), (std::vector<float>{3, 2, 1, 2, 3, 2, 1}));
  auto e = run_op("Pad", 13, {floats({3}, {1, 2, 3}), ints({2, 2})}, {attr_string("mode", "edge")});
  EXPECT_EQ(values_of<float>(e[0]), (std::vector<float>{1, 1, 1, 2, 3, 3, 3}));
  auto c = run_op("Pad", 11, {floats({3}, {1, 2, 3}), ints({1, -1}), tensor<float>({}, {9})});
  EXPECT_EQ(values_of<float>(c[0]), (std::vector<float>{9, 1, 2}));
}

TEST(PadOp, ReflectLongerThanAxisIsPeriodic) {
  // numpy.pad([0,1,2], 5, 'reflect') = [1 0 1 2 1 0 1 2 1 0 1 2 1]
  auto r = run_op("Pad", 13, {tensor<int32_t>({3}, {0, 1, 2}), ints({5, 5})}, {attr_string("mode", "reflect")});
  EXPECT_EQ(values_of<int32_t>(r[0]), (std::vector<int32_t>{1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1}));
  auto one_elem = run_op("Pad", 13, {tensor<int32_t>({1}, {7}), ints({2, 1})}, {attr_string("mode", "reflect")});
  EXPECT_EQ(values_of<int32_t>(one_elem[0]), (std::vector<int32_t>{7, 7, 7, 7}));
  expect_trap([] { run_op("Pad", 13, {tensor<int32_t>({0}, {}), ints({1, 0})}, {attr_string("mode", "edge")}); });
  expect_trap([] { run_op("Pad", 13, {tensor<int32_t>({1}, {7}), ints({kMin + 1, kMax})}); });
  expect_trap([] { run_op("Pad", 13, {tensor<int32_t>({2}, {7, 8}), ints({-2, -1})}); });
}

TEST(PadOp, AttributeVersions) {
  auto v2 = run_op("Pad", 2, {floats({2, 2}, {1, 2, 3, 4})}, {attr_ints("pads", {0, 1, 0, 0}), attr_float("value", 5)});
  EXPECT_EQ(v2[0].tensor.shape(), (Shape{2, 3}));
  EXPECT_EQ(values_of<float>(v2[0]), (std::vector<float>{5, 1, 2, 5, 3, 4}));
  // Version 1: paddings = [x1_begin, x2_begin, x1_end, x2_end].
  auto v1 = run_op("Pad", 1, {floats({2, 2}, {1, 2, 3, 4})}, {attr_ints("paddings", {1, 0, 0, 0})});
  EXPECT_EQ(v1[0].tensor.shape(), (Shape{3, 2}));
  EXPECT_EQ(values_of<float>(v1[0]), (std::vector<float>{0, 0, 1, 2, 3, 4}));
}

TEST(PadOp, Version18AxesInput) {
  // Only axis 1 (given as -1) of [2, 3] is padded: one in front, two behind.
  Value x = tensor<int32_t>({2, 3}, {1, 2, 3, 4, 5, 6});
  auto out = run_op("Pad", 18, {x, ints({1, 2}), tensor<int32_t>({}, {9}), ints({-1})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 6}));
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{9, 1, 2, 3, 9, 9, 9, 4, 5, 6, 9, 9}));
  // Omitted constant_value with axes: zero fill; edge mode along axis 0 only.
  auto e = run_op("Pad", 18, {x, ints({1, 0}), none(), ints({0})}, {attr_string("mode", "edge")});
  EXPECT_EQ(values_of<int32_t>(e[0]), (std::vector<int32_t>{1, 2, 3, 1, 2, 3, 4, 5, 6}));
  expect_trap([&] { run_op("Pad", 18, {x, ints({1, 2, 3, 4}), none(), ints({1})}); }, "axes");
  expect_trap([&] { run_op("Pad", 18, {x, ints({1, 1, 1, 1}), none(), ints({1, -1})}); }, "more than once");
  expect_trap([&] { run_op("Pad", 18, {x, ints({1, 1}), none(), ints({0})}, {attr_string("mode", "wrap")}); }, "mode");
}

TEST(PadOp, Version19WrapSpecExample) {
  // Example 4 of the specification: pads = [2, 1, 1, 1].
  Value x = floats({3, 2}, {1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f});
  auto out = run_op("Pad", 19, {x, ints({2, 1, 1, 1})}, {attr_string("mode", "wrap")});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{6, 4}));
  EXPECT_EQ(values_of<float>(out[0]),
            (std::vector<float>{3.4f, 2.3f, 3.4f, 2.3f, 5.7f, 4.5f, 5.7f, 4.5f, 1.2f, 1.0f, 1.2f, 1.0f,
                                3.4f, 2.3f, 3.4f, 2.3f, 5.7f, 4.5f, 5.7f, 4.5f, 1.2f, 1.0f, 1.2f, 1.0f}));
}

TEST(PadOp, Version19WrapAfterCroppingAndLaterVersions) {
  // [1, 2, 3, 4] cropped by one in front is [2, 3, 4]; two more wrap around to 2, 3.
  auto out = run_op("Pad", 19, {tensor<int32_t>({4}, {1, 2, 3, 4}), ints({-1, 2})}, {attr_string("mode", "wrap")});
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{2, 3, 4, 2, 3}));
  // Longer than the axis: 5 in front of [1, 2] reads positions -5..-1 mod 2 = 1, 0, 1, 0, 1.
  auto longer = run_op("Pad", 25, {tensor<int32_t>({2}, {1, 2}), ints({5, 0})}, {attr_string("mode", "wrap")});
  EXPECT_EQ(values_of<int32_t>(longer[0]), (std::vector<int32_t>{2, 1, 2, 1, 2, 1, 2}));
  for (int64_t v : {21, 23, 24}) {
    auto c = run_op("Pad", v, {tensor<int32_t>({1}, {7}), ints({1, 0}), tensor<int32_t>({}, {3})});
    EXPECT_EQ(values_of<int32_t>(c[0]), (std::vector<int32_t>{3, 7}));
  }
}

TEST(PadOp, StringsAndBool) {
  auto s = run_op("Pad", 13, {tensor<std::string>({2}, {"a", "b"}), ints({1, 0})});
  EXPECT_EQ(values_of<std::string>(s[0]), (std::vector<std::string>{"", "a", "b"}));
  auto b = run_op("Pad", 13, {tensor<bool>({1}, {false}), ints({0, 1}), tensor<bool>({}, {true})});
  EXPECT_EQ(values_of<bool>(b[0]), (std::vector<bool>{false, true}));
}

// ---------------------------------------------------------------------------------------------
// Tile / Expand
TEST(TileOp, RepeatsAndVersion1) {
  auto out = run_op("Tile", 13, {tensor<int32_t>({2, 2}, {1, 2, 3, 4}), ints({1, 2})});
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{1, 2, 1, 2, 3, 4, 3, 4}));
  auto v1 = run_op("Tile", 1, {floats({1, 2}, {1, 2}), tensor<float>({}, {3}), tensor<float>({}, {0})});
  EXPECT_EQ(v1[0].tensor.shape(), (Shape{3, 2}));
  EXPECT_EQ(values_of<float>(v1[0]), (std::vector<float>{1, 2, 1, 2, 1, 2}));
  expect_trap([] { run_op("Tile", 1, {floats({2}, {1, 2}), tensor<float>({0}, {}), tensor<float>({}, {0})}); });
  auto zero = run_op("Tile", 6, {tensor<int32_t>({2}, {1, 2}), ints({0})});
  EXPECT_EQ(zero[0].tensor.shape(), (Shape{0}));
  expect_trap([] { run_op("Tile", 13, {tensor<int32_t>({2}, {1, 2}), ints({-1})}); });
}

TEST(ExpandOp, OutputCanExceedShape) {
  auto out = run_op("Expand", 13, {tensor<int32_t>({3, 1}, {1, 2, 3}), ints({2, 1, 2})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 3, 2}));
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
  auto same = run_op("Expand", 8, {tensor<int32_t>({3, 1}, {1, 2, 3}), ints({1})});
  EXPECT_EQ(same[0].tensor.shape(), (Shape{3, 1}));
  expect_trap([] { run_op("Expand", 13, {tensor<int32_t>({3}, {1, 2, 3}), ints({2})}); });
}

// ---------------------------------------------------------------------------------------------
// Squeeze / Unsqueeze / Flatten
TEST(SqueezeOp, AllFormsAndErrors) {
  auto all = run_op("Squeeze", 13, {tensor<int32_t>({1, 3, 1}, {1, 2, 3})});
  EXPECT_EQ(all[0].tensor.shape(), (Shape{3}));
  auto neg = run_op("Squeeze", 13, {tensor<int32_t>({1, 3, 1}, {1, 2, 3}), ints({-1})});
  EXPECT_EQ(neg[0].tensor.shape(), (Shape{1, 3}));
  auto v1 = run_op("Squeeze", 1, {tensor<int32_t>({1, 3, 1}, {1, 2, 3})}, {attr_ints("axes", {0})});
  EXPECT_EQ(v1[0].tensor.shape(), (Shape{3, 1}));
  expect_trap([] { run_op("Squeeze", 11, {tensor<int32_t>({1, 3}, {1, 2, 3})}, {attr_ints("axes", {1})}); });
}

TEST(UnsqueezeOp, AxesAreOutputPositions) {
  auto out = run_op("Unsqueeze", 13, {tensor<int32_t>({2}, {1, 2}), ints({-1, 0})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 2, 1}));
  auto v11 = run_op("Unsqueeze", 11, {tensor<int32_t>({3, 4}, std::vector<int32_t>(12, 0))}, {attr_ints("axes", {1, 3})});
  EXPECT_EQ(v11[0].tensor.shape(), (Shape{3, 1, 4, 1}));
  auto scalar = run_op("Unsqueeze", 1, {tensor<int32_t>({}, {5})}, {attr_ints("axes", {0})});
  EXPECT_EQ(scalar[0].tensor.shape(), (Shape{1}));
  // A scalar axes input (as in the official test_loop13_seq model) is one axis.
  auto sa = run_op("Unsqueeze", 13, {tensor<int32_t>({2}, {1, 2}), tensor<int64_t>({}, {0})});
  EXPECT_EQ(sa[0].tensor.shape(), (Shape{1, 2}));
  expect_trap([] { run_op("Unsqueeze", 13, {tensor<int32_t>({2}, {1, 2}), ints({0, 0})}); });
  expect_trap([] { run_op("Unsqueeze", 13, {tensor<int32_t>({2}, {1, 2}), ints({2})}); });
}

TEST(FlattenOp, Axes) {
  Value x = tensor<int32_t>({2, 3, 4}, std::vector<int32_t>(24, 1));
  EXPECT_EQ(run_op("Flatten", 13, {x}, {attr_int("axis", 0)})[0].tensor.shape(), (Shape{1, 24}));
  EXPECT_EQ(run_op("Flatten", 13, {x}, {attr_int("axis", -1)})[0].tensor.shape(), (Shape{6, 4}));
  EXPECT_EQ(run_op("Flatten", 9, {x}, {attr_int("axis", 3)})[0].tensor.shape(), (Shape{24, 1}));
  EXPECT_EQ(run_op("Flatten", 1, {x})[0].tensor.shape(), (Shape{2, 12}));
  expect_trap([&] { run_op("Flatten", 13, {x}, {attr_int("axis", 4)}); });
}

// ---------------------------------------------------------------------------------------------
// Range
TEST(RangeOp, IntegersExactly) {
  auto out = run_op("Range", 11, {tensor<int32_t>({}, {10}), tensor<int32_t>({}, {4}), tensor<int32_t>({}, {-3})});
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{10, 7}));
  // ceil((2^64 - 1) / (2^63 - 1)) = 3 elements, no overflow.
  auto wide = run_op("Range", 11, {tensor<int64_t>({}, {kMin}), tensor<int64_t>({}, {kMax}), tensor<int64_t>({}, {kMax})});
  EXPECT_EQ(values_of<int64_t>(wide[0]), (std::vector<int64_t>{kMin, -1, kMax - 1}));
  auto empty = run_op("Range", 11, {tensor<int16_t>({}, {1}), tensor<int16_t>({}, {5}), tensor<int16_t>({}, {-1})});
  EXPECT_EQ(empty[0].tensor.shape(), (Shape{0}));
  expect_trap([] { run_op("Range", 11, {tensor<int32_t>({}, {1}), tensor<int32_t>({}, {5}), tensor<int32_t>({}, {0})}); });
}

TEST(RangeOp, Floats) {
  auto out = run_op("Range", 11, {tensor<float>({}, {1}), tensor<float>({}, {2}), tensor<float>({}, {0.25f})});
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{1, 1.25f, 1.5f, 1.75f}));
  float inf = std::numeric_limits<float>::infinity();
  expect_trap([&] { run_op("Range", 11, {tensor<float>({}, {0}), tensor<float>({}, {inf}), tensor<float>({}, {1})}); });
}

TEST(RangeOp, Version27Float16StashType) {
  // delta = float16(0.1) = 0.0999755859375. In float (stash_type 1, the default) the count is
  // ceil(1 / 0.0999755859375) = ceil(10.0024...) = 11; in float16 (stash_type 10) the quotient
  // rounds to 10.0 first, so 10 elements.
  Value start = tensor<float16_t>({}, {float16_t(0.f)});
  Value limit = tensor<float16_t>({}, {float16_t(1.f)});
  Value delta = tensor<float16_t>({}, {float16_t(0.1f)});
  auto f = run_op("Range", 27, {start, limit, delta});
  EXPECT_EQ(f[0].tensor.shape(), (Shape{11}));
  auto h = run_op("Range", 27, {start, limit, delta}, {attr_int("stash_type", 10)});
  EXPECT_EQ(h[0].tensor.shape(), (Shape{10}));
  // Element 3: 3 * 0.0999755859375 = 0.2999267578125 (exact in float), rounded once to float16:
  // 0.2999267578125 = 2457 * 2^-13 lies halfway between 1228 * 2^-12 and 1229 * 2^-12 and goes to
  // the even one, 1228 * 2^-12 = 0.2998046875.
  EXPECT_EQ(static_cast<float>(values_of<float16_t>(f[0])[3]), 0.2998046875f);
  // Large values: float arithmetic then one rounding; 2048 + 1 and 2048 + 3 are float16 ties
  // (spacing 2) that go to the even neighbours 2048 and 2052.
  auto big = run_op("Range", 27,
                    {tensor<float16_t>({}, {float16_t(2048.f)}), tensor<float16_t>({}, {float16_t(2052.f)}),
                     tensor<float16_t>({}, {float16_t(1.f)})});
  std::vector<float> got;
  for (auto v : values_of<float16_t>(big[0])) got.push_back(static_cast<float>(v));
  EXPECT_EQ(got, (std::vector<float>{2048, 2048, 2050, 2052}));
  expect_trap([&] { run_op("Range", 27, {start, limit, delta}, {attr_int("stash_type", 3)}); }, "stash_type");
  // Other types are unchanged at 27.
  auto i = run_op("Range", 27, {tensor<int32_t>({}, {10}), tensor<int32_t>({}, {4}), tensor<int32_t>({}, {-3})});
  EXPECT_EQ(values_of<int32_t>(i[0]), (std::vector<int32_t>{10, 7}));
}

// ---------------------------------------------------------------------------------------------
// NonZero
TEST(NonZeroOp, ShapesAndTypes) {
  auto m = run_op("NonZero", 13, {tensor<int32_t>({2, 2}, {1, 0, 0, 2})});
  EXPECT_EQ(m[0].tensor.shape(), (Shape{2, 2}));
  EXPECT_EQ(values_of<int64_t>(m[0]), (std::vector<int64_t>{0, 1, 0, 1}));
  auto s = run_op("NonZero", 9, {tensor<float>({}, {5})});
  EXPECT_EQ(s[0].tensor.shape(), (Shape{0, 1}));
  auto str = run_op("NonZero", 13, {tensor<std::string>({3}, {"", "x", "y"})});
  EXPECT_EQ(values_of<int64_t>(str[0]), (std::vector<int64_t>{1, 2}));
  float nan = std::numeric_limits<float>::quiet_NaN();
  auto f = run_op("NonZero", 13, {tensor<float>({3}, {-0.f, nan, 0.f})});
  EXPECT_EQ(values_of<int64_t>(f[0]), (std::vector<int64_t>{1}));
}

// ---------------------------------------------------------------------------------------------
// TopK
TEST(TopKOp, TiesGoToLowerIndex) {
  auto out = run_op("TopK", 11, {floats({4}, {3, 1, 3, 2}), ints({2})}, {}, 2);
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{3, 3}));
  EXPECT_EQ(values_of<int64_t>(out[1]), (std::vector<int64_t>{0, 2}));
  auto small = run_op("TopK", 11, {floats({4}, {3, 1, 3, 2}), ints({3})}, {attr_int("largest", 0)}, 2);
  EXPECT_EQ(values_of<float>(small[0]), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(values_of<int64_t>(small[1]), (std::vector<int64_t>{1, 3, 0}));
}

TEST(TopKOp, AxisVersionsAndNaN) {
  auto v1 = run_op("TopK", 1, {floats({2, 2}, {1, 4, 3, 2})}, {attr_int("k", 1), attr_int("axis", 0)}, 2);
  EXPECT_EQ(values_of<float>(v1[0]), (std::vector<float>{3, 4}));
  EXPECT_EQ(values_of<int64_t>(v1[1]), (std::vector<int64_t>{1, 0}));
  float nan = std::numeric_limits<float>::quiet_NaN();
  auto n = run_op("TopK", 10, {floats({3}, {1, nan, 2}), ints({1})}, {}, 2);
  EXPECT_TRUE(std::isnan(values_of<float>(n[0])[0]));
  EXPECT_EQ(values_of<int64_t>(n[1]), (std::vector<int64_t>{1}));
  auto i = run_op("TopK", 11, {tensor<int32_t>({3}, {5, -7, 9}), ints({1})}, {attr_int("largest", 0)}, 2);
  EXPECT_EQ(values_of<int32_t>(i[0]), (std::vector<int32_t>{-7}));
  expect_trap([] { run_op("TopK", 11, {floats({2}, {1, 2}), ints({3})}, {}, 2); });
}

TEST(TopKOp, Version24Bfloat16) {
  auto out = run_op("TopK", 24, {tensor<bfloat16_t>({3}, {bfloat16_t(1.f), bfloat16_t(3.f), bfloat16_t(2.f)}), ints({2})}, {},
                    2);
  auto v = values_of<bfloat16_t>(out[0]);
  EXPECT_EQ(static_cast<float>(v[0]), 3.f);
  EXPECT_EQ(static_cast<float>(v[1]), 2.f);
  EXPECT_EQ(values_of<int64_t>(out[1]), (std::vector<int64_t>{1, 2}));
}

// ---------------------------------------------------------------------------------------------
// OneHot
TEST(OneHotOp, NegativeIndicesByVersion) {
  Value idx = tensor<int64_t>({3}, {-1, 0, 3});
  auto v11 = run_op("OneHot", 11, {idx, tensor<int64_t>({}, {3}), tensor<float>({2}, {0, 1})});
  EXPECT_EQ(v11[0].tensor.shape(), (Shape{3, 3}));
  EXPECT_EQ(values_of<float>(v11[0]), (std::vector<float>{0, 0, 1, 1, 0, 0, 0, 0, 0}));
  auto v9 = run_op("OneHot", 9, {idx, tensor<int64_t>({}, {3}), tensor<float>({2}, {0, 1})});
  EXPECT_EQ(values_of<float>(v9[0]), (std::vector<float>{0, 0, 0, 1, 0, 0, 0, 0, 0}));
}

TEST(OneHotOp, Axis0FloatIndicesStringValues) {
  auto out = run_op("OneHot", 11,
                    {tensor<float>({2}, {0.7f, 2.2f}), tensor<float>({}, {3.9f}), tensor<std::string>({2}, {"off", "on"})},
                    {attr_int("axis", 0)});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{3, 2}));
  EXPECT_EQ(values_of<std::string>(out[0]), (std::vector<std::string>{"on", "off", "off", "off", "off", "on"}));
}

// ---------------------------------------------------------------------------------------------
// CumSum
TEST(CumSumOp, ExclusiveReverseAndWrap) {
  auto er = run_op("CumSum", 14, {floats({3}, {1, 2, 3}), tensor<int32_t>({}, {0})},
                   {attr_int("exclusive", 1), attr_int("reverse", 1)});
  EXPECT_EQ(values_of<float>(er[0]), (std::vector<float>{5, 3, 0}));
  auto e = run_op("CumSum", 11, {floats({3}, {1, 2, 3}), tensor<int64_t>({}, {0})}, {attr_int("exclusive", 1)});
  EXPECT_EQ(values_of<float>(e[0]), (std::vector<float>{0, 1, 3}));
  auto w = run_op("CumSum", 14, {tensor<int32_t>({2}, {std::numeric_limits<int32_t>::max(), 1}), tensor<int64_t>({}, {-1})});
  EXPECT_EQ(values_of<int32_t>(w[0]),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::min()}));
  auto m = run_op("CumSum", 14, {tensor<int64_t>({2, 2}, {1, 2, 3, 4}), tensor<int64_t>({1}, {1})}, {attr_int("reverse", 1)});
  EXPECT_EQ(values_of<int64_t>(m[0]), (std::vector<int64_t>{3, 2, 7, 4}));
}

// ---------------------------------------------------------------------------------------------
// Trilu
TEST(TriluOp, UpperAndLowerWithK) {
  std::vector<int32_t> v{0, 1, 2, 3, 4, 5, 6, 7, 8};
  auto up = run_op("Trilu", 14, {tensor<int32_t>({3, 3}, v), tensor<int64_t>({}, {1})});
  EXPECT_EQ(values_of<int32_t>(up[0]), (std::vector<int32_t>{0, 1, 2, 0, 0, 5, 0, 0, 0}));
  auto low = run_op("Trilu", 14, {tensor<int32_t>({3, 3}, v), tensor<int64_t>({}, {-1})}, {attr_int("upper", 0)});
  EXPECT_EQ(values_of<int32_t>(low[0]), (std::vector<int32_t>{0, 0, 0, 3, 0, 0, 6, 7, 0}));
  auto big = run_op("Trilu", 14, {tensor<int32_t>({1, 2}, {1, 2}), tensor<int64_t>({}, {kMin})});
  EXPECT_EQ(values_of<int32_t>(big[0]), (std::vector<int32_t>{1, 2}));
  auto s = run_op("Trilu", 14, {tensor<std::string>({2, 2}, {"a", "b", "c", "d"})}, {attr_int("upper", 0)});
  EXPECT_EQ(values_of<std::string>(s[0]), (std::vector<std::string>{"a", "", "c", "d"}));
}

// ---------------------------------------------------------------------------------------------
// Unique
TEST(UniqueOp, SortedAndUnsorted) {
  Value x = floats({6}, {2, 1, 1, 3, 4, 3});
  auto u = run_op("Unique", 11, {x}, {attr_int("sorted", 0)}, 4);
  EXPECT_EQ(values_of<float>(u[0]), (std::vector<float>{2, 1, 3, 4}));
  EXPECT_EQ(values_of<int64_t>(u[1]), (std::vector<int64_t>{0, 1, 3, 4}));
  EXPECT_EQ(values_of<int64_t>(u[2]), (std::vector<int64_t>{0, 1, 1, 2, 3, 2}));
  EXPECT_EQ(values_of<int64_t>(u[3]), (std::vector<int64_t>{1, 2, 2, 1}));
  auto s = run_op("Unique", 11, {x}, {}, 4);
  EXPECT_EQ(values_of<float>(s[0]), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(values_of<int64_t>(s[1]), (std::vector<int64_t>{1, 0, 3, 4}));
  EXPECT_EQ(values_of<int64_t>(s[2]), (std::vector<int64_t>{1, 0, 0, 2, 3, 2}));
  EXPECT_EQ(values_of<int64_t>(s[3]), (std::vector<int64_t>{2, 1, 2, 1}));
}

TEST(UniqueOp, AxisAndStrings) {
  auto a = run_op("Unique", 11, {floats({3, 3}, {1, 0, 0, 1, 0, 0, 2, 3, 4})}, {attr_int("axis", 0)}, 4);
  EXPECT_EQ(a[0].tensor.shape(), (Shape{2, 3}));
  EXPECT_EQ(values_of<float>(a[0]), (std::vector<float>{1, 0, 0, 2, 3, 4}));
  EXPECT_EQ(values_of<int64_t>(a[1]), (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(values_of<int64_t>(a[2]), (std::vector<int64_t>{0, 0, 1}));
  EXPECT_EQ(values_of<int64_t>(a[3]), (std::vector<int64_t>{2, 1}));
  // Columns of [[1,0,0],[1,0,0],[2,3,3]]: (1,1,2), (0,0,3), (0,0,3) -> sorted (0,0,3), (1,1,2).
  auto c = run_op("Unique", 11, {floats({3, 3}, {1, 0, 0, 1, 0, 0, 2, 3, 3})}, {attr_int("axis", -1)}, 4);
  EXPECT_EQ(values_of<float>(c[0]), (std::vector<float>{0, 1, 0, 1, 3, 2}));
  EXPECT_EQ(values_of<int64_t>(c[1]), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(values_of<int64_t>(c[2]), (std::vector<int64_t>{1, 0, 0}));
  auto s = run_op("Unique", 11, {tensor<std::string>({3}, {"b", "a", "b"})}, {}, 4);
  EXPECT_EQ(values_of<std::string>(s[0]), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(values_of<int64_t>(s[2]), (std::vector<int64_t>{1, 0, 1}));
  EXPECT_EQ(values_of<int64_t>(s[3]), (std::vector<int64_t>{1, 2}));
}

TEST(UniqueOp, NaNsCollapseAndSortLast) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  auto u = run_op("Unique", 11, {floats({4}, {nan, 1, nan, -0.f})}, {}, 4);
  auto y = values_of<float>(u[0]);
  ASSERT_EQ(y.size(), 3u);
  EXPECT_EQ(y[0], 0.f);
  EXPECT_EQ(y[1], 1.f);
  EXPECT_TRUE(std::isnan(y[2]));
  EXPECT_EQ(values_of<int64_t>(u[3]), (std::vector<int64_t>{1, 1, 2}));
}

// ---------------------------------------------------------------------------------------------
// Compress
TEST(CompressOp, AxisAndFlattened) {
  auto a = run_op("Compress", 11, {tensor<int32_t>({3, 2}, {1, 2, 3, 4, 5, 6}), tensor<bool>({3}, {false, true, true})},
                  {attr_int("axis", 0)});
  EXPECT_EQ(a[0].tensor.shape(), (Shape{2, 2}));
  EXPECT_EQ(values_of<int32_t>(a[0]), (std::vector<int32_t>{3, 4, 5, 6}));
  auto f = run_op("Compress", 9, {tensor<int32_t>({3, 2}, {1, 2, 3, 4, 5, 6}), tensor<bool>({3}, {false, true, true})});
  EXPECT_EQ(values_of<int32_t>(f[0]), (std::vector<int32_t>{2, 3}));
  auto n = run_op("Compress", 11, {tensor<int32_t>({1, 2}, {1, 2}), tensor<bool>({2}, {true, false})}, {attr_int("axis", -1)});
  EXPECT_EQ(values_of<int32_t>(n[0]), (std::vector<int32_t>{1}));
  expect_trap([] { run_op("Compress", 11, {tensor<int32_t>({1}, {1}), tensor<bool>({2}, {false, true})}); });
}

// ---------------------------------------------------------------------------------------------
// DepthToSpace / SpaceToDepth
TEST(DepthToSpaceOp, DcrAndCrd) {
  std::vector<int32_t> v{0, 1, 2, 3, 4, 5, 6, 7};
  auto dcr = run_op("DepthToSpace", 13, {tensor<int32_t>({1, 8, 1, 1}, v)}, {attr_int("blocksize", 2)});
  EXPECT_EQ(dcr[0].tensor.shape(), (Shape{1, 2, 2, 2}));
  EXPECT_EQ(values_of<int32_t>(dcr[0]), (std::vector<int32_t>{0, 2, 4, 6, 1, 3, 5, 7}));
  auto crd = run_op("DepthToSpace", 11, {tensor<int32_t>({1, 8, 1, 1}, v)},
                    {attr_int("blocksize", 2), attr_string("mode", "CRD")});
  EXPECT_EQ(values_of<int32_t>(crd[0]), v);
  auto v1 = run_op("DepthToSpace", 1, {tensor<int32_t>({1, 8, 1, 1}, v)}, {attr_int("blocksize", 2)});
  EXPECT_EQ(values_of<int32_t>(v1[0]), (std::vector<int32_t>{0, 2, 4, 6, 1, 3, 5, 7}));
}

TEST(SpaceToDepthOp, InverseOfDcr) {
  auto out = run_op("SpaceToDepth", 13, {tensor<int32_t>({1, 2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7})}, {attr_int("blocksize", 2)});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 8, 1, 1}));
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{0, 4, 1, 5, 2, 6, 3, 7}));
  auto back = run_op("DepthToSpace", 13, {out[0]}, {attr_int("blocksize", 2)});
  EXPECT_EQ(values_of<int32_t>(back[0]), (std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  expect_trap([] {
    run_op("SpaceToDepth", 13, {tensor<int32_t>({1, 1, 3, 2}, {0, 1, 2, 3, 4, 5})}, {attr_int("blocksize", 2)});
  });
}

// ---------------------------------------------------------------------------------------------
// Shape / Size / ConstantOfShape / EyeLike
TEST(ShapeOp, StartEndClamp) {
  Value x = tensor<bool>({2, 3, 4}, std::vector<bool>(24, false));
  EXPECT_EQ(values_of<int64_t>(run_op("Shape", 13, {x})[0]), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(values_of<int64_t>(run_op("Shape", 15, {x}, {attr_int("start", -1)})[0]), (std::vector<int64_t>{4}));
  EXPECT_EQ(values_of<int64_t>(run_op("Shape", 15, {x}, {attr_int("start", 1), attr_int("end", 2)})[0]),
            (std::vector<int64_t>{3}));
  EXPECT_EQ(values_of<int64_t>(run_op("Shape", 15, {x}, {attr_int("start", -10), attr_int("end", 10)})[0]),
            (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(run_op("Shape", 15, {x}, {attr_int("start", 2), attr_int("end", 1)})[0].tensor.shape(), (Shape{0}));
  EXPECT_EQ(run_op("Shape", 1, {tensor<float>({}, {1})})[0].tensor.shape(), (Shape{0}));
}

TEST(SizeOp, CountsElements) {
  auto s = run_op("Size", 13, {tensor<std::string>({2, 3}, {"", "", "", "", "", ""})});
  EXPECT_EQ(s[0].tensor.shape(), Shape{});
  EXPECT_EQ(values_of<int64_t>(s[0]), (std::vector<int64_t>{6}));
  EXPECT_EQ(values_of<int64_t>(run_op("Size", 1, {tensor<float>({0, 5}, {})})[0]), (std::vector<int64_t>{0}));
}

TEST(ConstantOfShapeOp, ValueAndDefault) {
  onnx::AttributeProto value;
  value.set_name("value");
  value.set_type(onnx::AttributeProto::TENSOR);
  value.mutable_t()->set_data_type(onnx::TensorProto::INT32);
  value.mutable_t()->add_dims(1);
  value.mutable_t()->add_int32_data(7);
  auto out = run_op("ConstantOfShape", 9, {ints({2, 1})}, {value});
  EXPECT_EQ(out[0].tensor.dtype(), DType::Int32);
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 1}));
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{7, 7}));
  auto d = run_op("ConstantOfShape", 9, {tensor<int64_t>({0}, {})});
  EXPECT_EQ(d[0].tensor.dtype(), DType::Float);
  EXPECT_EQ(d[0].tensor.shape(), Shape{});
  EXPECT_EQ(values_of<float>(d[0]), (std::vector<float>{0}));
  expect_trap([] { run_op("ConstantOfShape", 9, {ints({-1})}); });
}

TEST(EyeLikeOp, DiagonalsAndDtype) {
  auto out = run_op("EyeLike", 9, {floats({2, 3}, {9, 9, 9, 9, 9, 9})}, {attr_int("k", 1)});
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{0, 1, 0, 0, 0, 1}));
  auto i = run_op("EyeLike", 9, {floats({2, 2}, {9, 9, 9, 9})}, {attr_int("dtype", 6), attr_int("k", -1)});
  EXPECT_EQ(i[0].tensor.dtype(), DType::Int32);
  EXPECT_EQ(values_of<int32_t>(i[0]), (std::vector<int32_t>{0, 0, 1, 0}));
  auto far = run_op("EyeLike", 9, {tensor<bool>({2, 2}, {true, true, true, true})}, {attr_int("k", kMin)});
  EXPECT_EQ(values_of<bool>(far[0]), (std::vector<bool>{false, false, false, false}));
}

// ---------------------------------------------------------------------------------------------
// ReverseSequence
TEST(ReverseSequenceOp, BatchAxis0) {
  std::vector<float> v(16);
  for (int i = 0; i < 16; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i);
  auto out = run_op("ReverseSequence", 10, {floats({4, 4}, v), ints({1, 2, 3, 4})},
                    {attr_int("time_axis", 1), attr_int("batch_axis", 0)});
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{0, 1, 2, 3, 5, 4, 6, 7, 10, 9, 8, 11, 15, 14, 13, 12}));
  auto t = run_op("ReverseSequence", 10, {floats({3, 2}, {0, 1, 2, 3, 4, 5}), ints({3, 0})});
  EXPECT_EQ(values_of<float>(t[0]), (std::vector<float>{4, 1, 2, 3, 0, 5}));
  expect_trap([] { run_op("ReverseSequence", 10, {floats({2, 2}, {0, 1, 2, 3}), ints({3, 1})}); });
}

// ---------------------------------------------------------------------------------------------
// Einsum
TEST(EinsumOp, MatmulTraceDiagonal) {
  auto mm = run_op("Einsum", 12, {floats({2, 2}, {1, 2, 3, 4}), floats({2, 2}, {5, 6, 7, 8})},
                   {attr_string("equation", "ij,jk->ik")});
  EXPECT_EQ(values_of<float>(mm[0]), (std::vector<float>{19, 22, 43, 50}));
  Value m = floats({3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8});
  auto tr = run_op("Einsum", 12, {m}, {attr_string("equation", "ii")});
  EXPECT_EQ(tr[0].tensor.shape(), Shape{});
  EXPECT_EQ(values_of<float>(tr[0]), (std::vector<float>{12}));
  auto dg = run_op("Einsum", 12, {m}, {attr_string("equation", "ii->i")});
  EXPECT_EQ(values_of<float>(dg[0]), (std::vector<float>{0, 4, 8}));
}

TEST(EinsumOp, ImplicitOutputOrder) {
  // "ji": the output is the sorted letters "ij", i.e. the transpose.
  auto t = run_op("Einsum", 12, {floats({2, 3}, {1, 2, 3, 4, 5, 6})}, {attr_string("equation", "ji")});
  EXPECT_EQ(t[0].tensor.shape(), (Shape{3, 2}));
  EXPECT_EQ(values_of<float>(t[0]), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  // Upper case sorts before lower case: "aB" -> "Ba", again a transpose.
  auto u = run_op("Einsum", 12, {floats({2, 3}, {1, 2, 3, 4, 5, 6})}, {attr_string("equation", "aB")});
  EXPECT_EQ(u[0].tensor.shape(), (Shape{3, 2}));
  // Inner product (no free letters) with spaces.
  auto ip = run_op("Einsum", 12, {floats({3}, {1, 2, 3}), floats({3}, {4, 5, 6})}, {attr_string("equation", "i, i")});
  EXPECT_EQ(values_of<float>(ip[0]), (std::vector<float>{32}));
}

TEST(EinsumOp, EllipsisBatchMatmulWithBroadcast) {
  // A: [2,1,2] (two 1x2 rows), B: [2,1] broadcast over the batch: out[b] = A[b] @ B.
  auto out = run_op("Einsum", 12, {floats({2, 1, 2}, {1, 2, 3, 4}), floats({2, 1}, {10, 100})},
                    {attr_string("equation", "...ij,jk->...ik")});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 1, 1}));
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{210, 430}));
  // Implicit mode puts the ellipsis dims first.
  auto imp = run_op("Einsum", 12, {floats({2, 3}, {1, 2, 3, 4, 5, 6})}, {attr_string("equation", "i...")});
  EXPECT_EQ(imp[0].tensor.shape(), (Shape{3, 2}));
  EXPECT_EQ(values_of<float>(imp[0]), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  // Ellipsis sizes broadcast (1 against 2).
  auto bc = run_op("Einsum", 12, {floats({1, 2}, {1, 2}), floats({2, 2}, {1, 1, 2, 2})},
                   {attr_string("equation", "...i,...i->...")});
  EXPECT_EQ(values_of<float>(bc[0]), (std::vector<float>{3, 6}));
}

TEST(EinsumOp, IntegersWrapAndErrors) {
  auto w = run_op("Einsum", 12, {tensor<int8_t>({2}, {100, 100}), tensor<int8_t>({2}, {2, 1})},
                  {attr_string("equation", "i,i->")});
  EXPECT_EQ(values_of<int8_t>(w[0]), (std::vector<int8_t>{44}));  // 300 mod 256
  expect_trap([] { run_op("Einsum", 12, {floats({2}, {1, 2})}, {attr_string("equation", "ij")}); });
  expect_trap([] { run_op("Einsum", 12, {floats({2}, {1, 2}), floats({3}, {1, 2, 3})}, {attr_string("equation", "i,i")}); });
  expect_trap([] { run_op("Einsum", 12, {floats({2, 2}, {1, 2, 3, 4})}, {attr_string("equation", "...i->i")}); });
  expect_trap([] { run_op("Einsum", 12, {floats({2}, {1, 2})}, {attr_string("equation", "i->ii")}); });
}

// ---------------------------------------------------------------------------------------------
// Constant
TEST(ConstantOp, ValueInts) {
  auto out = run_op("Constant", 13, {}, {attr_ints("value_ints", {4, 5})});
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{4, 5}));
}

}  // namespace
}  // namespace sonnx::testing
