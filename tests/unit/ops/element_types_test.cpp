// The element types of ONNX IR 9–13 (include/sonnx/small_types.h, spec/element_types.md): values
// of every code, rounding and saturation into the small floats and integers (checked against an
// independent nearest-value search over the spec's value tables), the Cast/CastLike kernels of
// versions 19–25, TensorProto packing, .npy files and loading a model of IR version 11.
//
// Expected values come from the ONNX documents: onnx.proto (packing), Cast-19/24 in Changelog.md
// (the saturate tables, round_mode), and ONNX's technical notes on float8, float4, int4 and int2
// (value formulas, "round to nearest even, then truncate" for int4/int2); float4's NaN, which ONNX
// leaves unspecified, follows onnx's reference implementation and test data (−0).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "sonnx/errors.h"
#include "reference/model/loader.h"
#include "reference/model/npy.h"
#include "reference/model/packing.h"
#include "sonnx/small_types.h"
#include "reference/model/tensor_proto.h"
#include "reference/ops/registry.h"
#include "reference/ops/support/cast.h"
#include "tests/unit/op_test_util.h"

namespace sonnx {
namespace {
namespace fs = std::filesystem;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ---------------------------------------------------------------------------------------------
// The value tables, written from the formulas of ONNX's float8/float4 notes (not from our code).

struct SpecFloat {
  const char* name;
  int exp_bits, man_bits, bias;
  enum { IEEE, FN, FNUZ, Finite } kind;
  double max, min_subnormal;
  double ulp_at_max;  // spacing of the binade holding max: the value past max is max + ulp_at_max
};
const SpecFloat kE4M3FN{"e4m3fn", 4, 3, 7, SpecFloat::FN, 448, std::ldexp(1.0, -9), 32};
const SpecFloat kE4M3FNUZ{"e4m3fnuz", 4, 3, 8, SpecFloat::FNUZ, 240, std::ldexp(1.0, -10), 16};
const SpecFloat kE5M2{"e5m2", 5, 2, 15, SpecFloat::IEEE, 57344, std::ldexp(1.0, -16), 8192};
const SpecFloat kE5M2FNUZ{"e5m2fnuz", 5, 2, 16, SpecFloat::FNUZ, 57344, std::ldexp(1.0, -17), 8192};
const SpecFloat kE2M1{"e2m1", 2, 1, 1, SpecFloat::Finite, 6, 0.5, 2};

// (-1)^S 2^(E − bias) (1 + M/2^m) for E ≠ 0, (-1)^S 2^(1 − bias) M/2^m for E = 0; NaN and inf as
// the notes' tables place them.
double spec_value(const SpecFloat& f, unsigned code) {
  unsigned sign = code >> (f.exp_bits + f.man_bits);
  unsigned e = (code >> f.man_bits) & ((1u << f.exp_bits) - 1);
  unsigned m = code & ((1u << f.man_bits) - 1);
  unsigned e_top = (1u << f.exp_bits) - 1, m_top = (1u << f.man_bits) - 1;
  if (f.kind == SpecFloat::FNUZ && code == (1u << (f.exp_bits + f.man_bits))) return kNaN;
  if (f.kind == SpecFloat::FN && e == e_top && m == m_top) return kNaN;
  if (f.kind == SpecFloat::IEEE && e == e_top) return m == 0 ? (sign ? -kInf : kInf) : kNaN;
  double frac = static_cast<double>(m) / std::pow(2.0, f.man_bits);
  double v = e == 0 ? std::pow(2.0, 1 - f.bias) * frac : std::pow(2.0, static_cast<int>(e) - f.bias) * (1 + frac);
  return sign ? -v : v;
}

unsigned code_count(const SpecFloat& f) { return 1u << (1 + f.exp_bits + f.man_bits); }

template <class S>
double decode_code(unsigned code) {
  return small_to_double(S{static_cast<uint8_t>(code)});
}

bool same_double(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
}

template <class S>
void expect_table_matches_spec(const SpecFloat& f) {
  double max_seen = 0, min_positive = kInf;
  for (unsigned code = 0; code < code_count(f); ++code) {
    double want = spec_value(f, code), got = decode_code<S>(code);
    EXPECT_TRUE(same_double(got, want)) << f.name << " code " << code << ": " << got << " vs " << want;
    if (std::isfinite(want)) max_seen = std::max(max_seen, std::fabs(want));
    if (std::isfinite(want) && want > 0) min_positive = std::min(min_positive, want);
  }
  EXPECT_EQ(max_seen, f.max) << f.name;
  EXPECT_EQ(min_positive, f.min_subnormal) << f.name;
}

TEST(ElementTypes, EveryCodeHasTheSpecValue) {
  expect_table_matches_spec<float8e4m3fn_t>(kE4M3FN);
  expect_table_matches_spec<float8e4m3fnuz_t>(kE4M3FNUZ);
  expect_table_matches_spec<float8e5m2_t>(kE5M2);
  expect_table_matches_spec<float8e5m2fnuz_t>(kE5M2FNUZ);
  expect_table_matches_spec<float4e2m1_t>(kE2M1);
  // e8m0: 2^(bits − 127), 0xFF NaN.
  for (unsigned b = 0; b < 255; ++b)
    EXPECT_EQ(small_to_double(float8e8m0_t{static_cast<uint8_t>(b)}), std::ldexp(1.0, static_cast<int>(b) - 127));
  EXPECT_TRUE(std::isnan(small_to_double(float8e8m0_t{0xFF})));
}

// Bits → double → bits gives the same bits for all 256 codes, NaNs included: e4m3fn keeps the
// NaN's sign (S.1111.111), e5m2 its sign and payload (S.11111.{01,10,11}), fnuz has one NaN. The
// one exception is the table's: e5m2's ±inf becomes ±max when saturating.
template <class S>
void expect_round_trip(unsigned codes, const NarrowOptions& o) {
  for (unsigned code = 0; code < codes; ++code) {
    S x{static_cast<uint8_t>(code)};
    unsigned want = code;
    if (std::is_same_v<S, float8e5m2_t> && o.saturate && (code & 0x7F) == 0x7C) want = code - 1;  // S.11110.11
    EXPECT_EQ(small_from_double<S>(small_to_double(x), o).bits, want) << "code " << code;
  }
}

TEST(ElementTypes, EveryCodeRoundTripsThroughDouble) {
  for (bool saturate : {true, false}) {
    NarrowOptions o;
    o.saturate = saturate;
    expect_round_trip<float8e4m3fn_t>(256, o);
    expect_round_trip<float8e4m3fnuz_t>(256, o);
    expect_round_trip<float8e5m2_t>(256, o);
    expect_round_trip<float8e5m2fnuz_t>(256, o);
    expect_round_trip<float4e2m1_t>(16, o);
    for (auto r : {E8M0Rounding::Up, E8M0Rounding::Down, E8M0Rounding::Nearest}) {
      o.e8m0_rounding = r;
      expect_round_trip<float8e8m0_t>(256, o);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Rounding into the float8 kinds and float4: an independent search for the nearest finite value
// (ties to the even code), then Cast's tables for overflow, inf and NaN.

uint8_t nan_code(const SpecFloat& f, bool negative) {
  switch (f.kind) {
    case SpecFloat::FN: return negative ? 0xFF : 0x7F;
    case SpecFloat::IEEE: return negative ? 0xFE : 0x7E;  // the quiet NaN (payload 10)
    case SpecFloat::FNUZ: return 0x80;
    case SpecFloat::Finite: return 0x8;
  }
  return 0;
}

// The expected code of Cast(x) per the tables of Cast-24 (fnuz_inf_to_max) or Cast-19.
uint8_t expected_code(const SpecFloat& f, double x, bool saturate, bool fnuz_inf_to_max) {
  bool neg = std::signbit(x);
  unsigned sign_bit = 1u << (f.exp_bits + f.man_bits);
  bool sat = saturate || f.kind == SpecFloat::Finite;
  auto max_code = [&]() -> uint8_t {
    for (unsigned c = 0; c < sign_bit; ++c)
      if (spec_value(f, c) == f.max) return static_cast<uint8_t>(c | (neg ? sign_bit : 0));
    return 0;
  };
  auto too_big = [&](bool is_inf) -> uint8_t {
    if (sat && !(is_inf && f.kind == SpecFloat::FNUZ && !fnuz_inf_to_max)) return max_code();
    if (f.kind == SpecFloat::IEEE) return static_cast<uint8_t>((neg ? sign_bit : 0) | (0x1Fu << 2));  // ±inf
    return nan_code(f, neg);
  };
  if (std::isnan(x)) return nan_code(f, neg);
  if (std::isinf(x)) return too_big(true);
  double a = std::fabs(x);
  if (a >= f.max + f.ulp_at_max) return too_big(false);  // (the distances below would lose precision)
  // Nearest among 0, the positive finite codes, and the first value past max (max + ulp, whose
  // code would follow max's: even when max's code is odd).
  double best = -1;
  unsigned best_code = 0;
  bool best_past_max = false;
  auto consider = [&](double v, unsigned code, bool past) {
    double d = std::fabs(v - a), bd = std::fabs(best - a);
    if (best < 0 || d < bd || (d == bd && code % 2 == 0)) {
      best = v;
      best_code = code;
      best_past_max = past;
    }
  };
  unsigned max_pos = 0;
  for (unsigned c = 0; c < sign_bit; ++c) {
    double v = spec_value(f, c);
    if (!std::isfinite(v)) continue;
    consider(v, c, false);
    if (v == f.max) max_pos = c;
  }
  consider(f.max + f.ulp_at_max, max_pos + 1, true);
  if (best_past_max) return too_big(false);
  if (best == 0 && f.kind == SpecFloat::FNUZ) return 0;  // no -0
  return static_cast<uint8_t>(best_code | (neg ? sign_bit : 0));
}

// Ties, neighbours of ties, every value, values around max, and random values of every scale.
std::vector<double> probe_values(const SpecFloat& f) {
  std::vector<double> pos;
  for (unsigned c = 0; c < (1u << (f.exp_bits + f.man_bits)); ++c)
    if (double v = spec_value(f, c); std::isfinite(v)) pos.push_back(v);
  std::sort(pos.begin(), pos.end());
  pos.push_back(f.max + f.ulp_at_max);
  std::vector<double> xs;
  for (size_t i = 0; i + 1 < pos.size(); ++i) {
    double mid = (pos[i] + pos[i + 1]) / 2;
    for (double v : {pos[i], mid, std::nextafter(mid, 0.0), std::nextafter(mid, kInf)}) xs.push_back(v);
  }
  for (double v : {f.max * 4, 1e30, std::numeric_limits<double>::max(), f.min_subnormal / 4,
                   std::numeric_limits<double>::denorm_min(), 0.0})
    xs.push_back(v);
  std::mt19937_64 rng(20240917);
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  std::uniform_int_distribution<int> ex(-25, 20);
  for (int i = 0; i < 4000; ++i) xs.push_back(std::ldexp(mant(rng), ex(rng)));
  size_t n = xs.size();
  for (size_t i = 0; i < n; ++i) xs.push_back(-xs[i]);
  for (double v : {kInf, -kInf, kNaN, -kNaN}) xs.push_back(v);
  return xs;
}

template <class S>
void expect_rounding_matches_search(const SpecFloat& f) {
  for (bool saturate : {true, false}) {
    for (bool fnuz_inf_to_max : {true, false}) {
      NarrowOptions o;
      o.saturate = saturate;
      o.fnuz_inf_to_max = fnuz_inf_to_max;
      int failures = 0;
      for (double x : probe_values(f)) {
        uint8_t want = expected_code(f, x, saturate, fnuz_inf_to_max);
        uint8_t got = small_from_double<S>(x, o).bits;
        if (got != want && ++failures <= 5)
          ADD_FAILURE() << f.name << " saturate=" << saturate << " fnuz_inf_to_max=" << fnuz_inf_to_max << " x=" << x
                        << ": got code " << int(got) << ", expected " << int(want);
      }
      EXPECT_EQ(failures, 0) << f.name;
    }
  }
}

TEST(ElementTypes, Float8AndFloat4RoundToNearestEvenAsTheTablesSay) {
  expect_rounding_matches_search<float8e4m3fn_t>(kE4M3FN);
  expect_rounding_matches_search<float8e4m3fnuz_t>(kE4M3FNUZ);
  expect_rounding_matches_search<float8e5m2_t>(kE5M2);
  expect_rounding_matches_search<float8e5m2fnuz_t>(kE5M2FNUZ);
  expect_rounding_matches_search<float4e2m1_t>(kE2M1);
}

TEST(ElementTypes, Float8SpecificCases) {
  NarrowOptions sat, nosat;
  nosat.saturate = false;
  // e4m3fn: 464 is the midpoint of 448 (S.1111.110) and the NaN code; ties to even keep 448.
  EXPECT_EQ(to_float8e4m3fn(464, nosat).bits, 0x7E);
  EXPECT_EQ(to_float8e4m3fn(std::nextafter(464.0, kInf), nosat).bits, 0x7F);  // [x] > 448: NaN
  EXPECT_EQ(to_float8e4m3fn(std::nextafter(464.0, kInf), sat).bits, 0x7E);
  EXPECT_EQ(to_float8e4m3fn(-kInf, nosat).bits, 0xFF);  // -Inf → -NaN
  EXPECT_EQ(to_float8e4m3fn(-kInf, sat).bits, 0xFE);    // → -448
  EXPECT_EQ(to_float8e4m3fn(-0.0).bits, 0x80);
  EXPECT_EQ(to_float8e4m3fn(std::ldexp(1.0, -10)).bits, 0x00);  // half the smallest subnormal: tie to 0
  EXPECT_EQ(to_float8e4m3fn(std::ldexp(1.5, -10)).bits, 0x01);
  // e5m2: 61440 is the midpoint of 57344 (mantissa 11, odd) and 65536: it rounds up, past max.
  EXPECT_EQ(to_float8e5m2(61440, nosat).bits, 0x7C);  // +inf
  EXPECT_EQ(to_float8e5m2(61440, sat).bits, 0x7B);
  EXPECT_EQ(to_float8e5m2(std::nextafter(61440.0, 0.0), nosat).bits, 0x7B);
  EXPECT_EQ(to_float8e5m2(-kInf, nosat).bits, 0xFC);
  // fnuz: no -0, one NaN; ±inf under saturation is NaN in Cast-19..23, ±max from Cast-24.
  NarrowOptions v19 = sat;
  v19.fnuz_inf_to_max = false;
  EXPECT_EQ(to_float8e4m3fnuz(-0.0).bits, 0x00);
  EXPECT_EQ(to_float8e4m3fnuz(-1e-30).bits, 0x00);
  EXPECT_EQ(to_float8e4m3fnuz(-kNaN).bits, 0x80);
  EXPECT_EQ(to_float8e4m3fnuz(kInf, v19).bits, 0x80);
  EXPECT_EQ(to_float8e4m3fnuz(kInf, sat).bits, 0x7F);
  EXPECT_EQ(to_float8e5m2fnuz(-kInf, sat).bits, 0xFF);
  EXPECT_EQ(to_float8e4m3fnuz(248, sat).bits, 0x7F);    // tie of 240 (odd) and 256: past max, saturated
  EXPECT_EQ(to_float8e4m3fnuz(248, nosat).bits, 0x80);  // or NaN
  EXPECT_EQ(to_float8e4m3fnuz(1e9, v19).bits, 0x7F);    // a finite value still saturates in 19..23
}

TEST(ElementTypes, Float4FollowsOnnxFloat4Note) {
  // Ties at 0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5 go to the even code.
  std::vector<std::pair<double, double>> cases{{0.25, 0},  {0.2500001, 0.5}, {0.75, 1},   {1.25, 1},   {1.75, 2},
                                               {2.5, 2},   {3.5, 4},         {5, 4},      {5.0001, 6}, {7, 6},
                                               {1e300, 6}, {kInf, 6},        {-kInf, -6}, {-3.5, -4}};
  for (auto [x, want] : cases) EXPECT_EQ(small_to_double(to_float4e2m1(x)), want) << x;
  EXPECT_EQ(to_float4e2m1(-0.0).bits, 0x8);
  EXPECT_EQ(to_float4e2m1(-0.1).bits, 0x8);  // rounds to -0
  EXPECT_EQ(to_float4e2m1(kNaN).bits, 0x8);  // unspecified; onnx's reference and test data: -0
  EXPECT_EQ(to_float4e2m1(-kNaN).bits, 0x8);
}

TEST(ElementTypes, Float8E8M0RoundModes) {
  auto enc = [](double x, E8M0Rounding r, bool saturate = true) {
    NarrowOptions o;
    o.saturate = saturate;
    o.e8m0_rounding = r;
    return int(to_float8e8m0(x, o).bits);
  };
  using R = E8M0Rounding;
  // 1.1: up → 2 (code 128), down → 1 (127), nearest → 1; 1.5 is the midpoint: nearest goes up.
  EXPECT_EQ(enc(1.1, R::Up), 128);
  EXPECT_EQ(enc(1.1, R::Down), 127);
  EXPECT_EQ(enc(1.1, R::Nearest), 127);
  EXPECT_EQ(enc(1.5, R::Nearest), 128);
  EXPECT_EQ(enc(std::nextafter(1.5, 0.0), R::Nearest), 127);
  EXPECT_EQ(enc(0.124, R::Up), 124);  // 2^-3
  EXPECT_EQ(enc(4.0, R::Up), 129);
  EXPECT_EQ(enc(4.0, R::Down), 129);
  // Cast-24's table: saturate+up and non-saturate+nearest.
  EXPECT_EQ(enc(0.0, R::Up), 0);
  EXPECT_EQ(enc(0.0, R::Nearest, false), 255);
  EXPECT_EQ(enc(kNaN, R::Up), 255);
  EXPECT_EQ(enc(kInf, R::Up), 254);
  EXPECT_EQ(enc(kInf, R::Nearest, false), 255);
  EXPECT_EQ(enc(std::ldexp(1.0, 127), R::Nearest, false), 254);
  EXPECT_EQ(enc(std::ldexp(1.25, 127), R::Up), 254);
  EXPECT_EQ(enc(std::ldexp(1.25, 127), R::Nearest, false), 255);  // x > E8M0_MAX
  EXPECT_EQ(enc(std::ldexp(1.0, -128), R::Up), 0);                // x < E8M0_MIN
  EXPECT_EQ(enc(std::ldexp(1.0, -128), R::Nearest, false), 255);
  EXPECT_EQ(enc(-2.0, R::Up), 128);  // unspecified by ONNX; we convert the magnitude
}

TEST(ElementTypes, Float8E8M0AgreesWithPowerOfTwoSearch) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  std::uniform_int_distribution<int> ex(-127, 126);
  for (int i = 0; i < 5000; ++i) {
    double x = std::ldexp(mant(rng), ex(rng));
    int k = ex.min();
    while (std::ldexp(1.0, k + 1) <= x) ++k;  // 2^k <= x < 2^(k+1)
    double lo = std::ldexp(1.0, k), hi = std::ldexp(1.0, k + 1);
    int up = x == lo ? k : k + 1, down = k, nearest = (x - lo >= hi - x) ? k + 1 : k;
    NarrowOptions o;
    o.e8m0_rounding = E8M0Rounding::Up;
    EXPECT_EQ(to_float8e8m0(x, o).bits, up + 127) << x;
    o.e8m0_rounding = E8M0Rounding::Down;
    EXPECT_EQ(to_float8e8m0(x, o).bits, down + 127) << x;
    o.e8m0_rounding = E8M0Rounding::Nearest;
    EXPECT_EQ(to_float8e8m0(x, o).bits, nearest + 127) << x;
  }
}

TEST(ElementTypes, SmallIntegersRoundToEvenThenKeepLowBits) {
  // From integers: the low bits, two's complement.
  EXPECT_EQ(int4_from_integer(8).v, -8);
  EXPECT_EQ(int4_from_integer(-9).v, 7);
  EXPECT_EQ(int4_from_integer(15).v, -1);
  EXPECT_EQ(int4_from_integer(16).v, 0);
  EXPECT_EQ(uint4_from_integer(-1).v, 15);
  EXPECT_EQ(int2_from_integer(2).v, -2);
  EXPECT_EQ(int2_from_integer(-3).v, 1);
  EXPECT_EQ(uint2_from_integer(4).v, 0);
  EXPECT_EQ(int4_from_integer(std::numeric_limits<int64_t>::min()).v, 0);
  // From doubles: round half to even first.
  EXPECT_EQ(to_int4(2.5).v, 2);
  EXPECT_EQ(to_int4(3.5).v, 4);
  EXPECT_EQ(to_int4(-2.5).v, -2);
  EXPECT_EQ(to_int4(7.5).v, -8);  // 8 → low bits 1000
  EXPECT_EQ(to_int4(-8.5).v, -8);
  EXPECT_EQ(to_uint4(15.5).v, 0);  // 16
  EXPECT_EQ(to_uint4(-0.4).v, 0);
  EXPECT_EQ(to_int2(1.5).v, -2);  // 2
  EXPECT_EQ(to_uint2(2.4999).v, 2);
  EXPECT_EQ(to_int4(kNaN).v, 0);
  EXPECT_EQ(to_int4(-kInf).v, 0);
  EXPECT_EQ(to_int4(1e300).v, 0);  // a multiple of 16
}

// ---------------------------------------------------------------------------------------------
// The Cast and CastLike kernels, called through the operator table.

Tensor run_kernel(const std::string& op, int64_t version, const std::vector<Tensor>& inputs,
                  const std::vector<Attribute>& attrs) {
  const KernelEntry* k = OpRecords::instance().kernel("", op, version);
  if (!k) throw InternalError("no kernel " + op + "-" + std::to_string(version));
  Node node;
  node.op_type = op;
  node.outputs = {"y"};
  node.attributes = attrs;
  std::vector<Value> values(inputs.begin(), inputs.end());
  std::vector<const Value*> ptrs;
  for (const auto& v : values) {
    node.inputs.push_back("x" + std::to_string(ptrs.size()));
    ptrs.push_back(&v);
  }
  OpContext ctx(node, version, ptrs, nullptr, nullptr);
  return k->fn(ctx).at(0).tensor;
}

Tensor cast(int64_t version, const Tensor& x, DType to, std::vector<Attribute> attrs = {}) {
  attrs.push_back(testing::ir_int_attr("to", static_cast<int64_t>(to)));
  return run_kernel("Cast", version, {x}, attrs);
}

template <class S>
std::vector<int> codes(const Tensor& t) {
  std::vector<int> out;
  for (S x : t.values<S>()) out.push_back(small_to_byte(x));
  return out;
}

TEST(ElementTypesCast, KernelsForEveryNewVersion) {
  for (const char* op : {"Cast", "CastLike"})
    for (int64_t v : {19, 21, 23, 24, 25}) {
      const KernelEntry* k = OpRecords::instance().kernel("", op, v);
      ASSERT_NE(k, nullptr) << op << "-" << v;
      EXPECT_EQ(k->since_version, v) << op;
    }
}

TEST(ElementTypesCast, SaturateAttributeAndVersions) {
  auto x = Tensor::from_vector<float>({5}, {0.5f, 1000.0f, static_cast<float>(kInf), static_cast<float>(-kInf), -0.0f});
  EXPECT_EQ(codes<float8e4m3fn_t>(cast(19, x, DType::Float8E4M3FN)), (std::vector<int>{0x30, 0x7E, 0x7E, 0xFE, 0x80}));
  EXPECT_EQ(codes<float8e4m3fn_t>(cast(19, x, DType::Float8E4M3FN, {testing::ir_int_attr("saturate", 0)})),
            (std::vector<int>{0x30, 0x7F, 0x7F, 0xFF, 0x80}));
  EXPECT_EQ(codes<float8e5m2_t>(cast(21, x, DType::Float8E5M2, {testing::ir_int_attr("saturate", 0)})),
            (std::vector<int>{0x38, 0x64, 0x7C, 0xFC, 0x80}));  // 1000 → 1024: 0 11001 00
  // fnuz ±inf under saturation: NaN in 19..23, ±max from 24.
  EXPECT_EQ(codes<float8e4m3fnuz_t>(cast(23, x, DType::Float8E4M3FNUZ)), (std::vector<int>{0x38, 0x7F, 0x80, 0x80, 0x00}));
  EXPECT_EQ(codes<float8e4m3fnuz_t>(cast(24, x, DType::Float8E4M3FNUZ)), (std::vector<int>{0x38, 0x7F, 0x7F, 0xFF, 0x00}));
  // Back to float: exact.
  auto back = cast(19, cast(19, x, DType::Float8E5M2), DType::Float);
  EXPECT_EQ(back.values<float>()[1], 1024.0f);
  EXPECT_EQ(back.values<float>()[2], 57344.0f);
}

TEST(ElementTypesCast, TypesArriveWithTheirVersion) {
  auto x = Tensor::from_vector<float>({1}, {1.0f});
  EXPECT_THROW(cast(13, x, DType::Float8E4M3FN), Trap);  // Cast-13 has no float8
  EXPECT_THROW(cast(19, x, DType::Int4), Trap);
  EXPECT_THROW(cast(21, x, DType::Float4E2M1), Trap);
  EXPECT_THROW(cast(23, x, DType::Float8E8M0), Trap);
  EXPECT_THROW(cast(24, x, DType::UInt2), Trap);
  EXPECT_NO_THROW(cast(25, x, DType::UInt2));
  Tensor f8(DType::Float8E4M3FN, {1});
  EXPECT_THROW(cast(13, f8, DType::Float), Trap);  // nor as input
  EXPECT_THROW(run_kernel("CastLike", 19, {x, Tensor(DType::Int4, {1})}, {}), Trap);
  EXPECT_EQ(run_kernel("CastLike", 21, {x, Tensor(DType::Int4, {1})}, {}).dtype(), DType::Int4);
}

TEST(ElementTypesCast, RoundModeForE8M0) {
  auto x = Tensor::from_vector<double>({3}, {1.1, 3.0, 0.0});
  EXPECT_EQ(codes<float8e8m0_t>(cast(24, x, DType::Float8E8M0)), (std::vector<int>{128, 129, 0}));
  EXPECT_EQ(codes<float8e8m0_t>(cast(24, x, DType::Float8E8M0, {testing::ir_string_attr("round_mode", "down")})),
            (std::vector<int>{127, 128, 0}));
  EXPECT_EQ(codes<float8e8m0_t>(cast(25, x, DType::Float8E8M0,
                                     {testing::ir_string_attr("round_mode", "nearest"), testing::ir_int_attr("saturate", 0)})),
            (std::vector<int>{127, 129, 255}));
  EXPECT_THROW(cast(24, x, DType::Float8E8M0, {testing::ir_string_attr("round_mode", "even")}), Trap);
  auto like = run_kernel("CastLike", 24, {x, Tensor(DType::Float8E8M0, {1})}, {testing::ir_string_attr("round_mode", "down")});
  EXPECT_EQ(codes<float8e8m0_t>(like), (std::vector<int>{127, 128, 0}));
}

TEST(ElementTypesCast, WideIntegersRoundOnce) {
  // 2^63 − 1 is below 2^63: rounded down it is 2^62 (code 127 + 62). Converting it to double
  // first (nearest: 2^63) would give 2^63.
  auto x = Tensor::from_vector<int64_t>({1}, {std::numeric_limits<int64_t>::max()});
  EXPECT_EQ(codes<float8e8m0_t>(cast(24, x, DType::Float8E8M0, {testing::ir_string_attr("round_mode", "down")})),
            (std::vector<int>{189}));
  EXPECT_EQ(codes<float8e8m0_t>(cast(24, x, DType::Float8E8M0)), (std::vector<int>{190}));
  auto u = Tensor::from_vector<uint64_t>({1}, {std::numeric_limits<uint64_t>::max()});
  EXPECT_EQ(codes<float8e8m0_t>(cast(24, u, DType::Float8E8M0, {testing::ir_string_attr("round_mode", "down")})),
            (std::vector<int>{190}));
  auto big = Tensor::from_vector<int64_t>({2}, {std::numeric_limits<int64_t>::min(), 17});
  EXPECT_EQ(codes<int4_t>(cast(21, big, DType::Int4)), (std::vector<int>{0, 1}));
}

TEST(ElementTypesCast, BetweenSmallAndClassicTypes) {
  auto i4 = cast(21, Tensor::from_vector<int32_t>({5}, {-9, -8, 7, 8, 300}), DType::Int4);
  EXPECT_EQ(codes<int4_t>(i4), (std::vector<int>{7, 0xF8, 7, 0xF8, 0xFC}));  // bytes of 7, -8, 7, -8, -4
  EXPECT_EQ(cast(21, i4, DType::Int8).values<int8_t>()[4], -4);
  EXPECT_EQ(cast(21, i4, DType::Float).values<float>()[1], -8.0f);
  auto u4 = cast(21, Tensor::from_vector<float>({4}, {2.5f, 3.5f, 15.5f, -1.0f}), DType::UInt4);
  EXPECT_EQ(codes<uint4_t>(u4), (std::vector<int>{2, 4, 0, 15}));
  // A float8 into an integer truncates and saturates (the float → integer rule); into bool, ≠ 0.
  auto f8 = cast(19, Tensor::from_vector<float>({4}, {448.0f, -2.75f, static_cast<float>(kNaN), -0.0f}), DType::Float8E4M3FN);
  auto i8 = cast(19, f8, DType::Int8);
  EXPECT_EQ(std::vector<int8_t>(i8.values<int8_t>().begin(), i8.values<int8_t>().end()), (std::vector<int8_t>{127, -2, 0, 0}));
  auto b = cast(19, f8, DType::Bool);
  EXPECT_EQ(std::vector<bool>(b.values<bool>().begin(), b.values<bool>().end()), (std::vector<bool>{true, true, true, false}));
  // One small type into another goes through the exact value: e5m2 57344 into e4m3fn saturates.
  auto e5 = cast(19, Tensor::from_vector<float>({1}, {57344.0f}), DType::Float8E5M2);
  EXPECT_EQ(codes<float8e4m3fn_t>(cast(19, e5, DType::Float8E4M3FN)), (std::vector<int>{0x7E}));
  EXPECT_EQ(codes<float4e2m1_t>(cast(23, e5, DType::Float4E2M1)), (std::vector<int>{0x7}));
  // e8m0 into float16: 2^-127 is far below float16's range and rounds to 0; bfloat16 holds it.
  Tensor e8(DType::Float8E8M0, {1});
  EXPECT_EQ(static_cast<float>(cast(24, e8, DType::Float16).values<float16_t>()[0]), 0.0f);
  EXPECT_EQ(static_cast<float>(cast(24, e8, DType::BFloat16).values<bfloat16_t>()[0]), std::ldexp(1.0f, -127));
  // bool into the small types: 0 and 1.
  auto t = Tensor::from_vector<bool>({2}, {true, false});
  EXPECT_EQ(codes<float8e8m0_t>(cast(24, t, DType::Float8E8M0)), (std::vector<int>{127, 0}));
  EXPECT_EQ(codes<int2_t>(cast(25, t, DType::Int2)), (std::vector<int>{1, 0}));
}

TEST(ElementTypesCast, Strings) {
  auto f8 = cast(19, Tensor::from_vector<float>({3}, {0.5f, std::ldexp(1.0f, -9), -448.0f}), DType::Float8E4M3FN);
  auto s = cast(19, f8, DType::String);
  EXPECT_EQ(s.values<std::string>()[0], "0.5");
  EXPECT_EQ(s.values<std::string>()[1], "0.001953125");  // 2^-9, printed exactly
  EXPECT_EQ(s.values<std::string>()[2], "-448.0");
  EXPECT_TRUE(cast(19, s, DType::Float8E4M3FN) == f8);
  Tensor e8(DType::Float8E8M0, {1});  // 2^-127
  EXPECT_TRUE(cast(24, cast(24, e8, DType::String), DType::Float8E8M0) == e8);
  auto strs = Tensor::from_vector<std::string>({3}, {"-3", " 7.5 ", "17"});
  EXPECT_EQ(codes<int4_t>(cast(21, strs, DType::Int4)), (std::vector<int>{0xFD, 0xF8, 1}));
  EXPECT_EQ(cast(21, cast(21, strs, DType::Int4), DType::String).values<std::string>()[0], "-3");
}

// ---------------------------------------------------------------------------------------------
// Serialization: TensorProto packing, int32_data, byte-identical write-back, .npy.

template <class S>
Tensor small_tensor(const Shape& shape, const std::vector<S>& v) {
  return Tensor::from_vector<S>(shape, v);
}

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int x : b) s.push_back(static_cast<char>(x));
  return s;
}

TEST(ElementTypesProto, SubByteTypesPackLowBitsFirst) {
  // int4 [-8, -1, 0, 7, 3]: nibbles 8, F, 0, 7, 3 → bytes F8, 70, 03 (last high nibble padding).
  auto i4 = small_tensor<int4_t>({5}, {{-8}, {-1}, {0}, {7}, {3}});
  EXPECT_EQ(tensor_to_proto(i4).raw_data(), bytes({0xF8, 0x70, 0x03}));
  // uint2 [0, 1, 2, 3, 3]: 0 | 1<<2 | 2<<4 | 3<<6 = E4, then 03.
  auto u2 = small_tensor<uint2_t>({5}, {{0}, {1}, {2}, {3}, {3}});
  EXPECT_EQ(tensor_to_proto(u2).raw_data(), bytes({0xE4, 0x03}));
  // int2 [-2, 1, -1]: fields 10, 01, 11 → 10 | 01<<2 | 11<<4 = 0x36.
  auto i2 = small_tensor<int2_t>({3}, {{-2}, {1}, {-1}});
  EXPECT_EQ(tensor_to_proto(i2).raw_data(), bytes({0x36}));
  // float4 [0.5 (0001), -6 (1111), -0 (1000)] → F1, 08.
  auto f4 = small_tensor<float4e2m1_t>({3}, {{0x1}, {0xF}, {0x8}});
  EXPECT_EQ(tensor_to_proto(f4).raw_data(), bytes({0xF1, 0x08}));
  // float8: one byte each.
  auto f8 = small_tensor<float8e5m2_t>({2}, {{0x7E}, {0x01}});
  EXPECT_EQ(tensor_to_proto(f8).raw_data(), bytes({0x7E, 0x01}));
  for (const Tensor* t : {&i4, &u2, &i2, &f4, &f8}) EXPECT_TRUE(tensor_from_proto(tensor_to_proto(*t)) == *t);
}

TEST(ElementTypesProto, Int32DataHoldsPackedBytes) {
  onnx::TensorProto p;
  p.set_data_type(static_cast<int32_t>(DType::Int4));
  p.add_dims(3);
  p.add_int32_data(0xF8);  // -8, -1
  p.add_int32_data(0x07);  // 7
  EXPECT_TRUE(tensor_from_proto(p) == small_tensor<int4_t>({3}, {{-8}, {-1}, {7}}));
  p.add_int32_data(0x00);  // one value too many: 3 int4 take 2 bytes
  EXPECT_THROW(tensor_from_proto(p), LoadError);

  onnx::TensorProto q;
  q.set_data_type(static_cast<int32_t>(DType::Float8E4M3FN));
  q.add_dims(2);
  q.add_int32_data(0x7E);
  q.add_int32_data(0xFF);
  EXPECT_EQ(codes<float8e4m3fn_t>(tensor_from_proto(q)), (std::vector<int>{0x7E, 0xFF}));
  q.set_int32_data(1, 256);  // not a byte
  EXPECT_THROW(tensor_from_proto(q), LoadError);

  onnx::TensorProto r;  // raw data of the wrong packed size
  r.set_data_type(static_cast<int32_t>(DType::UInt2));
  r.add_dims(5);
  r.set_raw_data(bytes({0xE4}));
  EXPECT_THROW(tensor_from_proto(r), LoadError);
}

TEST(ElementTypesProto, LoadsAndWritesBackByteIdentically) {
  for (int type = 17; type <= 26; ++type) {
    int bits = dtype_bits(static_cast<DType>(type));
    for (int64_t n : {0, 1, 5, 7}) {
      onnx::TensorProto p;
      p.set_name("w");
      p.set_data_type(type);
      p.add_dims(n);
      std::string raw;
      for (size_t i = 0; i < serialized_size(static_cast<DType>(type), n); ++i) raw.push_back(static_cast<char>(0x5A + 37 * i));
      // The padding bits of the last byte are zero, as ONNX writes them.
      if (bits < 8 && (n * bits) % 8 != 0) raw.back() = static_cast<char>(raw.back() & ((1 << ((n * bits) % 8)) - 1));
      p.set_raw_data(raw);
      std::string before = p.SerializeAsString();
      Tensor t = tensor_from_proto(p);
      EXPECT_EQ(t.size(), n);
      EXPECT_EQ(tensor_to_proto(t, "w").SerializeAsString(), before) << dtype_name(static_cast<DType>(type)) << " n=" << n;
    }
  }
}

class ElementTypesFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("sonnx-types-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  fs::path dir_;
};

TEST_F(ElementTypesFiles, NpyRoundTripsEverySmallType) {
  std::vector<Tensor> ts{small_tensor<float8e4m3fn_t>({3}, {{0x00}, {0x7F}, {0xFE}}),
                         small_tensor<float8e4m3fnuz_t>({1}, {{0x80}}),
                         small_tensor<float8e5m2_t>({2, 1}, {{0x7D}, {0xFC}}),
                         small_tensor<float8e5m2fnuz_t>({1}, {{0x01}}),
                         small_tensor<uint4_t>({3}, {{0}, {15}, {9}}),
                         small_tensor<int4_t>({3}, {{-8}, {7}, {-1}}),
                         small_tensor<float4e2m1_t>({1, 3}, {{0xF}, {0x8}, {0x1}}),
                         small_tensor<float8e8m0_t>({}, {{0xFF}}),
                         small_tensor<uint2_t>({5}, {{3}, {0}, {1}, {2}, {3}}),
                         small_tensor<int2_t>({0}, {})};
  for (const Tensor& t : ts) {
    fs::path p = dir_ / (std::string(dtype_name(t.dtype())) + ".npy");
    write_npy(p, t);
    EXPECT_NE(read(p).find("'descr': [('" + std::string(dtype_name(t.dtype())) + "', '"), std::string::npos);
    Tensor back = read_npy(p);
    EXPECT_TRUE(back == t) << dtype_name(t.dtype());
  }
}

TEST_F(ElementTypesFiles, NpyRefusesWhatItCannotRead) {
  auto write_with = [&](const std::string& name, const std::string& descr, const std::string& data) {
    std::string header = "{'descr': " + descr + ", 'fortran_order': False, 'shape': (2,), }";
    header.append(64 - (10 + header.size() + 1) % 64, ' ');
    header += '\n';
    std::string file = std::string("\x93NUMPY\x01\x00", 8);
    file.push_back(static_cast<char>(header.size()));
    file.push_back(0);
    fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << file << header << data;
    return p;
  };
  auto message = [](const fs::path& p) -> std::string {
    try {
      read_npy(p);
    } catch (const LoadError& e) {
      return e.what();
    }
    return "no error";
  };
  // numpy's own file of an ml_dtypes array: "|V1" names no type.
  EXPECT_NE(message(write_with("v1.npy", "'|V1'", bytes({1, 2}))).find("does not say its element type"), std::string::npos);
  // int4 bytes must be sign-extended values in -8..7.
  EXPECT_NE(message(write_with("i4.npy", "[('int4', '|i1')]", bytes({0x08, 0x01}))).find("is not a valid int4 value"),
            std::string::npos);
  EXPECT_THROW(read_npy(write_with("f4.npy", "[('float4e2m1', '|u1')]", bytes({0x10, 0x01}))), LoadError);
  EXPECT_THROW(read_npy(write_with("bad.npy", "[('float8e4m3fn', '|i1')]", bytes({0, 0}))), LoadError);
  EXPECT_THROW(read_npy(write_with("two.npy", "[('a', '|u1'), ('b', '|u1')]", bytes({0, 0}))), LoadError);
  EXPECT_NO_THROW(read_npy(write_with("ok.npy", "[('uint4', '|u1')]", bytes({0x0F, 0x00}))));
}

TEST_F(ElementTypesFiles, ModelOfIrVersion11Loads) {
  onnx::ModelProto m;
  m.set_ir_version(11);
  auto* op = m.add_opset_import();
  op->set_version(23);
  auto* g = m.mutable_graph();
  g->set_name("g");
  *g->add_initializer() = tensor_to_proto(small_tensor<float4e2m1_t>({3}, {{0x1}, {0xF}, {0x8}}), "w");
  auto* in = g->add_input();
  in->set_name("x");
  in->mutable_type()->mutable_tensor_type()->set_elem_type(static_cast<int32_t>(DType::Float8E4M3FN));
  auto* out = g->add_output();
  out->set_name("y");
  out->mutable_type()->mutable_tensor_type()->set_elem_type(static_cast<int32_t>(DType::Int4));
  auto* n = g->add_node();
  n->set_op_type("Cast");
  n->add_input("x");
  n->add_output("y");
  fs::path p = dir_ / "m.onnx";
  std::ofstream(p, std::ios::binary) << m.SerializeAsString();
  auto lm = load_model(p);
  EXPECT_EQ(lm->ir.ir_version, 11);
  EXPECT_EQ(lm->ir.graph.inputs.at(0).type.elem, DType::Float8E4M3FN);
  EXPECT_EQ(lm->ir.graph.outputs.at(0).type.elem, DType::Int4);
  EXPECT_EQ(codes<float4e2m1_t>(lm->ir.graph.initializers.at(0).second), (std::vector<int>{0x1, 0xF, 0x8}));
}

// ---------------------------------------------------------------------------------------------
// dtype basics.

TEST(ElementTypes, NamesSizesAndPredicates) {
  std::vector<std::pair<DType, std::string>> names{{DType::Float8E4M3FN, "float8e4m3fn"},
                                                   {DType::Float8E4M3FNUZ, "float8e4m3fnuz"},
                                                   {DType::Float8E5M2, "float8e5m2"},
                                                   {DType::Float8E5M2FNUZ, "float8e5m2fnuz"},
                                                   {DType::UInt4, "uint4"},
                                                   {DType::Int4, "int4"},
                                                   {DType::Float4E2M1, "float4e2m1"},
                                                   {DType::Float8E8M0, "float8e8m0"},
                                                   {DType::UInt2, "uint2"},
                                                   {DType::Int2, "int2"}};
  for (auto [t, name] : names) {
    EXPECT_EQ(dtype_name(t), name);
    EXPECT_EQ(dtype_from_name(name), t);
    EXPECT_TRUE(is_valid_dtype(static_cast<int32_t>(t)));
    EXPECT_EQ(dtype_size(t), 1u);
    EXPECT_TRUE(is_small_type(t));
    EXPECT_FALSE(is_float(t));  // the classic predicates stay classic
    EXPECT_FALSE(is_integer(t));
  }
  EXPECT_FALSE(is_valid_dtype(27));
  EXPECT_EQ(dtype_bits(DType::Int4), 4);
  EXPECT_EQ(dtype_bits(DType::Float4E2M1), 4);
  EXPECT_EQ(dtype_bits(DType::UInt2), 2);
  EXPECT_EQ(dtype_bits(DType::Float8E8M0), 8);
  EXPECT_EQ(dtype_bits(DType::Float), 32);
  EXPECT_TRUE(is_float8(DType::Float8E8M0));
  EXPECT_FALSE(is_float8(DType::Float4E2M1));
  EXPECT_TRUE(is_small_float(DType::Float4E2M1));
  EXPECT_TRUE(is_sub_byte(DType::Int2));
  EXPECT_FALSE(is_sub_byte(DType::Float8E5M2));
  EXPECT_EQ(serialized_size(DType::Int4, 5), 3u);
  EXPECT_EQ(serialized_size(DType::Int2, 5), 2u);
  // Tensor::as_double and as_int64 read the small types.
  auto t = small_tensor<float8e4m3fn_t>({2}, {{0x30}, {0xBC}});  // 0.5, -1.5
  EXPECT_EQ(t.as_double(1), -1.5);
  EXPECT_EQ(t.as_int64(1), -1);
  EXPECT_EQ(small_tensor<int4_t>({1}, {{-7}}).as_int64(0), -7);
}

}  // namespace
}  // namespace sonnx
