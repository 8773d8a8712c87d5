#include "packing.h"

#include <cstring>

namespace sonnx {

size_t serialized_size(DType type, int64_t count) {
  auto bits = static_cast<size_t>(dtype_bits(type));
  return (static_cast<size_t>(count) * bits + 7) / 8;
}

uint8_t widen_field(DType type, unsigned field) {
  int bits = dtype_bits(type);
  field &= (1u << bits) - 1;
  bool is_signed = type == DType::Int4 || type == DType::Int2;
  int v = static_cast<int>(field);
  if (is_signed && v >= (1 << (bits - 1))) v -= 1 << bits;
  return static_cast<uint8_t>(static_cast<int8_t>(v));
}

bool is_canonical_byte(DType type, uint8_t byte) { return !is_sub_byte(type) || widen_field(type, byte) == byte; }

std::string serialize_elements(const Tensor& t) {
  if (!is_sub_byte(t.dtype())) return std::string(reinterpret_cast<const char*>(t.raw()), t.byte_size());
  int bits = dtype_bits(t.dtype());
  int per_byte = 8 / bits;
  unsigned mask = (1u << bits) - 1;
  std::string out(serialized_size(t.dtype(), t.size()), '\0');
  const auto* src = reinterpret_cast<const uint8_t*>(t.raw());
  for (int64_t i = 0; i < t.size(); ++i) {
    auto& byte = reinterpret_cast<uint8_t&>(out[static_cast<size_t>(i / per_byte)]);
    byte = static_cast<uint8_t>(byte | ((src[i] & mask) << (bits * (i % per_byte))));
  }
  return out;
}

void deserialize_elements(Tensor& t, std::string_view bytes) {
  if (bytes.size() != serialized_size(t.dtype(), t.size()))
    throw InternalError("deserialize_elements: " + std::to_string(bytes.size()) + " bytes for " + std::to_string(t.size()) +
                        " elements of " + std::string(dtype_name(t.dtype())));
  if (!is_sub_byte(t.dtype())) {
    if (!bytes.empty()) std::memcpy(t.raw(), bytes.data(), bytes.size());  // little-endian, as this host
    return;
  }
  int bits = dtype_bits(t.dtype());
  int per_byte = 8 / bits;
  auto* dst = reinterpret_cast<uint8_t*>(t.raw());
  for (int64_t i = 0; i < t.size(); ++i) {
    auto byte = static_cast<uint8_t>(bytes[static_cast<size_t>(i / per_byte)]);
    dst[i] = widen_field(t.dtype(), static_cast<unsigned>(byte >> (bits * (i % per_byte))));
  }
}

}  // namespace sonnx
