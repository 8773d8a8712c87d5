// Identity: output equals input (tensor, sequence or optional since version 16).
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> identity(OpContext& ctx) { return {ctx.value(0)}; }
}  // namespace
SONNX_KERNEL("", "Identity", 1, identity, Accuracy::Exact);

// Versions 19, 21, 23, 24, 25 only widen the type lists (the documents' text and
// structure are unchanged): the same kernel.
SONNX_KERNEL("", "Identity", 19, identity, Accuracy::Exact);
SONNX_KERNEL("", "Identity", 21, identity, Accuracy::Exact);
SONNX_KERNEL("", "Identity", 23, identity, Accuracy::Exact);
SONNX_KERNEL("", "Identity", 24, identity, Accuracy::Exact);
SONNX_KERNEL("", "Identity", 25, identity, Accuracy::Exact);
SONNX_SHAPE_RULE("", "Identity", (1, 13, 14, 16, 19, 21, 23, 24, 25), identity_rule);
}  // namespace sonnx
