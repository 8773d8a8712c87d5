// The matrix products: Gemm, MatMul, Det. Expected values are worked out by hand from the operator
// definitions (the arithmetic is in the comments).
#include <limits>
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

// ---------------------------------------------------------------------------------------------
// Gemm and MatMul

TEST(GemmOp, AlphaBetaBroadcastTranspose) {
  // A = [[1,2,3],[4,5,6]], B = [[1,0],[0,1],[1,1]] -> AB = [[4,5],[10,11]];
  // 2*AB + 0.5*[1,2] = [[8.5,11],[20.5,23]].
  std::vector<onnx::AttributeProto> ab = {attr_float("alpha", 2), attr_float("beta", 0.5f)};
  auto a = run_op("Gemm", 13,
                  {tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6}), tensor<float>({3, 2}, {1, 0, 0, 1, 1, 1}),
                   tensor<float>({2}, {1, 2})},
                  ab);
  expect_near(values_of<float>(a[0]), {8.5f, 11, 20.5f, 23});
  // Same with A and B stored transposed.
  ab.push_back(attr_int("transA", 1));
  ab.push_back(attr_int("transB", 1));
  auto t = run_op("Gemm", 13,
                  {tensor<float>({3, 2}, {1, 4, 2, 5, 3, 6}), tensor<float>({2, 3}, {1, 0, 1, 0, 1, 1}),
                   tensor<float>({2}, {1, 2})},
                  ab);
  expect_near(values_of<float>(t[0]), {8.5f, 11, 20.5f, 23});
  // A column C [2,1] broadcasts along rows.
  auto c = run_op("Gemm", 13,
                  {tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6}), tensor<float>({3, 2}, {1, 0, 0, 1, 1, 1}),
                   tensor<float>({2, 1}, {1, 2})});
  expect_near(values_of<float>(c[0]), {5, 6, 12, 13});
}

TEST(GemmOp, OptionalCAndLegacyBroadcast) {
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

TEST(GemmOp, IntegerWraps) {
  auto out = run_op("Gemm", 13,
                    {tensor<int32_t>({1, 1}, {std::numeric_limits<int32_t>::max()}), tensor<int32_t>({1, 1}, {2}),
                     tensor<int32_t>({1}, {3})});
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{1}));  // 2*(2^31-1) = -2 (mod 2^32), + 3
}

TEST(MatMulOp, NumpySemantics) {
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

TEST(MatMulOp, BatchBroadcast) {
  // A [2,1,2] (two row vectors) times B [2,1]: [[[3]],[[7]]].
  auto a = run_op("MatMul", 13, {tensor<float>({2, 1, 2}, {1, 2, 3, 4}), tensor<float>({2, 1}, {1, 1})});
  EXPECT_EQ(a[0].tensor.shape(), (Shape{2, 1, 1}));
  expect_near(values_of<float>(a[0]), {3, 7});
  // A [2,1,1,2] x B [3,2,1] -> [2,3,1,1]; B's matrices are [1,1],[1,0],[0,1] (columns).
  auto b = run_op("MatMul", 13, {tensor<float>({2, 1, 1, 2}, {1, 2, 3, 4}), tensor<float>({3, 2, 1}, {1, 1, 1, 0, 0, 1})});
  EXPECT_EQ(b[0].tensor.shape(), (Shape{2, 3, 1, 1}));
  expect_near(values_of<float>(b[0]), {3, 1, 2, 7, 3, 4});
}

TEST(MatMulOp, ZeroInnerDimensionAndIntegers) {
  auto z = run_op("MatMul", 13, {tensor<float>({2, 0}, {}), tensor<float>({0, 3}, {})});
  EXPECT_EQ(z[0].tensor.shape(), (Shape{2, 3}));
  expect_near(values_of<float>(z[0]), std::vector<float>(6, 0));
  auto i = run_op("MatMul", 13, {tensor<int32_t>({1}, {std::numeric_limits<int32_t>::max()}), tensor<int32_t>({1}, {2})});
  EXPECT_EQ(values_of<int32_t>(i[0]), (std::vector<int32_t>{-2}));
  auto u = run_op("MatMul", 13, {tensor<uint64_t>({1, 1}, {5}), tensor<uint64_t>({1, 1}, {7})});
  EXPECT_EQ(values_of<uint64_t>(u[0]), (std::vector<uint64_t>{35}));
  expect_trap([] { run_op("MatMul", 13, {tensor<float>({2, 3}, iota_f(6)), tensor<float>({2, 3}, iota_f(6))}); });
}

// ---------------------------------------------------------------------------------------------
// Det

TEST(DetOp, TwoDimensionalAndBatched) {
  auto out = run_op("Det", 11, {tensor<float>({2, 2}, {0, 1, 2, 3})});
  EXPECT_EQ(out[0].tensor.shape(), Shape{});
  expect_floats_near(out[0], {-2});
  auto out2 = run_op("Det", 11, {tensor<double>({3, 2, 2}, {1, 2, 3, 4, 1, 2, 2, 1, 1, 3, 3, 1})});
  EXPECT_EQ(values_of<double>(out2[0]), (std::vector<double>{-2, -3, -8}));
}

TEST(DetOp, PivotingEmptyAndErrors) {
  // The anti-diagonal permutation of 3 elements is odd: det -1 (needs a row swap: a[0][0] = 0).
  expect_floats_near(run_op("Det", 11, {tensor<float>({3, 3}, {0, 0, 1, 0, 1, 0, 1, 0, 0})})[0], {-1});
  expect_floats_near(run_op("Det", 11, {tensor<float>({2, 2}, {1, 2, 2, 4})})[0], {0});
  expect_floats_near(run_op("Det", 11, {tensor<float>({2, 0, 0}, {})})[0], {1, 1});
  expect_floats_near(run_op("Det", 11, {tensor<float>({2, 2}, {kNaN, 0, 0, 0})})[0], {kNaN});
  expect_trap([] { run_op("Det", 11, {tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6})}); });
  expect_trap([] { run_op("Det", 11, {tensor<float>({2}, {1, 2})}); });
}

}  // namespace
}  // namespace sonnx::testing
