// The fast elementwise kernels (optimized/kernels/elementwise.cpp) against the reference kernels:
// bitwise equal for Add, Sub, Mul and Div over broadcasting patterns, including NaN and infinity;
// declined for the legacy broadcast form and for non-float inputs.
#include <cmath>
#include <limits>
#include <random>

#include "op_test_util.h"
#include "optimized/kernels/fast_kernel.h"
#include "tensor_test_util.h"

namespace sonnx::testing {
namespace {

Tensor random_tensor(const Shape& s, std::mt19937& rng) {
  Tensor t = random_float_tensor(s, rng, -2, 2);
  if (t.size() > 2) {  // the special values must propagate as in the reference
    t.data<float>()[0] = std::numeric_limits<float>::quiet_NaN();
    t.data<float>()[1] = std::numeric_limits<float>::infinity();
    t.data<float>()[2] = 0.0f;
  }
  return t;
}

// A request for a binary operator node on declared float inputs.
struct BinaryRequest {
  Node node;
  FastKernelRequest req;
  BinaryRequest(const std::string& op, int64_t version, const Shape& a, const Shape& b) {
    node.op_type = op;
    node.name = "n";
    node.inputs = {"a", "b"};
    node.outputs = {"y"};
    req.node = &node;
    req.version = version;
    req.input_types = {float_type(a), float_type(b)};
  }
};

TEST(FastElementwise, MatchesTheReferenceBitwiseOnEveryBroadcastPattern) {
  std::mt19937 rng(5);
  const std::vector<std::pair<Shape, Shape>> patterns{
      {{2, 3, 4, 5}, {2, 3, 4, 5}},
      {{2, 3, 4, 5}, {1, 3, 1, 1}},
      {{1, 3, 1, 1}, {2, 3, 4, 5}},
      {{2, 3, 4, 5}, {}},
      {{}, {2, 3}},
      {{3, 1, 5}, {1, 4, 1}},
      {{4, 5}, {2, 3, 4, 5}},
      {{5}, {2, 1, 5}},
      {{2, 1}, {1, 7}},
      {{1, 1}, {1, 1}},
      {{0, 3}, {1, 3}},
      {{6, 1, 1, 8}, {1, 2, 3, 1}},
      // Long enough to be split over threads: one long row, rows, rows starting mid-odometer.
      {{2, 40, 30, 30}, {2, 40, 30, 30}},
      {{20001}, {}},
      {{2, 40, 30, 30}, {1, 40, 1, 1}},
      {{3, 1, 9001}, {1, 4, 1}}};
  for (const char* op : {"Add", "Sub", "Mul", "Div"})
    for (const auto& [sa, sb] : patterns) {
      Tensor a = random_tensor(sa, rng), b = random_tensor(sb, rng);
      BinaryRequest r(op, 14, sa, sb);
      auto k = make_fast_kernel(r.req);
      ASSERT_NE(k, nullptr) << op;
      std::vector<Shape> shapes = k->output_shapes({&a, &b});
      Tensor y(DType::Float, shapes[0]);
      k->run({&a, &b}, {&y});
      Tensor want = run_op(op, 14, {Value(a), Value(b)}, {})[0].tensor;
      ASSERT_EQ(y.shape(), want.shape()) << op << " " << shape_str(sa) << " " << shape_str(sb);
      EXPECT_TRUE(y == want) << op << " " << shape_str(sa) << " " << shape_str(sb);
    }
}

TEST(FastElementwise, TrapsOnShapesThatDoNotBroadcast) {
  BinaryRequest r("Add", 14, {2, 3}, {4});
  auto k = make_fast_kernel(r.req);
  ASSERT_NE(k, nullptr);
  Tensor a(DType::Float, {2, 3}), b(DType::Float, {4});
  EXPECT_THROW(k->output_shapes({&a, &b}), Trap);
}

TEST(FastElementwise, DeclinesLegacyBroadcastAndOtherTypes) {
  BinaryRequest r("Mul", 6, {2}, {2});  // the `broadcast` attribute form
  EXPECT_EQ(make_fast_kernel(r.req), nullptr);
  r.req.version = 14;
  TypeInfo i64 = float_type({2});
  i64.elem = DType::Int64;
  r.req.input_types = {i64, i64};
  EXPECT_EQ(make_fast_kernel(r.req), nullptr);
  r.req.input_types = {};  // types unknown: the reference runs
  EXPECT_EQ(make_fast_kernel(r.req), nullptr);
}

}  // namespace
}  // namespace sonnx::testing
