// The quantization enclosures (enclose/enclose_quantize.cpp, enclose_qlinear.cpp; spec/accuracy.md,
// "Admissible results", "Quantization"). Integer outputs: the real and the admissible enclosure are
// the integer the exact quotient rounds to (half to even, decided with MPFR by exact comparisons,
// or by hand), which the reference's output equals, so a neighbour (±1) is rejected; a quotient
// whose admissible candidates straddle a half-way point is Undetermined, also where the input is
// an interval from an earlier node. Float outputs: the exact value (MPFR) lies in the real
// enclosure, the reference's in the admissible one, which holds the real one and rejects a value
// far off. DynamicQuantizeLinear is enclosed through its function body.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "enclose/enclose_ops.h"
#include "enclose_test_util.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_int;
using sonnx::testing::attr_ints;

// round_half_even(num / den) for den > 0, decided by exact comparisons of num with multiples of den
// (k·den is exact at 2200 bits).
double quant_test_round(mpfr_srcptr num, double den) {
  double n = std::floor(mpfr_get_d(num, MPFR_RNDN) / den);
  auto sign_above = [&](double k) {  // the sign of num − k·den
    Exact t(0);
    mpfr_set(t.get(), num, MPFR_RNDN);
    t.add_product(-k, den);
    return mpfr_sgn(t.get());
  };
  while (sign_above(n) < 0) n -= 1;
  while (sign_above(n + 1) >= 0) n += 1;
  int half = sign_above(n + 0.5);
  if (half != 0) return half < 0 ? n : n + 1;
  return std::fmod(n, 2.0) == 0 ? n : n + 1;
}

// Whether q lies within 1e-3 of a half-way point: random data is drawn again then, so that neither
// the reference's float arithmetic nor the admissible candidates leave the rounding open.
bool quant_test_near_half(double q) { return std::fabs(q - std::floor(q) - 0.5) < 1e-3; }

double quant_test_half_ulp(double x) { return std::ldexp(1.0, std::max(std::ilogb(x), -14) - 10); }

// An integer output: both enclosures are `want` element by element, and so is the reference's output.
void quant_test_expect_integers(const OneNodeModel& m, const std::vector<double>& want, DType type) {
  Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
  Tensor ref = reference_output(m);
  ASSERT_EQ(real.type, type);
  ASSERT_EQ(adm.type, type);
  ASSERT_TRUE(adm.exact());
  ASSERT_EQ(adm.lo.size(), static_cast<int64_t>(want.size()));
  for (size_t i = 0; i < want.size(); ++i) {
    const auto e = static_cast<int64_t>(i);
    SCOPED_TRACE("element " + std::to_string(i));
    EXPECT_EQ(real.lo.as_double(e), want[i]);
    EXPECT_EQ(adm.lo.as_double(e), want[i]);
    EXPECT_EQ(ref.as_double(e), want[i]);
    EXPECT_NE(adm.lo.as_double(e), want[i] + 1);  // a neighbour is not what the enclosure determines
    EXPECT_NE(adm.lo.as_double(e), want[i] - 1);
  }
}

Value quant_test_f16(const Shape& shape, const std::vector<float>& v) {
  std::vector<float16_t> h;
  for (float x : v) h.push_back(float16_t(x));
  return Value(Tensor::from_vector<float16_t>(shape, h));
}

// ---- QuantizeLinear ----

