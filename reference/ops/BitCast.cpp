// BitCast-26: the input's bits read as another element type of the same width (`to`), shape
// unchanged; bytes are little endian. In memory every type here keeps its bits as they are
// serialized (4- and 2-bit types one element per byte: int4/int2 sign-extended, the others in the
// low bits), so equal widths of 8 bits or more copy bytes, and 4/2-bit types move the low bits. A
// byte read as bool must be 0 or 1: other bit patterns are no bool value, and the kernel traps.
#include <cstring>

#include "op_params.h"
#include "sonnx/small_types.h"
#include "support/kernel.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

struct BitCastParams {
  DType to = DType::Undefined;  // required; a non-string element type
  static BitCastParams read(const AttrReader& r, int64_t /*version*/) {
    std::optional<DType> to = r.attr_dtype("to");
    if (!to) r.fail("attribute 'to' is required");
    if (*to == DType::String) r.fail("strings cannot be bitcast");
    return {*to};
  }
};

// The element's pattern of `bits` bits (4 or 2) as stored one per byte.
uint8_t low_bits(const std::byte* p, int bits) {
  return static_cast<uint8_t>(std::to_integer<uint8_t>(*p) & ((1u << bits) - 1));
}

std::byte stored(uint8_t pattern, DType to, int bits) {
  // Signed narrow types keep their value sign-extended in the byte.
  bool sign = (to == DType::Int4 || to == DType::Int2) && (pattern >> (bits - 1)) != 0;
  return static_cast<std::byte>(sign ? pattern | static_cast<uint8_t>(0xFF << bits) : pattern);
}

std::vector<Value> bitcast(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  DType to = BitCastParams::read(ctx, ctx.version()).to;
  if (x.dtype() == DType::String) ctx.fail("strings cannot be bitcast");
  int from_bits = dtype_bits(x.dtype()), to_bits = dtype_bits(to);
  if (from_bits != to_bits)
    ctx.fail(std::string(dtype_name(x.dtype())) + " (" + std::to_string(from_bits) + " bits) and " +
             std::string(dtype_name(to)) + " (" + std::to_string(to_bits) + " bits) differ in width");
  Tensor y(to, x.shape());
  const std::byte* src = x.raw();
  std::byte* dst = y.raw();
  if (from_bits < 8) {
    for (int64_t i = 0; i < x.size(); ++i) dst[i] = stored(low_bits(src + i, from_bits), to, from_bits);
  } else {
    if (to == DType::Bool)
      for (int64_t i = 0; i < x.size(); ++i)
        if (std::to_integer<uint8_t>(src[i]) > 1) ctx.fail("byte " + std::to_string(i) + " is neither 0 nor 1: not a bool");
    if (x.size() > 0) std::memcpy(dst, src, x.byte_size());  // an empty tensor may have no storage
  }
  return one(std::move(y));
}

// x's shape, element type `to`.
void bitcast_shape(InferContext& ctx) {
  const Dims* x = ctx.input_shape(0);
  ctx.set_output(0, BitCastParams::read(ctx, ctx.version()).to, x ? std::optional<Dims>(*x) : std::nullopt);
}
}  // namespace
SONNX_PARAMS("", "BitCast", (26), BitCastParams);
SONNX_KERNEL("", "BitCast", 26, bitcast, Accuracy::Exact);
SONNX_SHAPE_RULE("", "BitCast", (26), bitcast_shape);
}  // namespace sonnx
