// Element types, numbered as ONNX's TensorProto.DataType so they convert without a table.
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "float16.h"

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
};

bool is_valid_dtype(int32_t v);
size_t dtype_size(DType t);  // bytes per element; 0 for String and Undefined
std::string_view dtype_name(DType t);  // ONNX spelling: "float", "int64", "float16", ...
DType dtype_from_name(std::string_view name);  // Undefined if unknown
bool is_float(DType t);        // float16, bfloat16, float, double
bool is_signed_int(DType t);
bool is_unsigned_int(DType t);
inline bool is_integer(DType t) { return is_signed_int(t) || is_unsigned_int(t); }

// C++ storage type for each element type.
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
#undef SONNX_DTYPE_TRAIT

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

}  // namespace sonnx
