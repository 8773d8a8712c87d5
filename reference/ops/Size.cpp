// Size: the input's element count as an int64 scalar.
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> size(OpContext& ctx) { return one(Tensor::scalar<int64_t>(ctx.input(0).size())); }
}  // namespace
SONNX_KERNEL("", "Size", 1, size, Accuracy::Exact);
}  // namespace sonnx
