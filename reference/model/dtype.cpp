#include "sonnx/dtype.h"

#include <array>

namespace sonnx {

namespace {
struct Info {
  DType type;
  std::string_view name;
  size_t size;  // in memory
  int bits;     // serialized
};
constexpr std::array<Info, 27> kInfo{{
    {DType::Undefined, "undefined", 0, 0},
    {DType::Float, "float", 4, 32},
    {DType::UInt8, "uint8", 1, 8},
    {DType::Int8, "int8", 1, 8},
    {DType::UInt16, "uint16", 2, 16},
    {DType::Int16, "int16", 2, 16},
    {DType::Int32, "int32", 4, 32},
    {DType::Int64, "int64", 8, 64},
    {DType::String, "string", 0, 0},
    {DType::Bool, "bool", 1, 8},
    {DType::Float16, "float16", 2, 16},
    {DType::Double, "double", 8, 64},
    {DType::UInt32, "uint32", 4, 32},
    {DType::UInt64, "uint64", 8, 64},
    {DType::Complex64, "complex64", 8, 64},
    {DType::Complex128, "complex128", 16, 128},
    {DType::BFloat16, "bfloat16", 2, 16},
    {DType::Float8E4M3FN, "float8e4m3fn", 1, 8},
    {DType::Float8E4M3FNUZ, "float8e4m3fnuz", 1, 8},
    {DType::Float8E5M2, "float8e5m2", 1, 8},
    {DType::Float8E5M2FNUZ, "float8e5m2fnuz", 1, 8},
    {DType::UInt4, "uint4", 1, 4},
    {DType::Int4, "int4", 1, 4},
    {DType::Float4E2M1, "float4e2m1", 1, 4},
    {DType::Float8E8M0, "float8e8m0", 1, 8},
    {DType::UInt2, "uint2", 1, 2},
    {DType::Int2, "int2", 1, 2},
}};
}  // namespace

bool is_valid_dtype(int32_t v) { return v > 0 && v < static_cast<int32_t>(kInfo.size()); }

size_t dtype_size(DType t) {
  auto i = static_cast<size_t>(t);
  return i < kInfo.size() ? kInfo[i].size : 0;
}

int dtype_bits(DType t) {
  auto i = static_cast<size_t>(t);
  return i < kInfo.size() ? kInfo[i].bits : 0;
}

std::string_view dtype_name(DType t) {
  auto i = static_cast<size_t>(t);
  return i < kInfo.size() ? kInfo[i].name : std::string_view("unknown");
}

DType dtype_from_name(std::string_view name) {
  for (const auto& info : kInfo)
    if (info.name == name) return info.type;
  return DType::Undefined;
}

bool is_float(DType t) { return t == DType::Float || t == DType::Double || t == DType::Float16 || t == DType::BFloat16; }
bool is_signed_int(DType t) { return t == DType::Int8 || t == DType::Int16 || t == DType::Int32 || t == DType::Int64; }
bool is_unsigned_int(DType t) { return t == DType::UInt8 || t == DType::UInt16 || t == DType::UInt32 || t == DType::UInt64; }

bool is_float8(DType t) {
  return t == DType::Float8E4M3FN || t == DType::Float8E4M3FNUZ || t == DType::Float8E5M2 || t == DType::Float8E5M2FNUZ ||
         t == DType::Float8E8M0;
}
bool is_small_float(DType t) { return is_float8(t) || t == DType::Float4E2M1; }
bool is_small_int(DType t) { return t == DType::UInt4 || t == DType::Int4 || t == DType::UInt2 || t == DType::Int2; }

}  // namespace sonnx
