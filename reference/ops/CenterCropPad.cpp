// CenterCropPad: the shape rule (the kernel is still to come).
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {
// The input with the listed axes (all by default) resized to shape (input 1).
void center_crop_pad_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  const Dims* x = ctx.input_shape(0);
  auto shape = ctx.input_partial(1);
  if (!x) return ctx.set_output(0, t, std::nullopt);
  int64_t r = static_cast<int64_t>(x->size());
  std::vector<int64_t> axes = ctx.attr_ints("axes");
  if (!ctx.has_attr("axes")) for (int64_t i = 0; i < r; ++i) axes.push_back(i);
  axes = infer_axes(ctx, axes, r);
  Dims o = *x;
  if (shape && shape->elems.size() != axes.size()) ctx.fail("shape has " + std::to_string(shape->elems.size()) + " values for " + std::to_string(axes.size()) + " axes");
  for (size_t i = 0; i < axes.size(); ++i) o[static_cast<size_t>(axes[i])] = shape ? shape->elems[i] : Dim{};
  ctx.set_output(0, t, o);
}
}  // namespace
SONNX_SHAPE_RULE("", "CenterCropPad", (18), center_crop_pad_shape);
}  // namespace sonnx
