// The elementwise operators: arithmetic, math functions, activations, Clip, Max/Min/Sum/Mean,
// IsNaN/IsInf, logic, comparisons, BitShift, Where. Expected values are worked out by hand from the
// ONNX operator schemas.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

Value f32(const Shape& s, const std::vector<float>& v) { return tensor<float>(s, v); }
Value f32s(float v) { return tensor<float>({}, {v}); }

float first_f32(const Value& v) { return values_of<float>(v)[0]; }

// ---------------------------------------------------------------------------------------------
// Add, Relu

TEST(AddOp, BroadcastsMultidirectionally) {
  auto out = run_op("Add", 14, {tensor<float>({2, 1}, {1, 2}), tensor<float>({3}, {10, 20, 30})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 3}));
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{11, 21, 31, 12, 22, 32}));
}

TEST(AddOp, IntegerOverflowWraps) {
  auto out = run_op("Add", 14, {tensor<int32_t>({1}, {std::numeric_limits<int32_t>::max()}), tensor<int32_t>({1}, {1})});
  EXPECT_EQ(values_of<int32_t>(out[0])[0], std::numeric_limits<int32_t>::min());
}

TEST(AddOp, LegacyBroadcastWithAxis) {
  auto out = run_op("Add", 6, {tensor<float>({2, 3}, {0, 0, 0, 0, 0, 0}), tensor<float>({2}, {1, 2})},
                    {attr_int("broadcast", 1), attr_int("axis", 0)});
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{1, 1, 1, 2, 2, 2}));
}

TEST(AddOp, IncompatibleShapesTrapWithNodeName) {
  try {
    run_op("Add", 14, {tensor<float>({2}, {1, 2}), tensor<float>({3}, {1, 2, 3})});
    FAIL() << "expected a trap";
  } catch (const Trap& e) {
    EXPECT_NE(std::string(e.what()).find("node (Add)"), std::string::npos) << e.what();
  }
}

TEST(AddOp, Float16RoundsToNearestEven) {
  // 2048 + 1 is not representable in float16 (spacing 2 there): ties round to even, 2048.
  auto out = run_op("Add", 14, {tensor<float16_t>({1}, {float16_t(2048.f)}), tensor<float16_t>({1}, {float16_t(1.f)})});
  EXPECT_EQ(static_cast<float>(values_of<float16_t>(out[0])[0]), 2048.f);
}

TEST(ReluOp, KeepsNaNAndNegativeZeroBecomesZero) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  auto out = run_op("Relu", 14, {tensor<float>({3}, {nan, -1.f, 2.f})});
  auto v = values_of<float>(out[0]);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], 0.f);
  EXPECT_EQ(v[2], 2.f);
}
// ---------------------------------------------------------------------------------------------
// Sub, Mul, Div

TEST(SubOp, BroadcastsAndWrapsIntegers) {
  auto out = run1("Sub", 14, {tensor<int8_t>({2, 1}, {-128, 5}), tensor<int8_t>({2}, {1, -1})});
  EXPECT_EQ(out.tensor.shape(), (Shape{2, 2}));
  // -128 - 1 wraps to 127; -128 - (-1) = -127; 5 - 1 = 4; 5 + 1 = 6.
  EXPECT_EQ(values_of<int8_t>(out), (std::vector<int8_t>{127, -127, 4, 6}));
}

TEST(SubOp, ZeroSizedDimension) {
  auto out = run1("Sub", 14, {f32({0, 3}, {}), f32({3}, {1, 2, 3})});
  EXPECT_EQ(out.tensor.shape(), (Shape{0, 3}));
  EXPECT_EQ(out.tensor.size(), 0);
}

TEST(SubOp, LegacyBroadcastVersion6) {
  auto out = run1("Sub", 6, {f32({2, 3}, {10, 10, 10, 20, 20, 20}), f32({3}, {1, 2, 3})}, {attr_int("broadcast", 1)});
  EXPECT_EQ(values_of<float>(out), (std::vector<float>{9, 8, 7, 19, 18, 17}));
}

TEST(SubOp, LegacyWithoutBroadcastNeedsSameShape) {
  EXPECT_THROW(run1("Sub", 6, {f32({2, 3}, {0, 0, 0, 0, 0, 0}), f32({3}, {1, 2, 3})}), Trap);
}

TEST(SubOp, DifferentTypesTrap) { EXPECT_THROW(run1("Sub", 14, {f32({1}, {1}), tensor<double>({1}, {1})}), Trap); }

TEST(MulOp, SmallUnsignedTypesWrapWithoutPromotionOverflow) {
  // 65535 * 65535 = 2^32 - 2^17 + 1 ≡ 1 (mod 2^16).
  auto out = run1("Mul", 14, {tensor<uint16_t>({1}, {65535}), tensor<uint16_t>({1}, {65535})});
  EXPECT_EQ(values_of<uint16_t>(out)[0], 1);
  auto out32 = run1("Mul", 14, {tensor<int32_t>({1}, {65536}), tensor<int32_t>({1}, {65536})});
  EXPECT_EQ(values_of<int32_t>(out32)[0], 0);  // 2^32 wraps to 0
}