TEST(EncloseQuantize, QuantizeLinearIsTheExactQuotientRoundedHalfToEvenAndSaturated) {
  std::mt19937 rng(3710);
  for (int64_t opset : {10, 13, 19, 21, 25})
    for (bool is_signed : {false, true}) {
      SCOPED_TRACE("QuantizeLinear-" + std::to_string(opset) + (is_signed ? " int8" : " uint8"));
      const float scale = uniform_floats(1, rng, 0.01f, 2.0f)[0];
      const double lo = is_signed ? -128 : 0, hi = is_signed ? 127 : 255;
      const int zero = is_signed ? -7 : 100;
      // x / scale over [-400, 400]: both sides saturate for some elements.
      std::vector<float> x;
      while (x.size() < 40) {
        float v = uniform_floats(1, rng, -400.0f, 400.0f)[0] * scale;
        if (!quant_test_near_half(static_cast<double>(v) / scale)) x.push_back(v);
      }
      x.push_back(std::numeric_limits<float>::infinity());  // saturates
      x.push_back(-std::numeric_limits<float>::infinity());
      Value zp = is_signed ? Value(Tensor::scalar<int8_t>(static_cast<int8_t>(zero)))
                           : Value(Tensor::scalar<uint8_t>(static_cast<uint8_t>(zero)));
      OneNodeModel m = one_node_model("QuantizeLinear", opset, {floats({42}, x), Value(Tensor::scalar<float>(scale)), zp});
      std::vector<double> want;
      for (float v : x) {
        if (std::isinf(v)) {
          want.push_back(v > 0 ? hi : lo);
          continue;
        }
        Exact num(v);
        want.push_back(std::clamp(quant_test_round(num.get(), scale) + zero, lo, hi));
      }
      quant_test_expect_integers(m, want, is_signed ? DType::Int8 : DType::UInt8);
    }
}

// Quotients exactly half-way are points: decided, ties to even (by hand).
TEST(EncloseQuantize, ExactTiesRoundToEven) {
  OneNodeModel m = one_node_model("QuantizeLinear", 13,
                                  {floats({6}, {4.5f, 5.5f, -2.5f, -0.5f, 0.5f, 3.0f}), Value(Tensor::scalar<float>(1.0f)),
                                   Value(Tensor::scalar<int8_t>(0))});
  quant_test_expect_integers(m, {4, 6, -2, 0, 0, 3}, DType::Int8);
  // An int32 x: 27 / 2 = 13.5 is a tie, to 14, and -7 / 2 = -3.5 one to -4.
  OneNodeModel i = one_node_model("QuantizeLinear", 10,
                                  {Value(Tensor::from_vector<int32_t>({2}, {27, -7})), Value(Tensor::scalar<float>(2.0f)),
                                   Value(Tensor::scalar<int8_t>(0))});
  quant_test_expect_integers(i, {14, -4}, DType::Int8);
}

// An input from an earlier node: a / 3 with a = 13.5 + 2^-20 is 4.5 + 2^-20/3, strictly between the
// floats 4.5 and 4.5 + 2^-21. Its real enclosure rounds to 5; the admissible one (the Div within
// half an ulp of float) holds the tie 4.5, which rounds to 4: undetermined.
TEST(EncloseQuantize, AnIntervalAcrossAHalfWayPointIsUndetermined) {
  const float a = std::nextafter(13.5f, 100.0f);
  ASSERT_EQ(static_cast<double>(a), 13.5 + std::ldexp(1.0, -20));
  OneNodeModel m =
      graph_model(13, {named_node("Div", {"a", "three"}, "q"), named_node("QuantizeLinear", {"q", "scale", "zero"}, "y")},
                  {{"a", floats({1}, {a})},
                   {"three", floats({1}, {3.0f})},
                   {"scale", Value(Tensor::scalar<float>(1.0f))},
                   {"zero", Value(Tensor::scalar<uint8_t>(0))}},
                  {"y"});
  Bounds real = enclose_model(m.model, m.feed, Semantics::Real).at("y");
  EXPECT_EQ(real.lo.as_double(0), 5.0);
  EXPECT_THROW(enclose_model(m.model, m.feed, Semantics::Admissible), Undetermined);
}

// The division in float16 (y_scale's type, QuantizeLinear-19): x = 2.5 + 2^-20 rounds to 3 exactly,
// but the division rounded to float16 gives the tie 2.5, which rounds to 2 (the reference's
// result): the admissible semantics leaves it open.
TEST(EncloseQuantize, ADivisionRoundedToTheScalesTypeMayMeetATie) {
  const float x = 2.5f + std::ldexp(1.0f, -20);
  OneNodeModel m = one_node_model("QuantizeLinear", 19,
                                  {floats({1}, {x}), quant_test_f16({}, {1.0f}), Value(Tensor::scalar<int8_t>(0))});
  EXPECT_EQ(enclose_output(m, Semantics::Real).lo.as_double(0), 3.0);
  EXPECT_EQ(reference_output(m).as_double(0), 2.0);
  EXPECT_THROW(enclose_output(m, Semantics::Admissible), Undetermined);
}

