// Helpers shared by the elementwise operator kernels of group "a" (arithmetic, math functions,
// activations, comparisons, logic, Cast). Header-only; everything is inline.
#pragma once
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "kernel_util.h"

namespace sonnx::ops_a {

// ---------------------------------------------------------------------------------------------
// Correct rounding from double to a floating storage type.

// Rounds a double to float with "round to odd": truncate toward zero, then set the last mantissa
// bit when the result is inexact. A float rounded to odd and then rounded to nearest-even into a
// narrower format (float16: 11 bits, bfloat16: 8 bits, both ≤ 24 - 2) gives the same result as
// rounding the double directly, which avoids double-rounding errors.
inline float double_to_float_round_to_odd(double d) {
  if (std::isnan(d)) return static_cast<float>(d);
  float f = static_cast<float>(d);  // round to nearest even (may overflow to ±inf)
  if (static_cast<double>(f) == d) return f;
  if (std::isinf(f)) {
    // |d| lies beyond FLT_MAX: truncating gives ±FLT_MAX, whose last bit is already 1 (odd).
    return std::copysign(std::numeric_limits<float>::max(), f);
  }
  if (std::fabs(static_cast<double>(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);  // truncate
  uint32_t bits = std::bit_cast<uint32_t>(f) | 1u;
  return std::bit_cast<float>(bits);
}

// Rounds a double to the floating storage type T (float16, bfloat16, float, double) to nearest even.
template <class T>
inline T round_from_double(double d) {
  if constexpr (is_half_v<T>) return T(double_to_float_round_to_odd(d));
  else return static_cast<T>(d);
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
// Float → integer conversion without UB: truncates toward zero, saturates, NaN → 0 (the same rule
// cast_tensor applies).
template <class To>
inline To saturating_from_double(double v) {
  if (std::isnan(v)) return To(0);
  if (v <= static_cast<double>(std::numeric_limits<To>::lowest())) return std::numeric_limits<To>::lowest();
  if (v >= static_cast<double>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
  return static_cast<To>(v);
}

// ---------------------------------------------------------------------------------------------
// Dispatch

// Real numbers and bool (for comparisons and Equal).
template <class F>
decltype(auto) visit_real_or_bool(const OpContext& ctx, DType type, F&& f) {
  if (type == DType::Bool) return f.template operator()<bool>();
  return visit_real(ctx, type, std::forward<F>(f));
}

inline void require_same_type(const OpContext& ctx, const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype())
    ctx.fail("inputs have different element types (" + std::string(dtype_name(a.dtype())) + " and " +
             std::string(dtype_name(b.dtype())) + ")");
}

inline void require_type(const OpContext& ctx, const Tensor& t, DType type, const char* what) {
  if (t.dtype() != type)
    ctx.fail(std::string(what) + " must be " + std::string(dtype_name(type)) + ", got " + std::string(dtype_name(t.dtype())));
}

// ---------------------------------------------------------------------------------------------
// Unary floating-point math: the function is evaluated in double for every floating type and the
// result rounded once to the storage type.
template <class F>
Tensor float_unary(const OpContext& ctx, const Tensor& x, F f) {
  return visit_float(ctx, x.dtype(), [&]<class T>() {
    return unary_elementwise<T, T>(x, [&](T v) { return round_from_double<T>(f(static_cast<double>(static_cast<compute_t<T>>(v)))); });
  });
}

// ---------------------------------------------------------------------------------------------
// Binary operators with the legacy (≤ 6) / multidirectional (≥ 7) broadcasting split.

// Before opset 7 the binary arithmetic and logic operators broadcast B to A only with broadcast=1
// (legacy_broadcast); from 7 on both broadcast multidirectionally. `compute(ctx, a, b)` does the
// multidirectional elementwise work; with legacy broadcasting B already has A's shape.
template <Tensor (*compute)(OpContext&, const Tensor&, const Tensor&)>
std::vector<Value> binary_legacy(OpContext& ctx) {
  const Tensor& a = ctx.input(0);
  Tensor b = legacy_broadcast(ctx, a, ctx.input(1));
  return one(compute(ctx, a, b));
}
template <Tensor (*compute)(OpContext&, const Tensor&, const Tensor&)>
std::vector<Value> binary_multidirectional(OpContext& ctx) {
  return one(compute(ctx, ctx.input(0), ctx.input(1)));
}

// Comparison producing bool with multidirectional broadcasting; `cmp(x, y)` gets both operands
// in their compute type (float for float16/bfloat16).
template <class Cmp>
Tensor compare_elementwise(OpContext& ctx, const Tensor& a, const Tensor& b, Cmp cmp) {
  require_same_type(ctx, a, b);
  return visit_real_or_bool(ctx, a.dtype(), [&]<class T>() {
    return binary_elementwise<T, bool>(ctx, a, b, [&](T x, T y) {
      return static_cast<bool>(cmp(static_cast<compute_t<T>>(x), static_cast<compute_t<T>>(y)));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Variadic elementwise operators (Max, Min, Sum, Mean).

// The inputs of a variadic operator; traps when there are none or their types differ. Before
// opset 8 all inputs must have the same shape; from 8 on they broadcast multidirectionally.
inline std::vector<const Tensor*> variadic_inputs(OpContext& ctx, bool broadcast, Shape& out_shape) {
  std::vector<const Tensor*> ins;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.has_input(i)) ctx.fail("input " + std::to_string(i) + " is missing");
    ins.push_back(&ctx.input(i));
  }
  if (ins.empty()) ctx.fail("needs at least one input");
  std::vector<Shape> shapes;
  for (const Tensor* t : ins) {
    require_same_type(ctx, *ins[0], *t);
    if (!broadcast && t->shape() != ins[0]->shape())
      ctx.fail("all inputs must have the same shape before opset 8 (" + shape_str(ins[0]->shape()) + " vs " +
               shape_str(t->shape()) + ")");
    shapes.push_back(t->shape());
  }
  out_shape = broadcast_shapes(ctx, shapes);
  return ins;
}

// Folds the inputs elementwise: acc = first input's element (in compute type), then
// acc = step(acc, next) for each further input, then out = finish(acc).
template <class T, class Step, class Finish>
Tensor variadic_fold(const std::vector<const Tensor*>& ins, const Shape& out_shape, Step step, Finish finish) {
  using C = compute_t<T>;
  Tensor out(dtype_of<T>(), out_shape);
  std::vector<C> acc(static_cast<size_t>(out.size()));
  for (size_t k = 0; k < ins.size(); ++k) {
    auto map = broadcast_index_map(ins[k]->shape(), out_shape);
    const T* p = ins[k]->data<T>();
    for (size_t i = 0; i < acc.size(); ++i) {
      C v = static_cast<C>(p[map[i]]);
      acc[i] = k == 0 ? v : step(acc[i], v);
    }
  }
  T* o = out.data<T>();
  for (size_t i = 0; i < acc.size(); ++i) o[i] = finish(acc[i]);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Cast (used by Cast and CastLike).
//
// Numbers → numbers: integer → integer keeps the low bits (two's complement), float → integer
// truncates toward zero and saturates (NaN → 0), anything → bool is "≠ 0", bool → number is 0/1,
// and conversions into a floating type round to nearest even with a single rounding (into
// float16/bfloat16 from double or wide integers through round-to-odd, see above; int64/uint64
// values beyond 2^53 are first rounded to double).
// Numbers → string: integers in decimal; bool as "1"/"0"; floats as the shortest decimal that
// reads back to the same value, plain ("314.15926", "1.0") for 1e-4 <= |x| < 1e16 and scientific
// ("1e-05", "1.5e+16") outside, as Python prints floats; NaN, +inf and -inf as "NaN", "INF", "-INF".
// String → numbers: leading and trailing blanks are ignored, an initial '+' is accepted; floats
// read plain and scientific notation and, case-insensitively, "INF", "+INF", "-INF", "NaN" (and
// "infinity"); integers read a decimal integer (kept modulo 2^bits like an int64 → int cast) or
// else a float truncated toward zero and saturated ("100.5" → 100); bool reads "true"/"false"
// (any case) or a number (≠ 0 is true). Any other string traps.

namespace cast_detail {

// Formats a float or double in the style described above.
template <class F>
std::string format_real(F v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "INF" : "-INF";
  F a = std::fabs(v);
  bool plain = a == F(0) || (a >= F(1e-4) && a < F(1e16));
  char buf[128];
  auto r = std::to_chars(buf, buf + sizeof buf, v, plain ? std::chars_format::fixed : std::chars_format::scientific);
  std::string s(buf, r.ptr);  // shortest digits that read back to v
  if (plain && s.find('.') == std::string::npos) s += ".0";
  return s;
}

// float16/bfloat16: the shortest decimal that reads back to the same 16-bit value.
template <class H>
std::string format_half(H h) {
  float f = static_cast<float>(h);
  if (!std::isfinite(f)) return format_real(f);
  for (int digits = 1; digits <= 9; ++digits) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, static_cast<double>(f), std::chars_format::scientific, digits - 1);
    double d = 0;
    std::from_chars(buf, r.ptr, d);
    if (round_from_double<H>(d).bits == h.bits) return format_real(d);
  }
  return format_real(f);  // not reached: 9 digits always read back to the same float
}

template <class T>
std::string to_string_value(T v) {
  if constexpr (std::is_same_v<T, bool>) return v ? "1" : "0";
  else if constexpr (is_half_v<T>) return format_half(v);
  else if constexpr (std::is_floating_point_v<T>) return format_real(v);
  else return std::to_string(v);
}

inline std::string_view trim(std::string_view s) {
  const char* blanks = " \t\n\r\f\v";
  size_t b = s.find_first_not_of(blanks);
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(blanks);
  return s.substr(b, e - b + 1);
}

// Reads a whole string as a float or double; false when it is not a number.
template <class F>
bool parse_real(std::string_view s, F& out) {
  s = trim(s);
  if (!s.empty() && s[0] == '+') {
    s.remove_prefix(1);  // from_chars does not take '+'
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) return false;
  }
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, out, std::chars_format::general);
  if (ptr != end) return false;
  if (ec == std::errc::result_out_of_range) {
    // Too large (→ ±inf) or too small (→ ±0 or subnormal): strtod/strtof round it as IEEE says.
    std::string z(s);
    if constexpr (std::is_same_v<F, float>) out = std::strtof(z.c_str(), nullptr);
    else out = std::strtod(z.c_str(), nullptr);
    return true;
  }
  return ec == std::errc();
}

inline bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

template <class T>
T from_string_value(const OpContext& ctx, const std::string& str) {
  auto bad = [&]() -> T { ctx.fail("cannot cast string \"" + str + "\" to " + std::string(dtype_name(dtype_of<T>()))); };
  std::string_view s = trim(str);
  if constexpr (std::is_same_v<T, bool>) {
    if (iequals(s, "true")) return true;
    if (iequals(s, "false")) return false;
    double d = 0;
    if (!parse_real(s, d)) return bad();
    return d != 0.0;
  } else if constexpr (std::is_floating_point_v<T>) {
    T v = 0;
    if (!parse_real(s, v)) return bad();
    return v;
  } else if constexpr (is_half_v<T>) {
    double d = 0;
    if (!parse_real(s, d)) return bad();
    return round_from_double<T>(d);
  } else {
    // A decimal integer (as int64, or uint64 when larger), reduced modulo 2^bits like an integer
    // cast; otherwise a float, truncated and saturated.
    std::string_view digits = s;
    if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
    if (!digits.empty() && digits[0] != '+' && !(s[0] == '+' && digits[0] == '-')) {
      const char* end = digits.data() + digits.size();
      int64_t i = 0;
      if (auto r = std::from_chars(digits.data(), end, i); r.ec == std::errc() && r.ptr == end) return static_cast<T>(i);
      uint64_t u = 0;
      if (auto r = std::from_chars(digits.data(), end, u); r.ec == std::errc() && r.ptr == end) return static_cast<T>(u);
    }
    double d = 0;
    if (!parse_real(s, d)) return bad();
    return saturating_from_double<T>(d);
  }
}

// Source element → double, exactly for every type but int64/uint64 beyond 2^53.
template <class T>
double to_double(T v) {
  if constexpr (is_half_v<T>) return static_cast<float>(v);
  else return static_cast<double>(v);
}

// Calls f.template operator()<T>() for the element types Cast handles (numbers, bool, string).
template <class F>
decltype(auto) visit_castable(const OpContext& ctx, DType type, F&& f) {
  if (type == DType::Bool) return f.template operator()<bool>();
  if (type == DType::String) return f.template operator()<std::string>();
  return visit_real(ctx, type, std::forward<F>(f));
}

}  // namespace cast_detail

inline Tensor cast_element_type(const OpContext& ctx, const Tensor& t, DType to) {
  using namespace cast_detail;
  if (t.dtype() == to) return t;
  bool to_half = to == DType::Float16 || to == DType::BFloat16;
  if (to != DType::String && t.dtype() != DType::String && !to_half) return cast_tensor(ctx, t, to);
  Tensor out(to, t.shape());
  visit_castable(ctx, t.dtype(), [&]<class From>() {
    visit_castable(ctx, to, [&]<class To>() {
      const From* src = t.data<From>();
      To* dst = out.data<To>();
      for (int64_t i = 0; i < t.size(); ++i) {
        if constexpr (std::is_same_v<From, std::string> && std::is_same_v<To, std::string>) {
          dst[i] = src[i];  // not reached (same type returns early)
        } else if constexpr (std::is_same_v<To, std::string>) {
          dst[i] = to_string_value(src[i]);
        } else if constexpr (std::is_same_v<From, std::string>) {
          dst[i] = from_string_value<To>(ctx, src[i]);
        } else if constexpr (is_half_v<To>) {
          dst[i] = round_from_double<To>(to_double(src[i]));  // a single rounding, see round_from_double
        } else {
          ctx.fail("internal: unexpected cast path");  // numbers were handled by cast_tensor
        }
      }
    });
  });
  return out;
}

}  // namespace sonnx::ops_a