TEST(MulOp, LegacyBroadcastVersion1WithAxis) {
  auto out = run1("Mul", 1, {f32({2, 3}, {1, 1, 1, 1, 1, 1}), f32({2}, {2, 3})},
                  {attr_int("broadcast", 1), attr_int("axis", 0)});
  EXPECT_EQ(values_of<float>(out), (std::vector<float>{2, 2, 2, 3, 3, 3}));
}

TEST(MulOp, RankZeroFloat16) {
  auto out = run1("Mul", 14, {tensor<float16_t>({}, {float16_t(1.5f)}), tensor<float16_t>({}, {float16_t(-2.0f)})});
  EXPECT_EQ(out.tensor.shape(), Shape{});
  EXPECT_EQ(static_cast<float>(values_of<float16_t>(out)[0]), -3.0f);
}

TEST(DivOp, IntegerDivisionTruncatesTowardZero) {
  auto out = run1("Div", 14, {tensor<int32_t>({4}, {-7, 7, -7, 6}), tensor<int32_t>({4}, {2, -2, -2, 3})});
  EXPECT_EQ(values_of<int32_t>(out), (std::vector<int32_t>{-3, -3, 3, 2}));
}

TEST(DivOp, LowestByMinusOneWraps) {
  int64_t lo = std::numeric_limits<int64_t>::min();
  auto out = run1("Div", 14, {tensor<int64_t>({1}, {lo}), tensor<int64_t>({1}, {-1})});
  EXPECT_EQ(values_of<int64_t>(out)[0], lo);
}

TEST(DivOp, IntegerDivisionByZeroTraps) {
  EXPECT_THROW(run1("Div", 14, {tensor<uint8_t>({2}, {1, 2}), tensor<uint8_t>({2}, {1, 0})}), Trap);
}

TEST(DivOp, FloatDivisionByZeroFollowsIeee) {
  auto v = values_of<float>(run1("Div", 14, {f32({3}, {1, -1, 0}), f32({3}, {0, 0, 0})}));
  EXPECT_EQ(v[0], kInf);
  EXPECT_EQ(v[1], -kInf);
  EXPECT_TRUE(std::isnan(v[2]));
}

// ---------------------------------------------------------------------------------------------
// Pow

TEST(PowOp, IntegerPowerIsExactAndWraps) {
  auto out = run1("Pow", 15, {tensor<int64_t>({4}, {2, 2, -2, 3}), tensor<int64_t>({4}, {62, 64, 3, 0})});
  EXPECT_EQ(values_of<int64_t>(out), (std::vector<int64_t>{int64_t{1} << 62, 0, -8, 1}));
}

TEST(PowOp, IntegerNegativeExponent) {
  // 1/x^n truncated toward zero.
  auto out = run1("Pow", 15, {tensor<int32_t>({4}, {2, 1, -1, -1}), tensor<int32_t>({4}, {-1, -5, -3, -2})});
  EXPECT_EQ(values_of<int32_t>(out), (std::vector<int32_t>{0, 1, -1, 1}));
  EXPECT_THROW(run1("Pow", 15, {tensor<int32_t>({1}, {0}), tensor<int32_t>({1}, {-1})}), Trap);
}

TEST(PowOp, MixedTypesFromVersion12) {
  auto a = run1("Pow", 12, {f32({2}, {2, 9}), tensor<int64_t>({2}, {-2, 0})});
  EXPECT_EQ(values_of<float>(a), (std::vector<float>{0.25f, 1.0f}));
  // int base, float exponent: 2^0.5 = 1.414... truncates to 1; 3^2 = 9; 4^-0.5 = 0.5 → 0.
  auto b = run1("Pow", 12, {tensor<int32_t>({3}, {2, 3, 4}), f32({3}, {0.5f, 2.0f, -0.5f})});
  EXPECT_EQ(values_of<int32_t>(b), (std::vector<int32_t>{1, 9, 0}));
  EXPECT_THROW(run1("Pow", 7, {f32({1}, {2}), tensor<double>({1}, {2})}), Trap);
}

TEST(PowOp, FloatSpecialCases) {
  auto v = values_of<float>(run1("Pow", 15, {f32({3}, {-8, 0, kNaN}), f32({3}, {1.0f / 3, -1, 0})}));
  EXPECT_TRUE(std::isnan(v[0]));  // negative base, non-integer exponent
  EXPECT_EQ(v[1], kInf);
  EXPECT_EQ(v[2], 1.0f);  // anything ^ 0 = 1, even NaN
}

TEST(PowOp, LegacyBroadcastScalar) {
  auto out = run1("Pow", 1, {f32({3}, {1, 2, 3}), f32({1}, {2})}, {attr_int("broadcast", 1)});
  EXPECT_EQ(values_of<float>(out), (std::vector<float>{1, 4, 9}));
}

// ---------------------------------------------------------------------------------------------
// Mod

