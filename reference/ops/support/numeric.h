// The numeric core of the operator kernels: element-type traits, the one conversion from the
// double accumulator to a narrower type (rounded exactly once), saturating float → integer
// conversion, wrapping integer arithmetic and element counts. Every kernel and every other
// support header takes these from here; nothing else may define its own copy.
#pragma once
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "sonnx/float16.h"
#include "reference/model/rounding.h"
#include "sonnx/tensor.h"

namespace sonnx::support {

// ---------------------------------------------------------------------------------------------
// Element-type traits.

template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, float16_t> || std::is_same_v<T, bfloat16_t>;
template <class T>
inline constexpr bool is_complex_v = std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;
// Floating types including the 16-bit ones.
template <class T>
inline constexpr bool is_floating_v = std::is_floating_point_v<T> || is_half_v<T>;
// Real numbers we can do arithmetic on (all ints, bool excluded, floats incl. 16-bit).
template <class T>
inline constexpr bool is_real_number_v = (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) || is_half_v<T>;

// The type arithmetic happens in: float for the 16-bit floats, the type itself otherwise.
template <class T>
using compute_t = std::conditional_t<is_half_v<T>, float, T>;

// ---------------------------------------------------------------------------------------------
// Rounding from double, exactly once.

// double → float rounded to odd: truncate toward zero, and if anything was lost set the last
// mantissa bit. Rounding that float to nearest-even into a format with at most 22 mantissa bits
// (float16: 10, bfloat16: 7) gives the correctly rounded result of the original double, so the
// two steps together round once. NaN and ±inf pass through; a finite value beyond the float range
// truncates to ±FLT_MAX (whose last bit is already odd).
inline float float_round_to_odd(double d) {
  if (std::isnan(d) || std::isinf(d)) return static_cast<float>(d);
  float f = static_cast<float>(d);  // nearest (±inf on overflow)
  if (std::isinf(f)) return std::copysign(std::numeric_limits<float>::max(), f);
  if (static_cast<double>(f) == d) return f;
  if (std::fabs(static_cast<double>(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);  // truncated
  return std::bit_cast<float>(std::bit_cast<uint32_t>(f) | 1u);
}

// A double rounded to nearest-even into the floating storage type T, in one rounding.
template <class T>
inline T round_from_double(double d) {
  static_assert(is_floating_v<T>, "round_from_double is for floating types");
  if constexpr (std::is_same_v<T, double>) return d;
  else if constexpr (std::is_same_v<T, float>) return static_cast<float>(d);
  else return T(float_round_to_odd(d));
}

// A value of the computation (compute_t<T>, or double when a kernel accumulates in double)
// converted to storage type T. Into float16/bfloat16 from double it rounds once (never
// double → float → half); from float it is the one rounding float → half.
template <class T, class C>
inline T to_storage(C v) {
  if constexpr (is_half_v<T> && std::is_same_v<C, double>) return round_from_double<T>(v);
  else if constexpr (is_half_v<T>) return T(static_cast<float>(v));
  else return static_cast<T>(v);
}

// An element as double: exact for every floating type (the small ones of small_types.h too) and
// for integers up to 2^53.
template <class T>
inline double to_double(T v) {
  if constexpr (is_half_v<T>) return static_cast<double>(static_cast<float>(v));
  else if constexpr (is_small_type_v<T>) return small_to_double(v);
  else return static_cast<double>(v);
}

// An integer as double rounded to odd (truncated to 53 significant bits, the last set when bits were
// lost): exact up to 2^53, and rounding it once more to any format of at most 51 significant bits
// gives the correctly rounded result of the integer itself (no double rounding).
template <class I>
inline double integer_to_double_round_odd(I v) {
  static_assert(std::is_integral_v<I>, "integer_to_double_round_odd is for integers");
  bool negative = false;
  uint64_t magnitude = static_cast<uint64_t>(v);
  if constexpr (std::is_signed_v<I>) {
    negative = v < 0;
    if (negative) magnitude = uint64_t{0} - magnitude;  // also right for the minimum value
  }
  int length = 64 - std::countl_zero(magnitude);
  int shift = length > 53 ? length - 53 : 0;
  uint64_t kept = magnitude >> shift;
  if (shift > 0 && (magnitude & ((uint64_t{1} << shift) - 1)) != 0) kept |= 1;
  double d = std::ldexp(static_cast<double>(kept), shift);
  return negative ? -d : d;
}

// ---------------------------------------------------------------------------------------------
// double → integer without undefined behaviour: truncates toward zero, saturates at the limits of
// To, NaN → 0 (the rule Cast follows here).
template <class To>
inline To saturating_cast(double v) {
  static_assert(std::is_integral_v<To>, "saturating_cast is for integer types");
  if (std::isnan(v)) return To(0);
  if (v <= static_cast<double>(std::numeric_limits<To>::lowest())) return std::numeric_limits<To>::lowest();
  if (v >= static_cast<double>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
  return static_cast<To>(v);
}

// ---------------------------------------------------------------------------------------------
// Wrapping integer arithmetic (two's complement) without C++ undefined behaviour: computed in an
// unsigned type at least as wide as `unsigned int`, so that small types do not promote to int.

template <class T>
using wide_unsigned_t = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

template <class T>
inline T wrap_add(T a, T b) {
  using U = wide_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <class T>
inline T wrap_sub(T a, T b) {
  using U = wide_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
}
template <class T>
inline T wrap_mul(T a, T b) {
  using U = wide_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
}
template <class T>
inline T wrap_neg(T a) {
  return wrap_sub<T>(T(0), a);
}

// ---------------------------------------------------------------------------------------------
// Element counts and integer sizes.

// The number of elements of dims [from, to) of `shape` (to is clamped to the rank). Traps, as
// shape_size does, when the product does not fit: a zero-sized tensor may have other huge dims.
inline int64_t element_count(const Shape& shape, size_t from = 0, size_t to = SIZE_MAX) {
  if (to > shape.size()) to = shape.size();
  if (from >= to) return 1;
  return shape_size(Shape(shape.begin() + static_cast<std::ptrdiff_t>(from), shape.begin() + static_cast<std::ptrdiff_t>(to)));
}

// Integer division rounding toward −∞ / +∞ (b > 0).
inline int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}
inline int64_t ceil_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a > 0) ? q + 1 : q;
}

}  // namespace sonnx::support
