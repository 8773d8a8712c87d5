// ConstantOfShape: a tensor of the shape given by the 1-D input (empty = scalar), every element
// equal to the one-element `value` attribute (default float 0), in that attribute's type.
// Relies on ops/shape_ops.mlw ConstantOfShape.constant_of_shape_default: without a value attribute the output is all zeros.
#include "op_params.h"
#include "params/constant.h"
#include "support/shape.h"
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
  Tensor value = ConstantOfShapeParams::read(ctx, ctx.version()).value;
  std::vector<int64_t> map(static_cast<size_t>(shape_size(shape)), 0);
  return one(take(value, shape, map));
}
}  // namespace
SONNX_PARAMS("", "ConstantOfShape", (9, 20, 21, 23, 24, 25), ConstantOfShapeParams);
SONNX_KERNEL("", "ConstantOfShape", 9, constant_of_shape, Accuracy::Exact);

// Versions 20, 21, 23, 24, 25 only widen the type lists (the documents' text and
// structure are unchanged): the same kernel.
SONNX_KERNEL("", "ConstantOfShape", 20, constant_of_shape, Accuracy::Exact);
SONNX_KERNEL("", "ConstantOfShape", 21, constant_of_shape, Accuracy::Exact);
SONNX_KERNEL("", "ConstantOfShape", 23, constant_of_shape, Accuracy::Exact);
SONNX_KERNEL("", "ConstantOfShape", 24, constant_of_shape, Accuracy::Exact);
SONNX_KERNEL("", "ConstantOfShape", 25, constant_of_shape, Accuracy::Exact);
namespace {
// The shape input's elements are the output dims; the element type is the value attribute's
// (float when absent).
void constant_of_shape_shape(InferContext& ctx) {
  DType t = ConstantOfShapeParams::read(ctx, ctx.version()).value.dtype();
  DType st = ctx.input_elem(0);
  if (st != DType::Undefined && st != DType::Int64)
    ctx.fail("the shape input must be int64, got " + std::string(dtype_name(st)));
  if (auto p = ctx.input_partial(0)) {
    if (p->scalar) ctx.fail("the shape input must be 1-D");
    for (const auto& d : p->elems)
      if (d.value) size_dim(ctx, *d.value, "the shape");
    ctx.set_output(0, t, p->elems);
    return;
  }
  const Dims* s = ctx.input_shape(0);
  if (s && s->size() != 1) ctx.fail("the shape input must be 1-D");
  if (s && (*s)[0].value && *(*s)[0].value <= kMaxKnownElements) ctx.set_output(0, t, Dims(static_cast<size_t>(*(*s)[0].value)));
  else ctx.set_output(0, t, std::nullopt);
}
}  // namespace
SONNX_SHAPE_RULE("", "ConstantOfShape", (9, 20, 21, 23, 24, 25), constant_of_shape_shape);
}  // namespace sonnx