TEST(ModOp, IntegerSignFollowsDivisorByDefault) {
  auto out = run1("Mod", 13, {tensor<int32_t>({4}, {-4, 4, 7, -7}), tensor<int32_t>({4}, {3, -3, 3, -3})});
  EXPECT_EQ(values_of<int32_t>(out), (std::vector<int32_t>{2, -2, 1, -1}));
}

TEST(ModOp, IntegerFmodSignFollowsDividend) {
  auto out = run1("Mod", 13, {tensor<int32_t>({4}, {-4, 4, 7, -7}), tensor<int32_t>({4}, {3, -3, 3, -3})},
                  {attr_int("fmod", 1)});
  EXPECT_EQ(values_of<int32_t>(out), (std::vector<int32_t>{-1, 1, 1, -1}));
}

TEST(ModOp, IntegerEdgeCases) {
  auto out = run1("Mod", 13, {tensor<int8_t>({1}, {-128}), tensor<int8_t>({1}, {-1})});
  EXPECT_EQ(values_of<int8_t>(out)[0], 0);
  EXPECT_THROW(run1("Mod", 13, {tensor<int8_t>({1}, {5}), tensor<int8_t>({1}, {0})}), Trap);
  auto u = run1("Mod", 10, {tensor<uint8_t>({3}, {250, 7, 5}), tensor<uint8_t>({}, {7})});
  EXPECT_EQ(values_of<uint8_t>(u), (std::vector<uint8_t>{5, 0, 5}));
}

TEST(ModOp, Floats) {
  auto c = values_of<float>(run1("Mod", 13, {f32({3}, {-4.5f, 4.5f, 1}), f32({3}, {2, -2, 0})}, {attr_int("fmod", 1)}));
  EXPECT_EQ(c[0], -0.5f);
  EXPECT_EQ(c[1], 0.5f);
  EXPECT_TRUE(std::isnan(c[2]));
  auto p = values_of<float>(run1("Mod", 13, {f32({3}, {-4.5f, 4.5f, 4}), f32({3}, {2, -2, -2})}));
  EXPECT_EQ(p[0], 1.5f);
  EXPECT_EQ(p[1], -1.5f);
  EXPECT_EQ(p[2], 0.0f);
  EXPECT_TRUE(std::signbit(p[2]));  // zero remainder takes the divisor's sign
}

// ---------------------------------------------------------------------------------------------
// Unary math

TEST(AbsNegOp, IntegerLowestWrapsAndFloatSigns) {
  EXPECT_EQ(values_of<int8_t>(run1("Abs", 13, {tensor<int8_t>({3}, {-128, -5, 5})})), (std::vector<int8_t>{-128, 5, 5}));
  EXPECT_EQ(values_of<int8_t>(run1("Neg", 13, {tensor<int8_t>({3}, {-128, -5, 5})})), (std::vector<int8_t>{-128, 5, -5}));
  EXPECT_EQ(values_of<uint32_t>(run1("Abs", 13, {tensor<uint32_t>({1}, {4000000000u})}))[0], 4000000000u);
  float a = first_f32(run1("Abs", 6, {f32({1}, {-0.0f})}));
  EXPECT_FALSE(std::signbit(a));
  float n = first_f32(run1("Neg", 6, {f32({1}, {0.0f})}));
  EXPECT_TRUE(std::signbit(n));
  EXPECT_EQ(first_f32(run1("Abs", 1, {f32({1}, {-kInf})})), kInf);
}

TEST(SqrtExpLogOp, SpecialValues) {
  auto s = values_of<float>(run1("Sqrt", 13, {f32({4}, {4, -1, -0.0f, kInf})}));
  EXPECT_EQ(s[0], 2.0f);
  EXPECT_TRUE(std::isnan(s[1]));
  EXPECT_TRUE(s[2] == 0.0f && std::signbit(s[2]));
  EXPECT_EQ(s[3], kInf);
  auto e = values_of<float>(run1("Exp", 13, {f32({3}, {0, -kInf, 1000})}));
  EXPECT_EQ(e[0], 1.0f);
  EXPECT_EQ(e[1], 0.0f);
  EXPECT_EQ(e[2], kInf);
  auto l = values_of<float>(run1("Log", 13, {f32({3}, {1, 0, -1})}));
  EXPECT_EQ(l[0], 0.0f);
  EXPECT_EQ(l[1], -kInf);
  EXPECT_TRUE(std::isnan(l[2]));
  auto r = values_of<float>(run1("Reciprocal", 13, {f32({3}, {4, -0.0f, 0.5f})}));
  EXPECT_EQ(r, (std::vector<float>{0.25f, -kInf, 2.0f}));
}

TEST(SqrtOp, Float16AndBFloat16) {
  auto h = run1("Sqrt", 13, {tensor<float16_t>({2}, {float16_t(9.0f), float16_t(2.0f)})});
  auto hv = values_of<float16_t>(h);
  EXPECT_EQ(static_cast<float>(hv[0]), 3.0f);
  // sqrt(2) = 1.41421356...; float16 neighbours 1.4140625 and 1.4150390625: nearer is 1.4140625.
  EXPECT_EQ(static_cast<float>(hv[1]), 1.4140625f);
  auto b = run1("Sqrt", 13, {tensor<bfloat16_t>({1}, {bfloat16_t(16.0f)})});
  EXPECT_EQ(static_cast<float>(values_of<bfloat16_t>(b)[0]), 4.0f);
}

