#include "sonnx/small_types.h"

#include "rounding.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace sonnx {

namespace {

// The four float8 kinds and float4e2m1 differ only in field widths, bias and what the top codes mean.
enum class Specials {
  IEEE,    // e5m2: exponent all ones is ±inf (mantissa 0) or NaN
  FN,      // e4m3fn: no inf; S.1111.111 is NaN, the rest of exponent 1111 are numbers
  FNUZ,    // e4m3fnuz, e5m2fnuz: no inf, no -0; 0x80 is the one NaN, every other code a number
  Finite,  // float4e2m1: every code is a number
};
struct Format {
  int exp_bits;
  int man_bits;
  int bias;
  Specials specials;

  int sign_shift() const { return exp_bits + man_bits; }
  uint32_t exp_all_ones() const { return (1u << exp_bits) - 1; }
  uint32_t man_all_ones() const { return (1u << man_bits) - 1; }
  // The largest finite magnitude's exponent field and mantissa field.
  uint32_t max_exp_field() const { return specials == Specials::IEEE ? exp_all_ones() - 1 : exp_all_ones(); }
  uint32_t max_man_field() const { return specials == Specials::FN ? man_all_ones() - 1 : man_all_ones(); }
  double max_value() const {
    return std::ldexp(static_cast<double>((1u << man_bits) + max_man_field()),
                      static_cast<int>(max_exp_field()) - bias - man_bits);
  }
  int min_normal_exp() const { return 1 - bias; }
};

constexpr Format kE4M3FN{4, 3, 7, Specials::FN};
constexpr Format kE4M3FNUZ{4, 3, 8, Specials::FNUZ};
constexpr Format kE5M2{5, 2, 15, Specials::IEEE};
constexpr Format kE5M2FNUZ{5, 2, 16, Specials::FNUZ};
constexpr Format kE2M1{2, 1, 1, Specials::Finite};

double quiet_nan(bool negative) {
  double n = std::numeric_limits<double>::quiet_NaN();
  return negative ? -n : n;
}

double decode(const Format& f, uint32_t bits) {
  bool negative = (bits >> f.sign_shift()) & 1u;
  uint32_t e = (bits >> f.man_bits) & f.exp_all_ones();
  uint32_t m = bits & f.man_all_ones();
  if (f.specials == Specials::FNUZ && bits == (1u << f.sign_shift())) return quiet_nan(true);  // its sign bit is set
  if (f.specials == Specials::FN && e == f.exp_all_ones() && m == f.man_all_ones()) return quiet_nan(negative);
  if (f.specials == Specials::IEEE && e == f.exp_all_ones()) {
    if (m == 0) return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    // Keep the payload in the top mantissa bits of the double, where encode() looks for it.
    uint64_t d = (negative ? (uint64_t{1} << 63) : 0) | (uint64_t{0x7ff} << 52) |
                 (static_cast<uint64_t>(m) << (52 - f.man_bits));
    return std::bit_cast<double>(d);
  }
  double magnitude = e == 0 ? std::ldexp(static_cast<double>(m), f.min_normal_exp() - f.man_bits)
                            : std::ldexp(static_cast<double>((1u << f.man_bits) + m), static_cast<int>(e) - f.bias - f.man_bits);
  return negative ? -magnitude : magnitude;
}

// |d| (finite, > 0) rounded to nearest even at the format's precision, with no upper exponent
// limit (the "[x]" of Cast's tables) but the format's subnormal spacing below its smallest normal.
double round_to_precision(const Format& f, double a) {
  int quantum = std::max(std::ilogb(a), f.min_normal_exp()) - f.man_bits;
  return std::ldexp(round_half_even(std::ldexp(a, -quantum)), quantum);  // both scalings are exact
}

// Bits of a finite magnitude the format represents exactly (0 <= a <= max).
uint32_t encode_magnitude(const Format& f, double a) {
  if (a == 0) return 0;
  int ex = std::ilogb(a);
  if (ex < f.min_normal_exp()) return static_cast<uint32_t>(std::ldexp(a, f.man_bits - f.min_normal_exp()));  // subnormal
  auto m = static_cast<uint32_t>(std::ldexp(a, f.man_bits - ex)) - (1u << f.man_bits);
  return (static_cast<uint32_t>(ex + f.bias) << f.man_bits) | m;
}

uint32_t encode(const Format& f, double d, const NarrowOptions& o) {
  bool negative = std::signbit(d);
  uint32_t sign = negative ? (1u << f.sign_shift()) : 0u;
  uint32_t fnuz_nan = 1u << f.sign_shift();
  uint32_t max_bits = (f.max_exp_field() << f.man_bits) | f.max_man_field();
  uint32_t inf_bits = f.exp_all_ones() << f.man_bits;                     // IEEE only
  uint32_t fn_nan = (f.exp_all_ones() << f.man_bits) | f.man_all_ones();  // FN only
  bool saturate = o.saturate || f.specials == Specials::Finite;

  if (std::isnan(d)) {
    switch (f.specials) {
      case Specials::IEEE: {
        // The double's top mantissa bits become the payload; a payload that would vanish is quieted.
        auto payload = static_cast<uint32_t>((std::bit_cast<uint64_t>(d) >> (52 - f.man_bits)) & f.man_all_ones());
        return sign | inf_bits | (payload ? payload : (1u << (f.man_bits - 1)));
      }
      case Specials::FN: return sign | fn_nan;
      case Specials::FNUZ: return fnuz_nan;
      // float4 has no NaN and ONNX leaves the result unspecified: its float4 note says +6, its
      // reference implementation and backend test data give −0 (as its float6 note records). We
      // follow the reference, so that onnx's own tests pass.
      case Specials::Finite: return 1u << f.sign_shift();
    }
  }
  // Overflow: ±inf, or a finite value whose rounding exceeds the largest finite value.
  auto overflow = [&](bool is_inf) -> uint32_t {
    switch (f.specials) {
      case Specials::IEEE: return sign | (saturate ? max_bits : inf_bits);
      case Specials::FN: return sign | (saturate ? max_bits : fn_nan);
      case Specials::FNUZ: return saturate && (!is_inf || o.fnuz_inf_to_max) ? (sign | max_bits) : fnuz_nan;
      case Specials::Finite: return sign | max_bits;
    }
    return fnuz_nan;
  };
  if (std::isinf(d)) return overflow(true);
  double rounded = d == 0 ? 0.0 : round_to_precision(f, std::fabs(d));
  if (rounded > f.max_value()) return overflow(false);
  if (rounded == 0 && f.specials == Specials::FNUZ) return 0;  // no -0: it would be the NaN
  return sign | encode_magnitude(f, rounded);
}

}  // namespace