// Per axis (13) and blocked into int4 (21), by hand.
TEST(EncloseQuantize, PerAxisAndBlockedScales) {
  // Columns: scale 1, zero 0; scale 0.5, zero 10; scale 4, zero 100.
  OneNodeModel axis = one_node_model("QuantizeLinear", 13,
                                     {floats({2, 3}, {1.2f, 2.6f, -40.0f, 300.0f, -3.0f, 7.0f}), floats({3}, {1.0f, 0.5f, 4.0f}),
                                      Value(Tensor::from_vector<uint8_t>({3}, {0, 10, 100}))},
                                     {attr_int("axis", 1)});
  quant_test_expect_integers(axis, {1, 15, 90, 255, 4, 102}, DType::UInt8);
  // Blocks of 2 along axis 1: row 0 scales (1, 2) zeros (0, 1); row 1 scales (0.5, 0.25) zeros (-1, 0).
  std::vector<int4_t> zeros = {int4_t{0}, int4_t{1}, int4_t{-1}, int4_t{0}};
  OneNodeModel blocked = one_node_model("QuantizeLinear", 21,
                                        {floats({2, 4}, {3.4f, -20.0f, 5.0f, 9.0f, 1.1f, -0.3f, 0.6f, -1.9f}),
                                         floats({2, 2}, {1.0f, 2.0f, 0.5f, 0.25f}),
                                         Value(Tensor::from_vector<int4_t>({2, 2}, zeros))},
                                        {attr_int("axis", 1), attr_int("block_size", 2)});
  quant_test_expect_integers(blocked, {3, -8, 3, 5, 1, -2, 2, -8}, DType::Int4);
}

// Into float8e4m3fn (19): x / 1 rounded to 4 significant bits, saturating at 448 (by hand: 1.06 is
// below 1.0625, the midpoint of 1 and 1.125; 0.3 above 0.296875, that of 0.28125 and 0.3125).
TEST(EncloseQuantize, IntoFloat8TheQuotientIsRoundedIntoTheType) {
  OneNodeModel m = one_node_model("QuantizeLinear", 19,
                                  {floats({6}, {1.06f, 1.07f, 500.0f, -3.3f, 0.0f, 0.3f}), Value(Tensor::scalar<float>(1.0f)),
                                   Value(Tensor::scalar<float8e4m3fn_t>(float8e4m3fn_t{0}))});
  const double want[] = {1.0, 1.125, 448.0, -3.25, 0.0, 0.3125};
  Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
  Tensor ref = reference_output(m);
  ASSERT_EQ(adm.type, DType::Float8E4M3FN);
  for (int64_t i = 0; i < 6; ++i) {
    SCOPED_TRACE("element " + std::to_string(i));
    for (const Bounds* b : {&real, &adm}) {
      EXPECT_EQ(bound_at(*b, i).lo, want[i]);
      EXPECT_EQ(bound_at(*b, i).hi, want[i]);
    }
    EXPECT_EQ(ref.as_double(i), want[i]);
  }
}

// ---- DequantizeLinear ----

