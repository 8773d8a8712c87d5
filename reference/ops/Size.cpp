// Size: the input's element count as an int64 scalar.
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> size(OpContext& ctx) { return one(Tensor::scalar<int64_t>(ctx.input(0).size())); }
}  // namespace
SONNX_KERNEL("", "Size", 1, size, Accuracy::Exact);

// Versions 19, 21, 23, 24, 25 only widen the type lists (the documents' text and
// structure are unchanged): the same kernel.
SONNX_KERNEL("", "Size", 19, size, Accuracy::Exact);
SONNX_KERNEL("", "Size", 21, size, Accuracy::Exact);
SONNX_KERNEL("", "Size", 23, size, Accuracy::Exact);
SONNX_KERNEL("", "Size", 24, size, Accuracy::Exact);
SONNX_KERNEL("", "Size", 25, size, Accuracy::Exact);
}  // namespace sonnx
