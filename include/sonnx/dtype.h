// Element types, numbered as ONNX's TensorProto.DataType so they convert without a table.
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "float16.h"
#include "small_types.h"

// Everything this header declares is the library's public API: exported from libsonnx.so, whose
// other symbols are hidden (api/CMakeLists.txt).
#pragma GCC visibility push(default)
namespace sonnx {

enum class DType : int32_t {
  Undefined = 0,
  Float = 1,
  UInt8 = 2,
  Int8 = 3,
  UInt16 = 4,
  Int16 = 5,
  Int32 = 6,
  Int64 = 7,
  String = 8,
  Bool = 9,
  Float16 = 10,
  Double = 11,
  UInt32 = 12,
  UInt64 = 13,
  Complex64 = 14,
  Complex128 = 15,
  BFloat16 = 16,
  // IR 9–13 (spec/element_types.md): one byte per element in memory.
  Float8E4M3FN = 17,
  Float8E4M3FNUZ = 18,
  Float8E5M2 = 19,
  Float8E5M2FNUZ = 20,
  UInt4 = 21,
  Int4 = 22,
  Float4E2M1 = 23,
  Float8E8M0 = 24,
  UInt2 = 25,
  Int2 = 26,
};

bool is_valid_dtype(int32_t v);
size_t dtype_size(DType t);  // bytes per element in memory; 0 for String and Undefined
// Bits per element when serialized: 8·dtype_size, but 4 for int4/uint4/float4e2m1 and 2 for
// int2/uint2, which TensorProto packs (two or four to a byte).
int dtype_bits(DType t);
std::string_view dtype_name(DType t);          // ONNX spelling: "float", "int64", "float16", "float8e4m3fn", ...
DType dtype_from_name(std::string_view name);  // Undefined if unknown
// The classic types only: kernels test these and must not silently accept the small types below.
bool is_float(DType t);         // float16, bfloat16, float, double
bool is_signed_int(DType t);    // int8 .. int64
bool is_unsigned_int(DType t);  // uint8 .. uint64
inline bool is_integer(DType t) { return is_signed_int(t) || is_unsigned_int(t); }
// The IR 9–13 types (small_types.h).
bool is_float8(DType t);       // e4m3fn, e4m3fnuz, e5m2, e5m2fnuz, e8m0
bool is_small_float(DType t);  // the float8 kinds and float4e2m1
bool is_small_int(DType t);    // int4, uint4, int2, uint2
inline bool is_small_type(DType t) { return is_small_float(t) || is_small_int(t); }
inline bool is_sub_byte(DType t) { return dtype_bits(t) > 0 && dtype_bits(t) < 8; }

// C++ storage type for each element type.
// clang-format off
template <DType D> struct dtype_traits;
#define SONNX_DTYPE_TRAIT(D, T) \
  template <> struct dtype_traits<DType::D> { using type = T; };
SONNX_DTYPE_TRAIT(Float, float)
SONNX_DTYPE_TRAIT(UInt8, uint8_t)
SONNX_DTYPE_TRAIT(Int8, int8_t)
SONNX_DTYPE_TRAIT(UInt16, uint16_t)
SONNX_DTYPE_TRAIT(Int16, int16_t)
SONNX_DTYPE_TRAIT(Int32, int32_t)
SONNX_DTYPE_TRAIT(Int64, int64_t)
SONNX_DTYPE_TRAIT(String, std::string)
SONNX_DTYPE_TRAIT(Bool, bool)
SONNX_DTYPE_TRAIT(Float16, float16_t)
SONNX_DTYPE_TRAIT(Double, double)
SONNX_DTYPE_TRAIT(UInt32, uint32_t)
SONNX_DTYPE_TRAIT(UInt64, uint64_t)
SONNX_DTYPE_TRAIT(Complex64, std::complex<float>)
SONNX_DTYPE_TRAIT(Complex128, std::complex<double>)
SONNX_DTYPE_TRAIT(BFloat16, bfloat16_t)
SONNX_DTYPE_TRAIT(Float8E4M3FN, float8e4m3fn_t)
SONNX_DTYPE_TRAIT(Float8E4M3FNUZ, float8e4m3fnuz_t)
SONNX_DTYPE_TRAIT(Float8E5M2, float8e5m2_t)
SONNX_DTYPE_TRAIT(Float8E5M2FNUZ, float8e5m2fnuz_t)
SONNX_DTYPE_TRAIT(UInt4, uint4_t)
SONNX_DTYPE_TRAIT(Int4, int4_t)
SONNX_DTYPE_TRAIT(Float4E2M1, float4e2m1_t)
SONNX_DTYPE_TRAIT(Float8E8M0, float8e8m0_t)
SONNX_DTYPE_TRAIT(UInt2, uint2_t)
SONNX_DTYPE_TRAIT(Int2, int2_t)
#undef SONNX_DTYPE_TRAIT
// clang-format on

// clang-format off
template <class T> constexpr DType dtype_of();
template <> constexpr DType dtype_of<float>() { return DType::Float; }
template <> constexpr DType dtype_of<uint8_t>() { return DType::UInt8; }
template <> constexpr DType dtype_of<int8_t>() { return DType::Int8; }
template <> constexpr DType dtype_of<uint16_t>() { return DType::UInt16; }
template <> constexpr DType dtype_of<int16_t>() { return DType::Int16; }
template <> constexpr DType dtype_of<int32_t>() { return DType::Int32; }
template <> constexpr DType dtype_of<int64_t>() { return DType::Int64; }
template <> constexpr DType dtype_of<std::string>() { return DType::String; }
template <> constexpr DType dtype_of<bool>() { return DType::Bool; }
template <> constexpr DType dtype_of<float16_t>() { return DType::Float16; }
template <> constexpr DType dtype_of<double>() { return DType::Double; }
template <> constexpr DType dtype_of<uint32_t>() { return DType::UInt32; }
template <> constexpr DType dtype_of<uint64_t>() { return DType::UInt64; }
template <> constexpr DType dtype_of<std::complex<float>>() { return DType::Complex64; }
template <> constexpr DType dtype_of<std::complex<double>>() { return DType::Complex128; }
template <> constexpr DType dtype_of<bfloat16_t>() { return DType::BFloat16; }
template <> constexpr DType dtype_of<float8e4m3fn_t>() { return DType::Float8E4M3FN; }
template <> constexpr DType dtype_of<float8e4m3fnuz_t>() { return DType::Float8E4M3FNUZ; }
template <> constexpr DType dtype_of<float8e5m2_t>() { return DType::Float8E5M2; }
template <> constexpr DType dtype_of<float8e5m2fnuz_t>() { return DType::Float8E5M2FNUZ; }
template <> constexpr DType dtype_of<uint4_t>() { return DType::UInt4; }
template <> constexpr DType dtype_of<int4_t>() { return DType::Int4; }
template <> constexpr DType dtype_of<float4e2m1_t>() { return DType::Float4E2M1; }
template <> constexpr DType dtype_of<float8e8m0_t>() { return DType::Float8E8M0; }
template <> constexpr DType dtype_of<uint2_t>() { return DType::UInt2; }
template <> constexpr DType dtype_of<int2_t>() { return DType::Int2; }
// clang-format on

}  // namespace sonnx
#pragma GCC visibility pop
