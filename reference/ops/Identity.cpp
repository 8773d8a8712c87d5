// Identity: output equals input (tensor, sequence or optional since version 16).
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> identity(OpContext& ctx) { return {ctx.value(0)}; }
}  // namespace
SONNX_KERNEL("", "Identity", 1, identity, Accuracy::Exact);
}  // namespace sonnx
