// Size: the input's element count as an int64 scalar.
#include "support/shape.h"
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
namespace {
void size_shape(InferContext& ctx) {
  ctx.set_output(0, DType::Int64, Dims{});
  if (const Dims* x = ctx.input_shape(0))
    if (auto n = dims_product(*x)) ctx.set_output_partial(0, PartialValue{true, {known_dim(*n)}});
}
}  // namespace
SONNX_SHAPE_RULE("", "Size", (1, 13, 19, 21, 23, 24, 25), size_shape);
}  // namespace sonnx