TEST(SqrtOp, IntegerInputTraps) { EXPECT_THROW(run1("Sqrt", 13, {tensor<int32_t>({1}, {4})}), Trap); }

TEST(FloorCeilOp, Values) {
  auto f = values_of<float>(run1("Floor", 13, {f32({4}, {-1.5f, 1.5f, -0.0f, kInf})}));
  EXPECT_EQ(f[0], -2.0f);
  EXPECT_EQ(f[1], 1.0f);
  EXPECT_TRUE(std::signbit(f[2]));
  EXPECT_EQ(f[3], kInf);
  auto c = values_of<float>(run1("Ceil", 13, {f32({3}, {-0.5f, 1.2f, -1.5f})}));
  EXPECT_TRUE(c[0] == 0.0f && std::signbit(c[0]));  // ceil(-0.5) = -0
  EXPECT_EQ(c[1], 2.0f);
  EXPECT_EQ(c[2], -1.0f);
}

TEST(RoundOp, HalvesToEven) {
  auto r = values_of<float>(
      run1("Round", 11, {f32({9}, {0.5f, 1.5f, 2.5f, -2.5f, -0.5f, 2.6f, -2.4f, 0.49999997f, 8388609.0f})}));
  EXPECT_EQ(r[0], 0.0f);
  EXPECT_EQ(r[1], 2.0f);
  EXPECT_EQ(r[2], 2.0f);
  EXPECT_EQ(r[3], -2.0f);
  EXPECT_TRUE(r[4] == 0.0f && std::signbit(r[4]));
  EXPECT_EQ(r[5], 3.0f);
  EXPECT_EQ(r[6], -2.0f);
  EXPECT_EQ(r[7], 0.0f);        // just below one half
  EXPECT_EQ(r[8], 8388609.0f);  // already an integer
  EXPECT_TRUE(std::isnan(first_f32(run1("Round", 11, {f32({1}, {kNaN})}))));
}

TEST(SignOp, IntegersFloatsAndNaN) {
  EXPECT_EQ(values_of<int64_t>(run1("Sign", 13, {tensor<int64_t>({3}, {-5, 0, 9})})), (std::vector<int64_t>{-1, 0, 1}));
  EXPECT_EQ(values_of<uint8_t>(run1("Sign", 13, {tensor<uint8_t>({2}, {0, 200})})), (std::vector<uint8_t>{0, 1}));
  auto f = values_of<float>(run1("Sign", 9, {f32({4}, {-0.1f, -0.0f, kInf, kNaN})}));
  EXPECT_EQ(f[0], -1.0f);
  EXPECT_EQ(f[1], 0.0f);
  EXPECT_EQ(f[2], 1.0f);
  EXPECT_TRUE(std::isnan(f[3]));
}

TEST(TrigOp, Values) {
  EXPECT_EQ(first_f32(run1("Sin", 7, {f32s(0)})), 0.0f);
  EXPECT_EQ(first_f32(run1("Cos", 7, {f32s(0)})), 1.0f);
  EXPECT_NEAR(first_f32(run1("Tan", 7, {f32s(0.7853981633974483f)})), 1.0f, 1e-6);
  EXPECT_NEAR(first_f32(run1("Atan", 7, {f32s(1)})), 0.78539816f, 1e-7);
  EXPECT_NEAR(first_f32(run1("Asin", 7, {f32s(1)})), 1.57079633f, 1e-6);
  EXPECT_TRUE(std::isnan(first_f32(run1("Acos", 7, {f32s(2)}))));
  EXPECT_EQ(first_f32(run1("Acos", 7, {f32s(1)})), 0.0f);
  EXPECT_NEAR(first_f32(run1("Sinh", 9, {f32s(1)})), 1.17520119f, 1e-6);
  EXPECT_NEAR(first_f32(run1("Cosh", 9, {f32s(1)})), 1.54308063f, 1e-6);
  EXPECT_NEAR(first_f32(run1("Asinh", 9, {f32s(1)})), 0.88137359f, 1e-6);
  EXPECT_EQ(first_f32(run1("Acosh", 9, {f32s(1)})), 0.0f);
  EXPECT_TRUE(std::isnan(first_f32(run1("Acosh", 9, {f32s(0.5f)}))));
  EXPECT_EQ(first_f32(run1("Atanh", 9, {f32s(1)})), kInf);
  EXPECT_NEAR(first_f32(run1("Atanh", 9, {f32s(0.5f)})), 0.54930614f, 1e-6);
  EXPECT_EQ(first_f32(run1("Tanh", 13, {f32s(kInf)})), 1.0f);
  EXPECT_NEAR(first_f32(run1("Tanh", 6, {f32s(0.5f)})), 0.46211716f, 1e-6);
}

