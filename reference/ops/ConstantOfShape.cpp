// ConstantOfShape: a tensor of the shape given by the 1-D input (empty = scalar), every element
// equal to the one-element `value` attribute (default float 0), in that attribute's type.
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> constant_of_shape(OpContext& ctx) {
  const Tensor& shape_t = ctx.input(0);
  if (shape_t.rank() != 1) ctx.fail("the shape input must be 1-D");
  Shape shape = int_values(ctx, shape_t, "shape");
  for (int64_t d : shape)
    if (d < 0) ctx.fail("shape entries must be non-negative, got " + shape_str(shape));
  Tensor value = Tensor::scalar<float>(0.0f);
  if (ctx.has_attr("value")) {
    value = ctx.attr_tensor("value");
    if (value.size() != 1) ctx.fail("attribute 'value' must hold exactly one element");
  }
  std::vector<int64_t> map(static_cast<size_t>(shape_size(shape)), 0);
  return one(take(value, shape, map));
}
}  // namespace
SONNX_KERNEL("", "ConstantOfShape", 9, constant_of_shape, Accuracy::Exact);

// Versions 20, 21, 23, 24, 25 only widen the type lists (the documents' text and
// structure are unchanged): the same kernel.
SONNX_KERNEL("", "ConstantOfShape", 20, constant_of_shape, Accuracy::Exact);
SONNX_KERNEL("", "ConstantOfShape", 21, constant_of_shape, Accuracy::Exact);
SONNX_KERNEL("", "ConstantOfShape", 23, constant_of_shape, Accuracy::Exact);
SONNX_KERNEL("", "ConstantOfShape", 24, constant_of_shape, Accuracy::Exact);
SONNX_KERNEL("", "ConstantOfShape", 25, constant_of_shape, Accuracy::Exact);
}  // namespace sonnx
