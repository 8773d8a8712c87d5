// Identity: output equals input (tensor, sequence or optional since version 16).
#include "kernel_util.h"

namespace sonnx {
namespace {
std::vector<Value> identity(OpContext& ctx) { return {ctx.value(0)}; }
}  // namespace
SONNX_KERNEL("", "Identity", 1, identity, Accuracy::Exact);
}  // namespace sonnx
