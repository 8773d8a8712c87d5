// Identity: output equals input (tensor, sequence or optional since version 16).
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> identity(OpContext& ctx) { return {ctx.value(0)}; }
}  // namespace
SONNX_KERNEL("", "Identity", 1, identity, Accuracy::Exact);
SONNX_SHAPE_RULE("", "Identity", (1, 13, 14, 16, 19, 21, 23, 24, 25), identity_rule);
}  // namespace sonnx
