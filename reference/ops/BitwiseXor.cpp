// BitwiseXor (version 18): the bitwise `xor` of A and B elementwise on integer tensors (the
// two's complement bit patterns of signed types), with multidirectional broadcasting. Both inputs
// must have the same element type.
#include "support/shape.h"
#include "support/bitwise.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> bitwise_xor(OpContext& ctx) {
  return one(bitwise_binary(ctx, ctx.input(0), ctx.input(1), [](auto x, auto y) { return x ^ y; }));
}
}  // namespace
SONNX_KERNEL("", "BitwiseXor", 18, bitwise_xor, Accuracy::Exact);
SONNX_SHAPE_RULE("", "BitwiseXor", (18), broadcast_rule);
}  // namespace sonnx
