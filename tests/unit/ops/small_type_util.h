// Tensors of the small element types (float8, float4, int4, uint4, int2, uint2) for the operator
// tests, written as codes: the float's bit pattern, or the 2-/4-bit two's complement field of an
// integer. A code is stored as its in-memory byte (small_types.h: one byte per element; a signed
// field sign-extended), which the tests spell out independently of the packing code.
#pragma once
#include <cstdint>
#include <vector>

#include "sonnx/tensor.h"

namespace sonnx::testing {

// The ten small types, in DType order.
inline const std::vector<DType>& small_dtypes() {
  static const std::vector<DType> all = {DType::Float8E4M3FN, DType::Float8E4M3FNUZ,
                                         DType::Float8E5M2,   DType::Float8E5M2FNUZ,
                                         DType::UInt4,        DType::Int4,
                                         DType::Float4E2M1,   DType::Float8E8M0,
                                         DType::UInt2,        DType::Int2};
  return all;
}

inline int code_bits(DType d) {
  switch (d) {
    case DType::UInt4:
    case DType::Int4:
    case DType::Float4E2M1: return 4;
    case DType::UInt2:
    case DType::Int2: return 2;
    default: return 8;
  }
}

// The in-memory byte of a code: int4/int2 fields with the top bit set are negative numbers.
inline uint8_t code_byte(DType d, unsigned code) {
  int bits = code_bits(d);
  int v = static_cast<int>(code & ((1u << bits) - 1));
  bool is_signed = d == DType::Int4 || d == DType::Int2;
  if (is_signed && bits < 8 && v >= (1 << (bits - 1))) v -= 1 << bits;
  return static_cast<uint8_t>(v);
}

inline Tensor small_tensor(DType d, const Shape& shape, const std::vector<unsigned>& codes) {
  Tensor t(d, shape);
  if (static_cast<int64_t>(codes.size()) != t.size()) throw InternalError("small_tensor: size mismatch");
  auto* bytes = reinterpret_cast<uint8_t*>(t.raw());
  for (size_t i = 0; i < codes.size(); ++i) bytes[i] = code_byte(d, codes[i]);
  return t;
}

// n codes 1, 2, 3, ... modulo the type's code count: distinct while n < 2^bits, and for the float8
// kinds all finite numbers while n < 0x70 (no NaN or infinity among the low codes).
inline std::vector<unsigned> counting_codes(DType d, int64_t n) {
  std::vector<unsigned> c;
  unsigned mod = 1u << code_bits(d);
  for (int64_t i = 0; i < n; ++i) c.push_back(static_cast<unsigned>(i + 1) % mod);
  return c;
}

inline Tensor counting_tensor(DType d, const Shape& shape) {
  return small_tensor(d, shape, counting_codes(d, shape_size(shape)));
}

// The codes of a tensor of a small type, read back from its bytes (masked to the field).
inline std::vector<unsigned> codes_of(const Tensor& t) {
  std::vector<unsigned> c;
  const auto* bytes = reinterpret_cast<const uint8_t*>(t.raw());
  unsigned mask = (1u << code_bits(t.dtype())) - 1;
  for (int64_t i = 0; i < t.size(); ++i) c.push_back(bytes[i] & mask);
  return c;
}

}  // namespace sonnx::testing