// (x − zero)·scale with random uint8 x: exact (MPFR) in the real enclosure, which is a point (a
// 9-bit integer times a float is a double); the reference's float in the admissible one, which holds
// the real one and is the float rounding of it (one ulp wide at most).
TEST(EncloseQuantize, DequantizeLinearIsTheProductRoundedOnce) {
  std::mt19937 rng(3711);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int64_t opset : {10, 13, 19, 21, 25}) {
    SCOPED_TRACE("DequantizeLinear-" + std::to_string(opset));
    std::vector<uint8_t> x(30);
    for (uint8_t& v : x) v = static_cast<uint8_t>(byte(rng));
    const auto zero = static_cast<uint8_t>(byte(rng));
    const float scale = uniform_floats(1, rng, 0.001f, 50.0f)[0];
    OneNodeModel m = one_node_model("DequantizeLinear", opset,
                                    {Value(Tensor::from_vector<uint8_t>({30}, x)), Value(Tensor::scalar<float>(scale)),
                                     Value(Tensor::scalar<uint8_t>(zero))});
    Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
    Tensor ref = reference_output(m);
    ASSERT_EQ(adm.type, DType::Float);
    for (int64_t i = 0; i < 30; ++i) {
      SCOPED_TRACE("element " + std::to_string(i));
      Exact exact(static_cast<double>(x[static_cast<size_t>(i)]) - zero);
      mpfr_mul_d(exact.get(), exact.get(), scale, MPFR_RNDN);  // exact at 2200 bits
      Interval r = bound_at(real, i), a = bound_at(adm, i);
      double y = ref.as_double(i);
      EXPECT_TRUE(exact.inside(r));
      EXPECT_EQ(r.lo, r.hi);
      EXPECT_TRUE(a.contains(y)) << y << " outside [" << a.lo << ", " << a.hi << "]";
      EXPECT_LE(a.lo, r.lo);
      EXPECT_GE(a.hi, r.hi);
      EXPECT_LE(a.width(), float_ulp(y));
      EXPECT_FALSE(a.contains(y + 1000 * float_ulp(y)));
      EXPECT_FALSE(a.contains(y - 1000 * float_ulp(y)));
    }
  }
}

// Points checked by hand: per axis (13, int8), blocked (21, int4), float8 x (19).
void quant_test_expect_points(const OneNodeModel& m, const std::vector<double>& want) {
  Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
  Tensor ref = reference_output(m);
  for (size_t i = 0; i < want.size(); ++i) {
    const auto e = static_cast<int64_t>(i);
    SCOPED_TRACE("element " + std::to_string(i));
    for (const Bounds* b : {&real, &adm}) {
      EXPECT_EQ(bound_at(*b, e).lo, want[i]);
      EXPECT_EQ(bound_at(*b, e).hi, want[i]);
    }
    EXPECT_EQ(ref.as_double(e), want[i]);
  }
}

TEST(EncloseQuantize, DequantizePerAxisBlockedAndFloat8) {
  // Rows: zero 1, scale 0.5; zero -2, scale 3.
  quant_test_expect_points(one_node_model("DequantizeLinear", 13,
                                          {Value(Tensor::from_vector<int8_t>({2, 3}, {1, 5, -128, 127, 0, -2})),
                                           floats({2}, {0.5f, 3.0f}), Value(Tensor::from_vector<int8_t>({2}, {1, -2}))},
                                          {attr_int("axis", 0)}),
                           {0, 2, -64.5, 387, 6, 0});
  // Blocks of 2: zero 1, scale 0.25; zero -1, scale 4.
  std::vector<int4_t> x = {int4_t{7}, int4_t{-8}, int4_t{3}, int4_t{-1}};
  quant_test_expect_points(one_node_model("DequantizeLinear", 21,
                                          {Value(Tensor::from_vector<int4_t>({1, 4}, x)), floats({1, 2}, {0.25f, 4.0f}),
                                           Value(Tensor::from_vector<int4_t>({1, 2}, {int4_t{1}, int4_t{-1}}))},
                                          {attr_int("axis", 1), attr_int("block_size", 2)}),
                           {1.5, -2.25, 16, 0});
  // e4m3fn bits 0x38 = 1, 0x3C = 1.5, 0xC0 = -2, 0x7E = 448, times 0.5.
  std::vector<float8e4m3fn_t> f8 = {float8e4m3fn_t{0x38}, float8e4m3fn_t{0x3C}, float8e4m3fn_t{0xC0}, float8e4m3fn_t{0x7E}};
  quant_test_expect_points(one_node_model("DequantizeLinear", 19,
                                          {Value(Tensor::from_vector<float8e4m3fn_t>({4}, f8)), floats({}, {0.5f})}),
                           {0.5, 0.75, -1, 224});
}