double small_to_double(float8e4m3fn_t x) { return decode(kE4M3FN, x.bits); }
double small_to_double(float8e4m3fnuz_t x) { return decode(kE4M3FNUZ, x.bits); }
double small_to_double(float8e5m2_t x) { return decode(kE5M2, x.bits); }
double small_to_double(float8e5m2fnuz_t x) { return decode(kE5M2FNUZ, x.bits); }
double small_to_double(float4e2m1_t x) { return decode(kE2M1, x.bits & 0xFu); }
double small_to_double(float8e8m0_t x) {
  if (x.bits == 0xFF) return quiet_nan(false);
  return std::ldexp(1.0, static_cast<int>(x.bits) - 127);
}

float8e4m3fn_t to_float8e4m3fn(double d, const NarrowOptions& o) { return {static_cast<uint8_t>(encode(kE4M3FN, d, o))}; }
float8e4m3fnuz_t to_float8e4m3fnuz(double d, const NarrowOptions& o) { return {static_cast<uint8_t>(encode(kE4M3FNUZ, d, o))}; }
float8e5m2_t to_float8e5m2(double d, const NarrowOptions& o) { return {static_cast<uint8_t>(encode(kE5M2, d, o))}; }
float8e5m2fnuz_t to_float8e5m2fnuz(double d, const NarrowOptions& o) { return {static_cast<uint8_t>(encode(kE5M2FNUZ, d, o))}; }
float4e2m1_t to_float4e2m1(double d) { return {static_cast<uint8_t>(encode(kE2M1, d, NarrowOptions{}))}; }

// e8m0 holds 2^(bits − 127) for bits 0..254 and NaN as 0xFF: no sign, no zero, no inf. Cast-24's
// table is stated on x itself (not on the rounded value): x outside [2^−127, 2^127] (0 included)
// gives the nearest end when saturating, else NaN; inside, round_mode picks the power of two. The
// sign is not representable: a negative x (unspecified by ONNX) is converted by its magnitude.
float8e8m0_t to_float8e8m0(double d, const NarrowOptions& o) {
  constexpr uint8_t kNaN = 0xFF, kMax = 0xFE, kMin = 0x00;
  if (std::isnan(d)) return {kNaN};
  double a = std::fabs(d);
  if (a > std::ldexp(1.0, 127)) return {o.saturate ? kMax : kNaN};   // inf included
  if (a < std::ldexp(1.0, -127)) return {o.saturate ? kMin : kNaN};  // 0 included
  int ex = std::ilogb(a);
  double fraction = std::ldexp(a, -ex);  // in [1, 2), exact
  switch (o.e8m0_rounding) {
    case E8M0Rounding::Up: ex += fraction > 1.0; break;
    case E8M0Rounding::Down: break;
    case E8M0Rounding::Nearest: ex += fraction >= 1.5; break;  // the midpoint 1.5·2^ex goes up
  }
  return {static_cast<uint8_t>(ex + 127)};  // ex ≤ 127 here: a ≤ 2^127 rounds to at most 2^127
}

int64_t small_int_residue(double d, int bits) {
  if (!std::isfinite(d)) return 0;
  double modulus = std::ldexp(1.0, bits);
  double r = std::fmod(round_half_even(d), modulus);  // exact
  if (r < 0) r += modulus;
  return static_cast<int64_t>(r);
}

}  // namespace sonnx