TEST(ErfOp, FloatsAndIntegers) {
  auto f = values_of<float>(run1("Erf", 13, {f32({3}, {0, kInf, 1})}));
  EXPECT_EQ(f[0], 0.0f);
  EXPECT_EQ(f[1], 1.0f);
  EXPECT_NEAR(f[2], 0.84270079f, 1e-6);
  // erf(3) = 0.99997... truncates to 0; erf(-10) = -1 exactly in double.
  EXPECT_EQ(values_of<int32_t>(run1("Erf", 13, {tensor<int32_t>({2}, {3, -10})})), (std::vector<int32_t>{0, -1}));
}

// ---------------------------------------------------------------------------------------------
// Activations

TEST(SigmoidOp, LimitsWithoutNaN) {
  auto v = values_of<float>(run1("Sigmoid", 13, {f32({5}, {0, -kInf, kInf, -1000, kNaN})}));
  EXPECT_EQ(v[0], 0.5f);
  EXPECT_EQ(v[1], 0.0f);
  EXPECT_EQ(v[2], 1.0f);
  EXPECT_EQ(v[3], 0.0f);
  EXPECT_TRUE(std::isnan(v[4]));
  EXPECT_NEAR(first_f32(run1("Sigmoid", 1, {f32s(1)})), 0.73105858f, 1e-6);
}

TEST(HardSigmoidOp, DefaultsAndAttributes) {
  auto v = values_of<float>(run1("HardSigmoid", 6, {f32({4}, {0, 10, -10, kNaN})}));
  EXPECT_EQ(v[0], 0.5f);
  EXPECT_EQ(v[1], 1.0f);
  EXPECT_EQ(v[2], 0.0f);
  EXPECT_TRUE(std::isnan(v[3]));
  // 0.5 * 1 + 0.25 = 0.75
  EXPECT_EQ(first_f32(run1("HardSigmoid", 6, {f32s(1)}, {attr_float("alpha", 0.5f), attr_float("beta", 0.25f)})), 0.75f);
}

TEST(HardSwishOp, Values) {
  auto v = values_of<float>(run1("HardSwish", 14, {f32({4}, {3, -3, 1, 6})}));
  EXPECT_EQ(v[0], 3.0f);               // 3 * min(1, 1)
  EXPECT_EQ(v[1], 0.0f);               // -3 * max(0, 0)
  EXPECT_FLOAT_EQ(v[2], 2.0f / 3.0f);  // 1 * (1/6 + 1/2)
  EXPECT_EQ(v[3], 6.0f);
}

TEST(LeakyReluOp, DefaultAlpha) {
  auto v = values_of<float>(run1("LeakyRelu", 16, {f32({3}, {-2, 3, -0.0f})}));
  EXPECT_FLOAT_EQ(v[0], -0.02f);
  EXPECT_EQ(v[1], 3.0f);
  EXPECT_EQ(first_f32(run1("LeakyRelu", 6, {f32s(-2)}, {attr_float("alpha", 0.5f)})), -1.0f);
}

TEST(PReluOp, UnidirectionalBroadcast) {
  auto out = run1("PRelu", 16, {f32({2, 3}, {-1, -1, -1, 1, -2, 3}), f32({3}, {0.5f, 2, 3})});
  EXPECT_EQ(out.tensor.shape(), (Shape{2, 3}));
  EXPECT_EQ(values_of<float>(out), (std::vector<float>{-0.5f, -2, -3, 1, -4, 3}));
  // slope [2] does not broadcast to [2, 3]; a slope bigger than X does not either.
  EXPECT_THROW(run1("PRelu", 9, {f32({2, 3}, {0, 0, 0, 0, 0, 0}), f32({2}, {1, 1})}), Trap);
  EXPECT_THROW(run1("PRelu", 9, {f32({3}, {0, 0, 0}), f32({2, 3}, {1, 1, 1, 1, 1, 1})}), Trap);
}

TEST(PReluOp, Integers) {
  auto out = run1("PRelu", 9, {tensor<int32_t>({3}, {-3, 4, -1}), tensor<int32_t>({1}, {2})});
  EXPECT_EQ(values_of<int32_t>(out), (std::vector<int32_t>{-6, 4, -2}));
}

TEST(PReluOp, Version6PerChannelSlope) {
  // X [1, 2, 3], slope [2]: slope[c] applies along dimension 1.
  auto out = run1("PRelu", 6, {f32({1, 2, 3}, {-1, -2, 3, -1, -2, 3}), f32({2}, {10, 100})});
  EXPECT_EQ(values_of<float>(out), (std::vector<float>{-10, -20, 3, -100, -200, 3}));
}