// A float16 scale makes a float16 y (19): the exact product rounded to float16, at most one float16
// ulp wide, the reference's inside and 4 ulps off outside.
TEST(EncloseQuantize, DequantizeIntoFloat16RoundsOnce) {
  std::vector<uint8_t> x = {0, 1, 17, 200, 255, 128, 99};
  const float scale = 0.0123f;  // 19 significant bits times 8 bits: rounded in float16
  OneNodeModel m = one_node_model("DequantizeLinear", 19,
                                  {Value(Tensor::from_vector<uint8_t>({7}, x)), quant_test_f16({}, {scale}),
                                   Value(Tensor::scalar<uint8_t>(128))});
  Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
  Tensor ref = reference_output(m);
  ASSERT_EQ(adm.type, DType::Float16);
  const double s16 = static_cast<double>(static_cast<float>(float16_t(scale)));
  for (int64_t i = 0; i < 7; ++i) {
    SCOPED_TRACE("element " + std::to_string(i));
    Exact exact(static_cast<double>(x[static_cast<size_t>(i)]) - 128);
    mpfr_mul_d(exact.get(), exact.get(), s16, MPFR_RNDN);
    Interval r = bound_at(real, i), a = bound_at(adm, i);
    double y = ref.as_double(i);
    EXPECT_TRUE(exact.inside(r));
    EXPECT_TRUE(a.contains(y));
    EXPECT_LE(a.lo, r.lo);
    EXPECT_GE(a.hi, r.hi);
    EXPECT_LE(a.width(), quant_test_half_ulp(y));
    EXPECT_FALSE(a.contains(y + 4 * quant_test_half_ulp(y)));
    EXPECT_FALSE(a.contains(y - 4 * quant_test_half_ulp(y)));
  }
}

// ---- QLinearMatMul, QLinearConv ----

// round_half_even(acc·sa·sb / sy) + zero, saturated: acc·sa·sb is exact at 2200 bits.
double quant_test_requantize(int64_t acc, double sa, double sb, double sy, double zero, double lo, double hi) {
  Exact num(static_cast<double>(acc));
  mpfr_mul_d(num.get(), num.get(), sa, MPFR_RNDN);
  mpfr_mul_d(num.get(), num.get(), sb, MPFR_RNDN);
  return std::clamp(quant_test_round(num.get(), sy) + zero, lo, hi);
}

// a uint8 2×3 with a zero point and a scale per row, b int8 3×4 with one per column, y int8.
TEST(EncloseQuantize, QLinearMatMulRescalesTheExactIntegerSums) {
  std::mt19937 rng(3712);
  std::uniform_int_distribution<int> ubyte(0, 255), sbyte(-128, 127);
  for (int64_t opset : {10, 21}) {
    SCOPED_TRACE("QLinearMatMul-" + std::to_string(opset));
    std::vector<uint8_t> a(6), az(2);
    std::vector<int8_t> b(12), bz(4);
    std::vector<float> as, bs;
    float ys = 0;
    std::vector<double> want(8);
    const int8_t yz = -3;
    for (bool near_half = true; near_half;) {
      for (uint8_t& v : a) v = static_cast<uint8_t>(ubyte(rng));
      for (uint8_t& v : az) v = static_cast<uint8_t>(ubyte(rng));
      for (int8_t& v : b) v = static_cast<int8_t>(sbyte(rng));
      for (int8_t& v : bz) v = static_cast<int8_t>(sbyte(rng) / 4);
      as = uniform_floats(2, rng, 1e-3f, 3e-3f);
      bs = uniform_floats(4, rng, 1e-3f, 3e-3f);
      ys = uniform_floats(1, rng, 5e-3f, 2e-2f)[0];
      near_half = false;
      for (int m = 0; m < 2; ++m)
        for (int n = 0; n < 4; ++n) {
          int64_t acc = 0;
          for (int k = 0; k < 3; ++k) acc += int64_t{a[m * 3 + k] - az[m]} * (b[k * 4 + n] - bz[n]);
          double sa = as[m], sb = bs[n];
          near_half = near_half || quant_test_near_half(static_cast<double>(acc) * sa * sb / ys);
          want[m * 4 + n] = quant_test_requantize(acc, sa, sb, ys, yz, -128, 127);
        }
    }
    OneNodeModel m = one_node_model("QLinearMatMul", opset,
                                    {Value(Tensor::from_vector<uint8_t>({2, 3}, a)), floats({2}, as),
                                     Value(Tensor::from_vector<uint8_t>({2}, az)), Value(Tensor::from_vector<int8_t>({3, 4}, b)),
                                     floats({4}, bs), Value(Tensor::from_vector<int8_t>({4}, bz)),
                                     Value(Tensor::scalar<float>(ys)), Value(Tensor::scalar<int8_t>(yz))});
    quant_test_expect_integers(m, want, DType::Int8);
  }
}

