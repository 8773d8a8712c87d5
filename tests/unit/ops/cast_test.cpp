// Cast and CastLike. Expected values are worked out by hand from the ONNX operator schemas.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

Value f32(const Shape& s, const std::vector<float>& v) { return tensor<float>(s, v); }

onnx::AttributeProto attr_to(DType t) { return attr_int("to", static_cast<int64_t>(t)); }

// ---------------------------------------------------------------------------------------------
// Cast, CastLike

TEST(CastOp, FloatToIntegerTruncatesAndSaturates) {
  auto out = run1("Cast", 13, {f32({5}, {2.9f, -2.9f, kNaN, 1e10f, -kInf})}, {attr_to(DType::Int32)});
  EXPECT_EQ(values_of<int32_t>(out),
            (std::vector<int32_t>{2, -2, 0, std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::min()}));
}

TEST(CastOp, IntegerToIntegerKeepsLowBits) {
  auto out = run1("Cast", 13, {tensor<int32_t>({3}, {300, -1, 255})}, {attr_to(DType::UInt8)});
  EXPECT_EQ(values_of<uint8_t>(out), (std::vector<uint8_t>{44, 255, 255}));
}

TEST(CastOp, ToAndFromBool) {
  auto b = run1("Cast", 13, {f32({4}, {0.0f, -0.0f, kNaN, 0.1f})}, {attr_to(DType::Bool)});
  EXPECT_EQ(values_of<bool>(b), (std::vector<bool>{false, false, true, true}));
  auto f = run1("Cast", 6, {tensor<bool>({2}, {true, false})}, {attr_to(DType::Float)});
  EXPECT_EQ(values_of<float>(f), (std::vector<float>{1, 0}));
}

TEST(CastOp, DoubleToFloat16RoundsOnce) {
  // 1 + 2^-11 + 2^-40 lies just above the midpoint of float16 neighbours 1 and 1 + 2^-10. Rounding
  // to float first would land exactly on the midpoint and then tie to even (1.0).
  double d = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  auto out = run1("Cast", 13, {tensor<double>({1}, {d})}, {attr_to(DType::Float16)});
  EXPECT_EQ(static_cast<float>(values_of<float16_t>(out)[0]), 1.0009765625f);
  // Same for bfloat16 (8 significant bits): 1 + 2^-8 + 2^-40 → 1 + 2^-7.
  double e = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);
  auto bf = run1("Cast", 13, {tensor<double>({1}, {e})}, {attr_to(DType::BFloat16)});
  EXPECT_EQ(static_cast<float>(values_of<bfloat16_t>(bf)[0]), 1.0078125f);
}

TEST(CastOp, FloatToBFloat16RoundsToNearestEven) {
  float tie = 1.0f + std::ldexp(1.0f, -8);
  float above = 1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20);
  auto out = run1("Cast", 13, {f32({3}, {tie, above, kInf})}, {attr_to(DType::BFloat16)});
  auto v = values_of<bfloat16_t>(out);
  EXPECT_EQ(static_cast<float>(v[0]), 1.0f);
  EXPECT_EQ(static_cast<float>(v[1]), 1.0078125f);
  EXPECT_EQ(static_cast<float>(v[2]), kInf);
  auto back = run1("Cast", 13, {out}, {attr_to(DType::Float)});
  EXPECT_EQ(values_of<float>(back)[1], 1.0078125f);
}

TEST(CastOp, NumbersToString) {
  auto s = run1("Cast", 9, {f32({10}, {0.1f, 1.0f, -0.0f, 1e-5f, 1e20f, kNaN, kInf, -kInf, 123456.7f, 0.5f})},
                {attr_to(DType::String)});
  EXPECT_EQ(values_of<std::string>(s),
            (std::vector<std::string>{"0.1", "1.0", "-0.0", "1e-05", "1e+20", "NaN", "INF", "-INF", "123456.7", "0.5"}));
  auto d = run1("Cast", 13, {tensor<double>({3}, {0.1, 1e16, 2.5e-7})}, {attr_to(DType::String)});
  EXPECT_EQ(values_of<std::string>(d), (std::vector<std::string>{"0.1", "1e+16", "2.5e-07"}));
  auto i = run1("Cast", 13, {tensor<int64_t>({2}, {-42, 0})}, {attr_to(DType::String)});
  EXPECT_EQ(values_of<std::string>(i), (std::vector<std::string>{"-42", "0"}));
  auto b = run1("Cast", 13, {tensor<bool>({2}, {true, false})}, {attr_to(DType::String)});
  EXPECT_EQ(values_of<std::string>(b), (std::vector<std::string>{"1", "0"}));
  // float16 prints the shortest decimal that reads back to the same float16 value (65500 → 65504).
  auto h = run1("Cast", 13, {tensor<float16_t>({3}, {float16_t(0.1f), float16_t(65504.0f), float16_t(-2.5f)})},
                {attr_to(DType::String)});
  EXPECT_EQ(values_of<std::string>(h), (std::vector<std::string>{"0.1", "65500.0", "-2.5"}));
}