TEST(EluSeluCeluOp, Values) {
  // Elu: alpha (e^-1 - 1) = -0.6321205588
  EXPECT_FLOAT_EQ(first_f32(run1("Elu", 6, {f32s(-1)})), -0.63212056f);
  EXPECT_EQ(first_f32(run1("Elu", 6, {f32s(2)})), 2.0f);
  EXPECT_FLOAT_EQ(first_f32(run1("Elu", 1, {f32s(-1)}, {attr_float("alpha", 2.0f)})), -1.2642411f);
  // Selu defaults differ: version 6 gamma = 1.05070102..., version 1 gamma = 1.0507.
  EXPECT_EQ(first_f32(run1("Selu", 6, {f32s(1)})), 1.05070102214813232421875f);
  EXPECT_EQ(first_f32(run1("Selu", 1, {f32s(1)})), 1.0507f);
  // gamma * alpha * (e^-1 - 1) = 1.0507010 * 1.6732632 * -0.63212056 = -1.1113307
  EXPECT_NEAR(first_f32(run1("Selu", 6, {f32s(-1)})), -1.1113307f, 1e-6);
  EXPECT_FLOAT_EQ(first_f32(run1("Selu", 6, {f32s(-1)}, {attr_float("alpha", 2), attr_float("gamma", 3)})),
                  3.0f * 2.0f * (-0.63212056f));
  EXPECT_EQ(first_f32(run1("Selu", 6, {f32s(0)})), 0.0f);
  // Celu alpha 2: 2 (e^-0.5 - 1) = -0.78693868
  auto c = values_of<float>(run1("Celu", 12, {f32({2}, {-1, 1})}, {attr_float("alpha", 2.0f)}));
  EXPECT_FLOAT_EQ(c[0], -0.78693868f);
  EXPECT_EQ(c[1], 1.0f);
}

TEST(SoftplusSoftsignOp, Values) {
  auto sp = values_of<float>(run1("Softplus", 1, {f32({4}, {0, 1000, -1000, kInf})}));
  EXPECT_FLOAT_EQ(sp[0], 0.69314718f);
  EXPECT_EQ(sp[1], 1000.0f);  // no overflow of e^x
  EXPECT_EQ(sp[2], 0.0f);
  EXPECT_EQ(sp[3], kInf);
  auto ss = values_of<float>(run1("Softsign", 1, {f32({4}, {1, -3, kInf, -kInf})}));
  EXPECT_EQ(ss, (std::vector<float>{0.5f, -0.75f, 1.0f, -1.0f}));
}

TEST(ThresholdedReluShrinkOp, Values) {
  auto t = values_of<float>(run1("ThresholdedRelu", 10, {f32({4}, {1, 1.5f, -2, kNaN})}));
  EXPECT_EQ(t[0], 0.0f);  // not greater than alpha = 1
  EXPECT_EQ(t[1], 1.5f);
  EXPECT_EQ(t[2], 0.0f);
  EXPECT_TRUE(std::isnan(t[3]));
  auto s = values_of<float>(
      run1("Shrink", 9, {f32({5}, {-2, -1, 0, 1, 2})}, {attr_float("lambd", 1.5f), attr_float("bias", 1)}));
  EXPECT_EQ(s, (std::vector<float>{-1, 0, 0, 0, 1}));
  auto si = values_of<int8_t>(
      run1("Shrink", 9, {tensor<int8_t>({3}, {-3, 1, 4})}, {attr_float("lambd", 1.5f), attr_float("bias", 1)}));
  EXPECT_EQ(si, (std::vector<int8_t>{-2, 0, 3}));
}

// ---------------------------------------------------------------------------------------------
// Clip

TEST(ClipOp, AttributeForm) {
  auto v = values_of<float>(run1("Clip", 6, {f32({4}, {-2, 0.5f, 2, kNaN})}, {attr_float("min", -1), attr_float("max", 1)}));
  EXPECT_EQ(v[0], -1.0f);
  EXPECT_EQ(v[1], 0.5f);
  EXPECT_EQ(v[2], 1.0f);
  EXPECT_TRUE(std::isnan(v[3]));
  // Version 6 default bounds are float's lowest and max.
  auto d = values_of<double>(run1("Clip", 6, {tensor<double>({2}, {1e300, -5})}));
  EXPECT_EQ(d[0], static_cast<double>(std::numeric_limits<float>::max()));
  EXPECT_EQ(d[1], -5.0);
  EXPECT_EQ(values_of<float>(run1("Clip", 1, {f32({2}, {-3, 3})}, {attr_float("max", 0)})), (std::vector<float>{-3, 0}));
}

TEST(ClipOp, InputForm) {
  Value none;
  auto mn = values_of<float>(run1("Clip", 13, {f32({3}, {-2, 0, 2}), f32s(0)}));
  EXPECT_EQ(mn, (std::vector<float>{0, 0, 2}));
  auto mx = values_of<float>(run1("Clip", 13, {f32({3}, {-2, 0, 2}), none, f32s(1)}));
  EXPECT_EQ(mx, (std::vector<float>{-2, 0, 1}));
  // min > max: every element becomes max.
  auto swapped = values_of<float>(run1("Clip", 11, {f32({3}, {-2, 0, 2}), f32s(1), f32s(-1)}));
  EXPECT_EQ(swapped, (std::vector<float>{-1, -1, -1}));
  // Omitted bounds are the type's lowest / max, so +inf becomes FLT_MAX.
  auto inf = values_of<float>(run1("Clip", 13, {f32({2}, {kInf, 3})}));
  EXPECT_EQ(inf[0], std::numeric_limits<float>::max());
  EXPECT_EQ(inf[1], 3.0f);
  auto i8 = values_of<int8_t>(
      run1("Clip", 12, {tensor<int8_t>({3}, {-128, 0, 127}), tensor<int8_t>({}, {-5}), tensor<int8_t>({}, {5})}));
  EXPECT_EQ(i8, (std::vector<int8_t>{-5, 0, 5}));
  EXPECT_THROW(run1("Clip", 13, {f32({1}, {0}), f32({2}, {0, 1})}), Trap);
}