// Float16 scales (21) that are powers of two, b the identity: with b_scale 0.25 the multiplier
// 0.5·0.25/0.125 = 1 is exact and the results integers, decided under every rounding within the
// allowance. With b_scale 1/16 the multiplier is 0.25, and a = 6 gives the tie 1.5: 2 exactly,
// undetermined under the admissible semantics.
TEST(EncloseQuantize, QLinearMatMulWithFloat16ScalesAndATie) {
  auto model = [](float b_scale, std::vector<uint8_t> a) {
    return one_node_model("QLinearMatMul", 21,
                          {Value(Tensor::from_vector<uint8_t>({2, 2}, a)), quant_test_f16({}, {0.5f}),
                           Value(Tensor::scalar<uint8_t>(0)), Value(Tensor::from_vector<uint8_t>({2, 2}, {1, 0, 0, 1})),
                           quant_test_f16({}, {b_scale}), Value(Tensor::scalar<uint8_t>(0)), quant_test_f16({}, {0.125f}),
                           Value(Tensor::scalar<uint8_t>(10))});
  };
  quant_test_expect_integers(model(0.25f, {1, 2, 3, 4}), {11, 12, 13, 14}, DType::UInt8);
  OneNodeModel tie = model(0.0625f, {6, 0, 0, 4});
  Bounds real = enclose_output(tie, Semantics::Real);
  EXPECT_EQ(real.lo.as_double(0), 12.0);  // 1.5 to even: 2, plus 10
  EXPECT_EQ(real.lo.as_double(3), 11.0);  // 4·0.25 = 1
  EXPECT_THROW(enclose_output(tie, Semantics::Admissible), Undetermined);
}

// x uint8 1×2×4×4, w int8 3×2×3×3 with pads 1, a scale and zero point per output channel, an int32
// bias: the sums computed here by the convolution's definition.
TEST(EncloseQuantize, QLinearConvRescalesTheExactIntegerSums) {
  std::mt19937 rng(3713);
  std::uniform_int_distribution<int> xs_dist(0, 40), ws_dist(-20, 20), bias_dist(-500, 500);
  std::vector<uint8_t> x(32);
  std::vector<int8_t> w(54);
  std::vector<int32_t> bias(3);
  const std::vector<int8_t> wz = {0, 1, -1};
  const uint8_t xz = 20, yz = 128;
  std::vector<float> ws;
  float xs = 0, ys = 0;
  std::vector<double> want(48);
  for (bool near_half = true; near_half;) {
    for (uint8_t& v : x) v = static_cast<uint8_t>(xs_dist(rng));
    for (int8_t& v : w) v = static_cast<int8_t>(ws_dist(rng));
    for (int32_t& v : bias) v = bias_dist(rng);
    xs = uniform_floats(1, rng, 0.01f, 0.03f)[0];
    ws = uniform_floats(3, rng, 0.01f, 0.03f);
    ys = uniform_floats(1, rng, 0.03f, 0.08f)[0];
    near_half = false;
    for (int m = 0; m < 3; ++m)
      for (int oh = 0; oh < 4; ++oh)
        for (int ow = 0; ow < 4; ++ow) {
          int64_t acc = bias[m];
          for (int ci = 0; ci < 2; ++ci)
            for (int kh = 0; kh < 3; ++kh)
              for (int kw = 0; kw < 3; ++kw) {
                int ih = oh - 1 + kh, iw = ow - 1 + kw;
                if (ih < 0 || ih >= 4 || iw < 0 || iw >= 4) continue;  // padding: x_zero_point, nothing
                acc += int64_t{x[(ci * 4 + ih) * 4 + iw] - xz} * (w[((m * 2 + ci) * 3 + kh) * 3 + kw] - wz[m]);
              }
          double sx = xs, sw = ws[m];
          near_half = near_half || quant_test_near_half(static_cast<double>(acc) * sx * sw / ys);
          want[(m * 4 + oh) * 4 + ow] = quant_test_requantize(acc, sx, sw, ys, yz, 0, 255);
        }
  }
  OneNodeModel m = one_node_model("QLinearConv", 10,
                                  {Value(Tensor::from_vector<uint8_t>({1, 2, 4, 4}, x)), Value(Tensor::scalar<float>(xs)),
                                   Value(Tensor::scalar<uint8_t>(xz)), Value(Tensor::from_vector<int8_t>({3, 2, 3, 3}, w)),
                                   floats({3}, ws), Value(Tensor::from_vector<int8_t>({3}, wz)),
                                   Value(Tensor::scalar<float>(ys)), Value(Tensor::scalar<uint8_t>(yz)),
                                   Value(Tensor::from_vector<int32_t>({3}, bias))},
                                  {attr_ints("pads", {1, 1, 1, 1})});
  quant_test_expect_integers(m, want, DType::UInt8);
}