TEST(CastOp, StringToFloat) {
  auto f = run1("Cast", 9, {tensor<std::string>({9}, {"3.5", " 1e-5 ", "+INF", "-inf", "NaN", "Infinity", "1E39", "-0", "+2"})},
                {attr_to(DType::Float)});
  auto v = values_of<float>(f);
  EXPECT_EQ(v[0], 3.5f);
  EXPECT_EQ(v[1], 1e-5f);
  EXPECT_EQ(v[2], kInf);
  EXPECT_EQ(v[3], -kInf);
  EXPECT_TRUE(std::isnan(v[4]));
  EXPECT_EQ(v[5], kInf);
  EXPECT_EQ(v[6], kInf);  // beyond float's range
  EXPECT_TRUE(v[7] == 0.0f && std::signbit(v[7]));
  EXPECT_EQ(v[8], 2.0f);
  EXPECT_THROW(run1("Cast", 9, {tensor<std::string>({1}, {"Hello"})}, {attr_to(DType::Float)}), Trap);
  EXPECT_THROW(run1("Cast", 9, {tensor<std::string>({1}, {"+-1"})}, {attr_to(DType::Float)}), Trap);
  auto h = run1("Cast", 13, {tensor<std::string>({1}, {"0.1"})}, {attr_to(DType::Float16)});
  EXPECT_EQ(values_of<float16_t>(h)[0].bits, 0x2E66);  // float16 nearest to 0.1
}

TEST(CastOp, StringToIntegerAndBool) {
  auto i = run1("Cast", 13, {tensor<std::string>({5}, {"100", "-7", "100.5", "+5", "1e3"})}, {attr_to(DType::Int32)});
  EXPECT_EQ(values_of<int32_t>(i), (std::vector<int32_t>{100, -7, 100, 5, 1000}));
  auto u = run1("Cast", 13, {tensor<std::string>({2}, {"300", "18446744073709551615"})}, {attr_to(DType::UInt64)});
  EXPECT_EQ(values_of<uint64_t>(u), (std::vector<uint64_t>{300, ~uint64_t{0}}));
  auto b = run1("Cast", 13, {tensor<std::string>({4}, {"true", "False", "0", "2"})}, {attr_to(DType::Bool)});
  EXPECT_EQ(values_of<bool>(b), (std::vector<bool>{true, false, false, true}));
}

TEST(CastOp, Version1TakesTypeName) {
  auto out = run1("Cast", 1, {tensor<int32_t>({2}, {3, -4})}, {attr_string("to", "FLOAT")});
  EXPECT_EQ(values_of<float>(out), (std::vector<float>{3, -4}));
  EXPECT_THROW(run1("Cast", 1, {tensor<int32_t>({1}, {3})}, {attr_string("to", "QUATERNION")}), Trap);
}

TEST(CastOp, ShapesAreKept) {
  auto r0 = run1("Cast", 13, {tensor<double>({}, {2.5})}, {attr_to(DType::Int64)});
  EXPECT_EQ(r0.tensor.shape(), Shape{});
  EXPECT_EQ(values_of<int64_t>(r0)[0], 2);
  auto z = run1("Cast", 13, {tensor<std::string>({0, 2}, {})}, {attr_to(DType::Float)});
  EXPECT_EQ(z.tensor.shape(), (Shape{0, 2}));
  EXPECT_EQ(z.tensor.dtype(), DType::Float);
}

TEST(CastLikeOp, UsesTargetType) {
  auto out = run1("CastLike", 15, {f32({2}, {2.7f, -1.5f}), tensor<int64_t>({}, {0})});
  EXPECT_EQ(values_of<int64_t>(out), (std::vector<int64_t>{2, -1}));
  auto s = run1("CastLike", 15, {tensor<std::string>({1}, {"-INF"}), tensor<double>({0}, {})});
  EXPECT_EQ(values_of<double>(s)[0], -std::numeric_limits<double>::infinity());
}

}  // namespace
}  // namespace sonnx::testing