// ---------------------------------------------------------------------------------------------
// Max, Min, Sum, Mean

TEST(MaxMinOp, BroadcastAndNaN) {
  auto mx = run1("Max", 13, {f32({2, 1}, {1, 5}), f32({3}, {0, 3, kNaN}), f32({}, {2})});
  EXPECT_EQ(mx.tensor.shape(), (Shape{2, 3}));
  auto v = values_of<float>(mx);
  EXPECT_EQ(v[0], 2.0f);
  EXPECT_EQ(v[1], 3.0f);
  EXPECT_TRUE(std::isnan(v[2]));
  EXPECT_EQ(v[3], 5.0f);
  EXPECT_EQ(v[4], 5.0f);
  EXPECT_TRUE(std::isnan(v[5]));
  auto mn = values_of<int32_t>(run1("Min", 12, {tensor<int32_t>({3}, {1, -7, 3}), tensor<int32_t>({3}, {2, 0, -3})}));
  EXPECT_EQ(mn, (std::vector<int32_t>{1, -7, -3}));
  EXPECT_EQ(values_of<float>(run1("Min", 8, {f32({2}, {4, 1})})), (std::vector<float>{4, 1}));
}

TEST(MaxMinOp, Version6NeedsSameShapes) {
  EXPECT_THROW(run1("Max", 6, {f32({2}, {1, 2}), f32({1}, {3})}), Trap);
  EXPECT_EQ(values_of<float>(run1("Max", 6, {f32({2}, {1, 4}), f32({2}, {3, 2})})), (std::vector<float>{3, 4}));
}

TEST(SumMeanOp, Values) {
  auto s = run1("Sum", 13, {f32({3}, {1, 2, 3}), f32({2, 1}, {10, 20}), f32({}, {100})});
  EXPECT_EQ(values_of<float>(s), (std::vector<float>{111, 112, 113, 121, 122, 123}));
  auto m = values_of<float>(run1("Mean", 13, {f32({2}, {1, 2}), f32({2}, {3, 4}), f32({2}, {5, 9})}));
  EXPECT_EQ(m, (std::vector<float>{3, 5}));
  EXPECT_THROW(run1("Sum", 6, {f32({2}, {1, 2}), f32({1}, {3})}), Trap);
  EXPECT_EQ(values_of<float>(run1("Sum", 1, {f32({2}, {1, 2})})), (std::vector<float>{1, 2}));
}

// ---------------------------------------------------------------------------------------------
// IsNaN, IsInf

TEST(IsNaNIsInfOp, Values) {
  EXPECT_EQ(values_of<bool>(run1("IsNaN", 13, {f32({3}, {kNaN, kInf, 0})})), (std::vector<bool>{true, false, false}));
  auto h = run1("IsNaN", 13, {tensor<float16_t>({1}, {float16_t(kNaN)})});
  EXPECT_TRUE(values_of<bool>(h)[0]);
  Value x = f32({4}, {kInf, -kInf, kNaN, 1});
  EXPECT_EQ(values_of<bool>(run1("IsInf", 10, {x})), (std::vector<bool>{true, true, false, false}));
  EXPECT_EQ(values_of<bool>(run1("IsInf", 10, {x}, {attr_int("detect_negative", 0)})),
            (std::vector<bool>{true, false, false, false}));
  EXPECT_EQ(values_of<bool>(run1("IsInf", 10, {x}, {attr_int("detect_positive", 0)})),
            (std::vector<bool>{false, true, false, false}));
}

// ---------------------------------------------------------------------------------------------
// Logic and comparisons

TEST(LogicOp, AndOrXorNot) {
  Value a = tensor<bool>({2, 2}, {true, true, false, false});
  Value b = tensor<bool>({2}, {true, false});
  EXPECT_EQ(values_of<bool>(run1("And", 7, {a, b})), (std::vector<bool>{true, false, false, false}));
  EXPECT_EQ(values_of<bool>(run1("Or", 7, {a, b})), (std::vector<bool>{true, true, true, false}));
  EXPECT_EQ(values_of<bool>(run1("Xor", 7, {a, b})), (std::vector<bool>{false, true, true, false}));
  EXPECT_EQ(values_of<bool>(run1("Not", 1, {b})), (std::vector<bool>{false, true}));
  EXPECT_THROW(run1("And", 7, {f32({1}, {1}), f32({1}, {1})}), Trap);
}

