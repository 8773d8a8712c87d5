#include "dtype.h"

#include <array>

namespace sonnx {

namespace {
struct Info {
  DType type;
  std::string_view name;
  size_t size;
};
constexpr std::array<Info, 17> kInfo{{
    {DType::Undefined, "undefined", 0}, {DType::Float, "float", 4},
    {DType::UInt8, "uint8", 1},         {DType::Int8, "int8", 1},
    {DType::UInt16, "uint16", 2},       {DType::Int16, "int16", 2},
    {DType::Int32, "int32", 4},         {DType::Int64, "int64", 8},
    {DType::String, "string", 0},       {DType::Bool, "bool", 1},
    {DType::Float16, "float16", 2},     {DType::Double, "double", 8},
    {DType::UInt32, "uint32", 4},       {DType::UInt64, "uint64", 8},
    {DType::Complex64, "complex64", 8}, {DType::Complex128, "complex128", 16},
    {DType::BFloat16, "bfloat16", 2},
}};
}  // namespace

bool is_valid_dtype(int32_t v) { return v > 0 && v < static_cast<int32_t>(kInfo.size()); }

size_t dtype_size(DType t) {
  auto i = static_cast<size_t>(t);
  return i < kInfo.size() ? kInfo[i].size : 0;
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

bool is_float(DType t) {
  return t == DType::Float || t == DType::Double || t == DType::Float16 || t == DType::BFloat16;
}
bool is_signed_int(DType t) {
  return t == DType::Int8 || t == DType::Int16 || t == DType::Int32 || t == DType::Int64;
}
bool is_unsigned_int(DType t) {
  return t == DType::UInt8 || t == DType::UInt16 || t == DType::UInt32 || t == DType::UInt64;
}

}  // namespace sonnx
