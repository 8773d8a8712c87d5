// BitShift: elementwise X << Y (direction "LEFT") or X >> Y (direction "RIGHT") on unsigned
// integers, with multidirectional broadcasting (version 11). Bits shifted out are lost; a shift by
// the bit width or more gives 0 (C++ would leave it undefined).
#include "op_params.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

struct BitShiftParams {
  bool left = false;  // direction "LEFT"; "RIGHT" otherwise (required: no other value)
  static BitShiftParams read(const AttrReader& r, int64_t /*version*/) {
    std::string direction = r.attr_string("direction", "");
    if (direction != "LEFT" && direction != "RIGHT")
      r.fail("attribute direction must be \"LEFT\" or \"RIGHT\", got \"" + direction + "\"");
    return {direction == "LEFT"};
  }
};

template <class T>
T shift_one(T x, T y, bool left) {
  constexpr uint64_t bits = sizeof(T) * 8;
  if (static_cast<uint64_t>(y) >= bits) return T(0);
  // Shift in uint64_t (no promotion to signed int), then keep the low bits of T.
  uint64_t wide = static_cast<uint64_t>(x);
  return static_cast<T>(left ? (wide << y) : (wide >> y));
}

std::vector<Value> bit_shift(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& y = ctx.input(1);
  require_same_type(ctx, x, y);
  bool left = BitShiftParams::read(ctx, ctx.version()).left;
  auto run = [&]<class T>() { return binary_elementwise<T, T>(ctx, x, y, [&](T a, T b) { return shift_one<T>(a, b, left); }); };
  switch (x.dtype()) {
    case DType::UInt8: return one(run.template operator()<uint8_t>());
    case DType::UInt16: return one(run.template operator()<uint16_t>());
    case DType::UInt32: return one(run.template operator()<uint32_t>());
    case DType::UInt64: return one(run.template operator()<uint64_t>());
    default: break;
  }
  ctx.fail("BitShift needs an unsigned integer type, got " + std::string(dtype_name(x.dtype())));
}
}  // namespace
SONNX_PARAMS("", "BitShift", (11), BitShiftParams);
SONNX_KERNEL("", "BitShift", 11, bit_shift, Accuracy::Exact);
SONNX_SHAPE_RULE("", "BitShift", (11), broadcast_rule);
}  // namespace sonnx
