// Element bytes as ONNX serializes them (TensorProto raw_data, external data, the packed
// int32_data of 4- and 2-bit types): every type little-endian at its dtype_bits, and the 4- and
// 2-bit types packed low bits first: two elements to a byte (first in bits 0–3) or four (first in
// bits 0–1), the last byte padded with zero bits. In memory each of those takes one byte.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "sonnx/tensor.h"

namespace sonnx {

// Bytes that `count` elements of `type` take serialized: ceil(count · dtype_bits / 8).
size_t serialized_size(DType type, int64_t count);

// The tensor's elements serialized (not String).
std::string serialize_elements(const Tensor& t);
// Fills t (allocated with its type and shape) from serialized bytes; `bytes` must hold exactly
// serialized_size(t.dtype(), t.size()). Padding bits of the last byte are ignored.
void deserialize_elements(Tensor& t, std::string_view bytes);

// The in-memory byte of a 4- or 2-bit field (sign-extended for int4/int2) and whether a byte is
// such a canonical in-memory byte of `type` (always true for types of 8 bits or more).
uint8_t widen_field(DType type, unsigned field);
bool is_canonical_byte(DType type, uint8_t byte);

}  // namespace sonnx