// ---- the integer operators, DynamicQuantizeLinear ----

TEST(EncloseQuantize, IntegerOperatorsAreEnclosedExactly) {
  EXPECT_NE(find_enclosure("MatMulInteger", 10), nullptr);
  EXPECT_NE(find_enclosure("ConvInteger", 10), nullptr);
  // (a − 1)·(b − 2) by hand: [[0, 2], [3, 4]] times [[1, 0], [0, 2]].
  OneNodeModel m = one_node_model("MatMulInteger", 10,
                                  {Value(Tensor::from_vector<uint8_t>({2, 2}, {1, 3, 4, 5})),
                                   Value(Tensor::from_vector<uint8_t>({2, 2}, {3, 2, 2, 4})), Value(Tensor::scalar<uint8_t>(1)),
                                   Value(Tensor::scalar<uint8_t>(2))});
  Bounds y = enclose_output(m, Semantics::Admissible);
  ASSERT_EQ(y.type, DType::Int32);
  EXPECT_EQ(y.lo.to_int64_vector(), (std::vector<int64_t>{0, 4, 3, 8}));
}

// Its function body, walked with QuantizeLinear enclosed: x in [−3, 2], so y_scale = 5/255 (x·51
// is x / y_scale), the zero point round(3·51) = 153 and y = round(51·x) + 153 (by hand; 1.34f·51 is
// 68.34…, 0.6f·51 is 30.6…).
TEST(EncloseQuantize, DynamicQuantizeLinearThroughItsBody) {
  OneNodeModel m = one_node_model("DynamicQuantizeLinear", 11, {floats({6}, {0.0f, 2.0f, -3.0f, 1.34f, 0.6f, -1.0f})}, {}, 3);
  Tensor ref_y = reference_output(m, 0), ref_scale = reference_output(m, 1);
  for (Semantics s : {Semantics::Real, Semantics::Admissible}) {
    SCOPED_TRACE(s == Semantics::Real ? "real" : "admissible");
    std::map<std::string, Bounds> out = enclose_model(m.model, m.feed, s);
    const Bounds &y = out.at("out0"), &scale = out.at("out1"), &zero = out.at("out2");
    EXPECT_EQ(y.lo.to_int64_vector(), (std::vector<int64_t>{153, 255, 0, 221, 184, 102}));
    EXPECT_EQ(ref_y.to_int64_vector(), (std::vector<int64_t>{153, 255, 0, 221, 184, 102}));
    EXPECT_EQ(zero.lo.as_double(0), 153.0);
    Interval sc = bound_at(scale, 0);
    Exact lo(sc.lo), hi(sc.hi);  // lo·255 ≤ 5 ≤ hi·255, exactly
    mpfr_mul_ui(lo.get(), lo.get(), 255, MPFR_RNDN);
    mpfr_mul_ui(hi.get(), hi.get(), 255, MPFR_RNDN);
    EXPECT_LE(mpfr_cmp_ui(lo.get(), 5), 0);
    EXPECT_GE(mpfr_cmp_ui(hi.get(), 5), 0);
    if (s == Semantics::Admissible) {
      EXPECT_TRUE(sc.contains(ref_scale.as_double(0)));
    }
  }
}

}  // namespace
}  // namespace sonnx::enclose
