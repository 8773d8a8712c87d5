// BitwiseNot (version 18): the bitwise complement of every element of an integer tensor (for
// signed types, of the two's complement bit pattern: ~x = -x - 1).
#include "support/shape.h"
#include "support/bitwise.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> bitwise_not(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  return one(visit_integer(ctx, x.dtype(), [&]<class T>() {
    using U = std::make_unsigned_t<T>;
    return unary_elementwise<T, T>(x, [](T v) { return static_cast<T>(static_cast<U>(~static_cast<U>(v))); });
  }));
}
}  // namespace
SONNX_KERNEL("", "BitwiseNot", 18, bitwise_not, Accuracy::Exact);
SONNX_SHAPE_RULE("", "BitwiseNot", (18), same_as_input_rule);
}  // namespace sonnx