TEST(LogicOp, Version1LegacyBroadcastWithAxis) {
  Value a = tensor<bool>({2, 2}, {true, true, true, false});
  Value b = tensor<bool>({2}, {true, false});
  // axis=0: b[i] pairs with row i.
  auto out = run1("And", 1, {a, b}, {attr_int("broadcast", 1), attr_int("axis", 0)});
  EXPECT_EQ(values_of<bool>(out), (std::vector<bool>{true, true, false, false}));
}

TEST(CompareOp, EqualTypes) {
  EXPECT_EQ(values_of<bool>(run1("Equal", 7, {tensor<bool>({2}, {true, false}), tensor<bool>({}, {false})})),
            (std::vector<bool>{false, true}));
  EXPECT_EQ(values_of<bool>(run1("Equal", 11, {f32({3}, {kNaN, 0.0f, 1}), f32({3}, {kNaN, -0.0f, 2})})),
            (std::vector<bool>{false, true, false}));
  EXPECT_EQ(values_of<bool>(run1("Equal", 1, {tensor<int64_t>({2, 2}, {1, 2, 3, 4}), tensor<int64_t>({2}, {1, 4})},
                                 {attr_int("broadcast", 1)})),
            (std::vector<bool>{true, false, false, true}));
}

TEST(CompareOp, Ordering) {
  Value a = tensor<int32_t>({3}, {1, 2, 3});
  Value b = tensor<int32_t>({}, {2});
  EXPECT_EQ(values_of<bool>(run1("Less", 13, {a, b})), (std::vector<bool>{true, false, false}));
  EXPECT_EQ(values_of<bool>(run1("Greater", 13, {a, b})), (std::vector<bool>{false, false, true}));
  EXPECT_EQ(values_of<bool>(run1("LessOrEqual", 16, {a, b})), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(values_of<bool>(run1("GreaterOrEqual", 12, {a, b})), (std::vector<bool>{false, true, true}));
  Value h = tensor<float16_t>({2}, {float16_t(kNaN), float16_t(1.0f)});
  Value h1 = tensor<float16_t>({1}, {float16_t(1.0f)});
  EXPECT_EQ(values_of<bool>(run1("GreaterOrEqual", 16, {h, h1})), (std::vector<bool>{false, true}));
  EXPECT_EQ(values_of<bool>(run1("Less", 9, {tensor<uint64_t>({1}, {0}), tensor<uint64_t>({1}, {~uint64_t{0}})})),
            (std::vector<bool>{true}));
}

// ---------------------------------------------------------------------------------------------
// BitShift, Where

TEST(BitShiftOp, LeftRightAndWideShifts) {
  auto l = run1("BitShift", 11, {tensor<uint8_t>({4}, {1, 1, 255, 3}), tensor<uint8_t>({4}, {7, 8, 1, 200})},
                {attr_string("direction", "LEFT")});
  EXPECT_EQ(values_of<uint8_t>(l), (std::vector<uint8_t>{128, 0, 254, 0}));
  auto r = run1("BitShift", 11, {tensor<uint64_t>({3}, {~uint64_t{0}, 16, 16}), tensor<uint64_t>({3}, {63, 64, 2})},
                {attr_string("direction", "RIGHT")});
  EXPECT_EQ(values_of<uint64_t>(r), (std::vector<uint64_t>{1, 0, 4}));
  EXPECT_THROW(run1("BitShift", 11, {tensor<uint8_t>({1}, {1}), tensor<uint8_t>({1}, {1})}, {attr_string("direction", "UP")}),
               Trap);
  EXPECT_THROW(run1("BitShift", 11, {tensor<int32_t>({1}, {1}), tensor<int32_t>({1}, {1})}, {attr_string("direction", "LEFT")}),
               Trap);
}

TEST(WhereOp, BroadcastsAllThree) {
  auto out = run1("Where", 16, {tensor<bool>({2, 1}, {true, false}), f32({3}, {1, 2, 3}), f32({}, {-1})});
  EXPECT_EQ(out.tensor.shape(), (Shape{2, 3}));
  EXPECT_EQ(values_of<float>(out), (std::vector<float>{1, 2, 3, -1, -1, -1}));
  auto s = run1("Where", 9,
                {tensor<bool>({2}, {false, true}), tensor<std::string>({}, {"x"}), tensor<std::string>({2}, {"a", "b"})});
  EXPECT_EQ(values_of<std::string>(s), (std::vector<std::string>{"a", "x"}));
  auto r0 = run1("Where", 16, {tensor<bool>({}, {true}), tensor<int64_t>({}, {7}), tensor<int64_t>({}, {8})});
  EXPECT_EQ(r0.tensor.shape(), Shape{});
  EXPECT_EQ(values_of<int64_t>(r0)[0], 7);
  EXPECT_THROW(run1("Where", 16, {tensor<int32_t>({1}, {1}), f32({1}, {1}), f32({1}, {2})}), Trap);
}

}  // namespace
}  // namespace sonnx::testing
