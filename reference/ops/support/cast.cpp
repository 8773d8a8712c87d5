#include "cast.h"

#include <charconv>
#include <cstdlib>
#include <string>
#include <string_view>

namespace sonnx::support {

namespace {

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

// A small float: its exact value, as a double prints (every small float has a short exact decimal
// but e8m0's extremes, which print as the shortest decimal of the double).
template <class S>
std::string format_small_float(S x) {
  return format_real(small_to_double(x));
}

template <class T>
std::string to_string_value(T v) {
  if constexpr (std::is_same_v<T, bool>) return v ? "1" : "0";
  else if constexpr (is_small_float_v<T>) return format_small_float(v);
  else if constexpr (is_small_int_v<T>) return std::to_string(static_cast<int>(v.v));
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

// An integer into an integer type, keeping the low bits (two's complement).
template <class T, class I>
T integer_to(I v) {
  if constexpr (is_small_int_v<T>) return small_int_from_integer<T>(static_cast<int64_t>(v));
  else return static_cast<T>(v);
}

template <class T>
T from_string_value(const OpContext& ctx, const std::string& str, const NarrowOptions& options) {
  auto bad = [&]() -> T { ctx.fail("cannot cast string \"" + str + "\" to " + std::string(dtype_name(dtype_of<T>()))); };
  std::string_view s = trim(str);
  if constexpr (is_small_float_v<T>) {
    double d = 0;
    if (!parse_real(s, d)) return bad();
    return small_from_double<T>(d, options);
  } else if constexpr (std::is_same_v<T, bool>) {
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
      if (auto r = std::from_chars(digits.data(), end, i); r.ec == std::errc() && r.ptr == end) return integer_to<T>(i);
      uint64_t u = 0;
      if (auto r = std::from_chars(digits.data(), end, u); r.ec == std::errc() && r.ptr == end) return integer_to<T>(u);
    }
    double d = 0;
    if (!parse_real(s, d)) return bad();
    if constexpr (is_small_int_v<T>) return small_from_double<T>(d, options);  // rounded, low bits
    else return saturating_cast<T>(d);
  }
}

// Calls f.template operator()<T>() for the element types Cast handles (numbers, bool, string).
template <class F>
decltype(auto) visit_castable(const OpContext& ctx, DType type, F&& f) {
  if (type == DType::Bool) return f.template operator()<bool>();
  if (type == DType::String) return f.template operator()<std::string>();
  if (is_small_type(type)) return visit_small_dtype(type, std::forward<F>(f));
  return visit_real(ctx, type, std::forward<F>(f));
}

// The exact value of a classic number or bool as a double, for one rounding into a small float;
// 64-bit integers beyond 2^53 are rounded to odd so that the second rounding is still exact.
template <class From>
double value_for_small_float(From v) {
  if constexpr (std::is_same_v<From, bool>) return v ? 1.0 : 0.0;
  else if constexpr (std::is_integral_v<From>) return integer_to_double_round_odd(v);
  else return to_double(v);
}

// One number converted to another number type (see cast.h).
template <class To, class From>
To convert_number(From v, const NarrowOptions& o) {
  if constexpr (is_small_float_v<From>) {
    return convert_number<To>(small_to_double(v), o);
  } else if constexpr (is_small_int_v<From>) {
    return convert_number<To>(static_cast<int64_t>(v.v), o);
  } else if constexpr (is_small_float_v<To>) {
    return small_from_double<To>(value_for_small_float(v), o);
  } else if constexpr (is_small_int_v<To>) {
    if constexpr (std::is_same_v<From, bool>) return small_int_from_integer<To>(v ? 1 : 0);
    else if constexpr (std::is_integral_v<From>) return small_int_from_integer<To>(static_cast<int64_t>(v));
    else return small_from_double<To>(to_double(v), o);  // rounded to nearest even, low bits
  } else if constexpr (std::is_same_v<To, bool>) {
    if constexpr (is_half_v<From>) return static_cast<float>(v) != 0.0f;
    else return v != From(0);
  } else if constexpr (is_half_v<From>) {
    return convert_number<To>(static_cast<float>(v), o);
  } else if constexpr (is_half_v<To>) {
    return round_from_double<To>(to_double(v));  // one rounding, from the exact double
  } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    // Out-of-range float→int is undefined in C++; ONNX leaves it implementation-defined. We
    // saturate (and map NaN to 0) so the reference never exhibits undefined behaviour.
    return saturating_cast<To>(static_cast<double>(v));
  } else {
    return static_cast<To>(v);
  }
}

}  // namespace

Tensor cast_tensor(const OpContext& ctx, const Tensor& t, DType to) { return cast_tensor(ctx, t, to, NarrowOptions{}); }

Tensor cast_tensor(const OpContext& ctx, const Tensor& t, DType to, const NarrowOptions& options) {
  if (t.dtype() == to) return t;
  Tensor out(to, t.shape());
  visit_castable(ctx, t.dtype(), [&]<class From>() {
    visit_castable(ctx, to, [&]<class To>() {
      const From* src = t.data<From>();
      To* dst = out.data<To>();
      for (int64_t i = 0; i < t.size(); ++i) {
        if constexpr (std::is_same_v<From, std::string> && std::is_same_v<To, std::string>) dst[i] = src[i];
        else if constexpr (std::is_same_v<To, std::string>) dst[i] = to_string_value(src[i]);
        else if constexpr (std::is_same_v<From, std::string>) dst[i] = from_string_value<To>(ctx, src[i], options);
        else dst[i] = convert_number<To, From>(src[i], options);
      }
    });
  });
  return out;
}

namespace {
int64_t first_cast_version(DType type) {
  switch (type) {
    case DType::Float8E4M3FN:
    case DType::Float8E4M3FNUZ:
    case DType::Float8E5M2:
    case DType::Float8E5M2FNUZ: return 19;
    case DType::UInt4:
    case DType::Int4: return 21;
    case DType::Float4E2M1: return 23;
    case DType::Float8E8M0: return 24;
    case DType::UInt2:
    case DType::Int2: return 25;
    default: return 1;
  }
}
}  // namespace

void require_cast_type(const OpContext& ctx, DType type, const char* what) {
  if (first_cast_version(type) > ctx.version())
    ctx.fail(std::string(what) + " type " + std::string(dtype_name(type)) + " needs " + ctx.node().op_type + "-" +
             std::to_string(first_cast_version(type)) + " or later");
}

}  // namespace sonnx::support
