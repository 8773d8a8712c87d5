// IEEE binary16 and bfloat16 storage types. Arithmetic happens in float; results are rounded back to
// the storage type with round-to-nearest-even, as the ONNX spec requires for these element types.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>

// Everything this header declares is the library's public API: exported from libsonnx.so, whose
// other symbols are hidden (api/CMakeLists.txt).
#pragma GCC visibility push(default)
namespace sonnx {

struct float16_t {
  uint16_t bits = 0;
  float16_t() = default;
  explicit float16_t(float f) : bits(from_float(f)) {}
  operator float() const { return to_float(bits); }

  static uint16_t from_float(float f) {
    uint32_t x = std::bit_cast<uint32_t>(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t mag = x & 0x7fffffffu;
    if (mag >= 0x7f800000u) {  // Inf or NaN (keep NaN quiet and non-zero)
      return static_cast<uint16_t>(sign | 0x7c00u | (mag > 0x7f800000u ? 0x200u : 0u));
    }
    if (mag >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to Inf
    if (mag < 0x33000001u) return static_cast<uint16_t>(sign);             // rounds to ±0
    int exp = static_cast<int>(mag >> 23) - 127;
    uint32_t mant = (mag & 0x7fffffu) | 0x800000u;
    int shift;  // how many mantissa bits to drop
    uint32_t base;
    if (exp < -14) {  // subnormal half
      shift = -exp - 14 + 13;
      base = 0;
    } else {
      shift = 13;
      base = static_cast<uint32_t>(exp + 15) << 10;
      mant &= 0x7fffffu;
    }
    uint32_t kept = mant >> shift;
    uint32_t rest = mant & ((1u << shift) - 1);
    uint32_t half = 1u << (shift - 1);
    uint32_t r = base + kept;
    if (rest > half || (rest == half && (kept & 1u))) ++r;  // carries into the exponent correctly
    return static_cast<uint16_t>(sign | r);
  }
  static float to_float(uint16_t h) {
    uint32_t sign = (h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    if (exp == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
    if (exp == 0) {
      float v = std::ldexp(static_cast<float>(mant), -24);
      return sign ? -v : v;
    }
    return std::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
  }
};

struct bfloat16_t {
  uint16_t bits = 0;
  bfloat16_t() = default;
  explicit bfloat16_t(float f) : bits(from_float(f)) {}
  operator float() const { return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16); }

  static uint16_t from_float(float f) {
    uint32_t x = std::bit_cast<uint32_t>(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // NaN
    uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
    return static_cast<uint16_t>((x + rounding) >> 16);
  }
};

}  // namespace sonnx
#pragma GCC visibility pop
