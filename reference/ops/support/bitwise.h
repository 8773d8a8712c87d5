// The bitwise operators (BitwiseAnd, BitwiseOr, BitwiseXor, BitwiseNot): dispatch over the eight
// integer element types their schemas allow, and the elementwise maps on the bit patterns.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

#include "elementwise.h"

namespace sonnx::support {

// Calls f.template operator()<T>() for the integer element types (signed and unsigned, 8 to 64
// bits); any other type traps through ctx.
template <class F>
decltype(auto) visit_integer(const OpContext& ctx, DType type, F&& f) {
  switch (type) {
    case DType::Int8: return f.template operator()<int8_t>();
    case DType::Int16: return f.template operator()<int16_t>();
    case DType::Int32: return f.template operator()<int32_t>();
    case DType::Int64: return f.template operator()<int64_t>();
    case DType::UInt8: return f.template operator()<uint8_t>();
    case DType::UInt16: return f.template operator()<uint16_t>();
    case DType::UInt32: return f.template operator()<uint32_t>();
    case DType::UInt64: return f.template operator()<uint64_t>();
    default: break;
  }
  ctx.fail("element type " + std::string(dtype_name(type)) + " is not an integer type");
}

// out = op(a, b) on the two's complement bit patterns, with multidirectional broadcasting. `op`
// gets both operands as the unsigned type of the same width, so nothing is promoted or undefined.
template <class Op>
Tensor bitwise_binary(const OpContext& ctx, const Tensor& a, const Tensor& b, Op op) {
  require_same_type(ctx, a, b);
  return visit_integer(ctx, a.dtype(), [&]<class T>() {
    using U = std::make_unsigned_t<T>;
    return binary_elementwise<T, T>(ctx, a, b, [&](T x, T y) {
      return static_cast<T>(static_cast<U>(op(static_cast<U>(x), static_cast<U>(y))));
    });
  });
}

}  // namespace sonnx::support
