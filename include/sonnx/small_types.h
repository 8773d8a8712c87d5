// The element types ONNX added in IR versions 9–13: float8 e4m3fn, e4m3fnuz, e5m2, e5m2fnuz, e8m0,
// float4 e2m1, and the 4- and 2-bit integers. In memory every element takes one byte (unpacked);
// only TensorProto packs the 4- and 2-bit ones (tensor_proto.cpp). Each type has its own storage
// struct so that Tensor::data<T>() stays type-checked. The one definition of their values and of
// the conversions from double lives here (spec/element_types.md says the same in prose).
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

// Everything this header declares is the library's public API: exported from libsonnx.so, whose
// other symbols are hidden (api/CMakeLists.txt).
#pragma GCC visibility push(default)
namespace sonnx {

// Float bit patterns, in the low bits of the byte (float4: bits 0–3, bits 4–7 are zero).
// clang-format off
struct float8e4m3fn_t { uint8_t bits = 0; bool operator==(const float8e4m3fn_t&) const = default; };
struct float8e4m3fnuz_t { uint8_t bits = 0; bool operator==(const float8e4m3fnuz_t&) const = default; };
struct float8e5m2_t { uint8_t bits = 0; bool operator==(const float8e5m2_t&) const = default; };
struct float8e5m2fnuz_t { uint8_t bits = 0; bool operator==(const float8e5m2fnuz_t&) const = default; };
struct float8e8m0_t { uint8_t bits = 0; bool operator==(const float8e8m0_t&) const = default; };
struct float4e2m1_t { uint8_t bits = 0; bool operator==(const float4e2m1_t&) const = default; };
// Integer values, always in range (a signed value sign-extended over the byte).
struct uint4_t { uint8_t v = 0; bool operator==(const uint4_t&) const = default; };  // 0..15
struct int4_t { int8_t v = 0; bool operator==(const int4_t&) const = default; };     // -8..7
struct uint2_t { uint8_t v = 0; bool operator==(const uint2_t&) const = default; };  // 0..3
struct int2_t { int8_t v = 0; bool operator==(const int2_t&) const = default; };     // -2..1
// clang-format on

template <class T>
inline constexpr bool is_small_float_v = std::is_same_v<T, float8e4m3fn_t> || std::is_same_v<T, float8e4m3fnuz_t> ||
                                         std::is_same_v<T, float8e5m2_t> || std::is_same_v<T, float8e5m2fnuz_t> ||
                                         std::is_same_v<T, float8e8m0_t> || std::is_same_v<T, float4e2m1_t>;
template <class T>
inline constexpr bool is_small_int_v = std::is_same_v<T, uint4_t> || std::is_same_v<T, int4_t> || std::is_same_v<T, uint2_t> ||
                                       std::is_same_v<T, int2_t>;
template <class T>
inline constexpr bool is_small_type_v = is_small_float_v<T> || is_small_int_v<T>;

// How a conversion into a small float treats what it cannot represent (Cast-19..25 attributes).
enum class E8M0Rounding { Up, Down, Nearest };  // Cast-24 round_mode "up" / "down" / "nearest"
struct NarrowOptions {
  // Cast's `saturate`: out-of-range values (and ±inf) become ±max instead of NaN/inf. Applies to
  // the float8 kinds and e8m0; float4e2m1 always saturates (it has no NaN or inf).
  bool saturate = true;
  // Under saturation, ±inf into e4m3fnuz/e5m2fnuz gives ±max from Cast-24 on, NaN before (19–23).
  bool fnuz_inf_to_max = true;
  E8M0Rounding e8m0_rounding = E8M0Rounding::Up;
};

// Exact values (every small float value is a double; NaN keeps its sign and, for e5m2, its payload
// in the top mantissa bits, so that converting back gives the same bits).
double small_to_double(float8e4m3fn_t x);
double small_to_double(float8e4m3fnuz_t x);
double small_to_double(float8e5m2_t x);
double small_to_double(float8e5m2fnuz_t x);
double small_to_double(float8e8m0_t x);
double small_to_double(float4e2m1_t x);
inline double small_to_double(uint4_t x) { return x.v; }
inline double small_to_double(int4_t x) { return x.v; }
inline double small_to_double(uint2_t x) { return x.v; }
inline double small_to_double(int2_t x) { return x.v; }

// A double rounded once into a small float: round to nearest even (e8m0: as options say), then
// the special cases of Cast's tables (spec/element_types.md).
float8e4m3fn_t to_float8e4m3fn(double d, const NarrowOptions& o = {});
float8e4m3fnuz_t to_float8e4m3fnuz(double d, const NarrowOptions& o = {});
float8e5m2_t to_float8e5m2(double d, const NarrowOptions& o = {});
float8e5m2fnuz_t to_float8e5m2fnuz(double d, const NarrowOptions& o = {});
float8e8m0_t to_float8e8m0(double d, const NarrowOptions& o = {});
float4e2m1_t to_float4e2m1(double d);

// Integers into 2 or 4 bits keep the low bits (two's complement), as every integer → integer
// cast does.
inline uint4_t uint4_from_integer(int64_t v) { return {static_cast<uint8_t>(static_cast<uint64_t>(v) & 0xFu)}; }
inline int4_t int4_from_integer(int64_t v) {
  auto low = static_cast<int>(static_cast<uint64_t>(v) & 0xFu);
  return {static_cast<int8_t>(low >= 8 ? low - 16 : low)};
}
inline uint2_t uint2_from_integer(int64_t v) { return {static_cast<uint8_t>(static_cast<uint64_t>(v) & 0x3u)}; }
inline int2_t int2_from_integer(int64_t v) {
  auto low = static_cast<int>(static_cast<uint64_t>(v) & 0x3u);
  return {static_cast<int8_t>(low >= 2 ? low - 4 : low)};
}
// A double into 2 or 4 bits: rounded to the nearest integer (ties to even), then its low bits
// (ONNX's int4/int2 notes: "rounding to nearest-even and truncating"); NaN and ±inf give 0.
int64_t small_int_residue(double d, int bits);  // round-half-even(d) mod 2^bits, in [0, 2^bits)
inline uint4_t to_uint4(double d) { return uint4_from_integer(small_int_residue(d, 4)); }
inline int4_t to_int4(double d) { return int4_from_integer(small_int_residue(d, 4)); }
inline uint2_t to_uint2(double d) { return uint2_from_integer(small_int_residue(d, 2)); }
inline int2_t to_int2(double d) { return int2_from_integer(small_int_residue(d, 2)); }

// Generic spellings of the above for templates: small_from_double<T>(d, options).
template <class T>
T small_from_double(double d, const NarrowOptions& o = {}) {
  static_assert(is_small_type_v<T>, "small_from_double is for the small element types");
  if constexpr (std::is_same_v<T, float8e4m3fn_t>) return to_float8e4m3fn(d, o);
  else if constexpr (std::is_same_v<T, float8e4m3fnuz_t>) return to_float8e4m3fnuz(d, o);
  else if constexpr (std::is_same_v<T, float8e5m2_t>) return to_float8e5m2(d, o);
  else if constexpr (std::is_same_v<T, float8e5m2fnuz_t>) return to_float8e5m2fnuz(d, o);
  else if constexpr (std::is_same_v<T, float8e8m0_t>) return to_float8e8m0(d, o);
  else if constexpr (std::is_same_v<T, float4e2m1_t>) return to_float4e2m1(d);
  else if constexpr (std::is_same_v<T, uint4_t>) return to_uint4(d);
  else if constexpr (std::is_same_v<T, int4_t>) return to_int4(d);
  else if constexpr (std::is_same_v<T, uint2_t>) return to_uint2(d);
  else return to_int2(d);
}
template <class T>
T small_int_from_integer(int64_t v) {
  static_assert(is_small_int_v<T>, "small_int_from_integer is for the 2- and 4-bit integers");
  if constexpr (std::is_same_v<T, uint4_t>) return uint4_from_integer(v);
  else if constexpr (std::is_same_v<T, int4_t>) return int4_from_integer(v);
  else if constexpr (std::is_same_v<T, uint2_t>) return uint2_from_integer(v);
  else return int2_from_integer(v);
}

// The stored byte of a small type (the float's bits, the integer's two's complement).
template <class T>
uint8_t small_to_byte(T x) {
  if constexpr (is_small_float_v<T>) return x.bits;
  else return static_cast<uint8_t>(x.v);
}

}  // namespace sonnx
#pragma GCC visibility pop
