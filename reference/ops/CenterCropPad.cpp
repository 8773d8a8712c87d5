// CenterCropPad (version 18): crops or pads the listed axes (attribute axes, all by default;
// negative values count from the back) of input_data to the sizes in `shape` (one value per axis),
// keeping the data centred; other axes are unchanged. Per axis, with input size d and target s:
//   s < d: the window [floor((d - s) / 2), floor((d - s) / 2) + s) is kept (an odd difference
//          shifts the window half a pixel left of the centre);
//   s > d: floor((s - d) / 2) zeros go before the data and the rest after (the extra one of an
//          odd difference on the right).
// Padding is the type's zero (0, false, the empty string). A repeated axis, a negative size or a
// shape of the wrong length traps. The schema's function body (Slice and Pad of the same windows)
// moves the same elements.
#include <optional>

#include "op_params.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
struct CenterCropPadParams {
  std::optional<std::vector<int64_t>>
      axes;  // the axes `shape` names, as given (range and repeats checked against the rank later)
  static CenterCropPadParams read(const AttrReader& r, int64_t /*version*/) {
    CenterCropPadParams p;
    if (r.has_attr("axes")) p.axes = r.attr_ints("axes");
    return p;
  }
  // The axes as given, or all of them (0 .. rank-1) when absent; not yet normalized.
  std::vector<int64_t> axes_or_all(int64_t rank) const {
    if (axes) return *axes;
    std::vector<int64_t> all;
    for (int64_t i = 0; i < rank; ++i) all.push_back(i);
    return all;
  }
};

// For each axis, the offset to add to an output coordinate to get the input coordinate: positive
// when cropping, negative when padding.
std::vector<int64_t> crop_pad_offsets(OpContext& ctx, const CenterCropPadParams& p, const Shape& in_shape, Shape& out_shape) {
  int64_t rank = static_cast<int64_t>(in_shape.size());
  std::vector<int64_t> axes = normalize_axes(ctx, p.axes_or_all(rank), rank);
  std::vector<int64_t> sizes = int_values(ctx, ctx.input(1), "shape");
  if (ctx.input(1).rank() != 1 || sizes.size() != axes.size())
    ctx.fail("shape must be a 1-D tensor with one value per axis (" + std::to_string(axes.size()) + "), got shape " +
             shape_str(ctx.input(1).shape()));
  out_shape = in_shape;
  std::vector<int64_t> offsets(in_shape.size(), 0);
  std::vector<bool> seen(in_shape.size(), false);
  for (size_t i = 0; i < axes.size(); ++i) {
    auto a = static_cast<size_t>(axes[i]);
    if (seen[a]) ctx.fail("axis " + std::to_string(axes[i]) + " is repeated");
    seen[a] = true;
    int64_t d = in_shape[a], s = sizes[i];
    if (s < 0) ctx.fail("shape value " + std::to_string(s) + " is negative");
    out_shape[a] = s;
    offsets[a] = s <= d ? (d - s) / 2 : -((s - d) / 2);
  }
  return offsets;
}

std::vector<Value> center_crop_pad(OpContext& ctx) {
  const CenterCropPadParams p = CenterCropPadParams::read(ctx, ctx.version());
  const Tensor& x = ctx.input(0);
  Shape out_shape;
  std::vector<int64_t> offsets = crop_pad_offsets(ctx, p, x.shape(), out_shape);
  Tensor out(x.dtype(), out_shape);
  auto in_strides = strides_of(x.shape());
  for_each_index(out_shape, [&](const std::vector<int64_t>& idx, int64_t lin) {
    int64_t src = 0;
    for (size_t d = 0; d < idx.size(); ++d) {
      int64_t c = idx[d] + offsets[d];
      if (c < 0 || c >= x.shape()[d]) return;  // padding: stays zero
      src += c * in_strides[d];
    }
    copy_elements(x, src, out, lin, 1);
  });
  return one(std::move(out));
}

// The input with the listed axes (all by default) resized to shape (input 1).
void center_crop_pad_shape(InferContext& ctx) {
  const CenterCropPadParams p = CenterCropPadParams::read(ctx, ctx.version());
  DType t = ctx.input_elem(0);
  const Dims* x = ctx.input_shape(0);
  auto shape = ctx.input_partial(1);
  if (!x) return ctx.set_output(0, t, std::nullopt);
  int64_t r = static_cast<int64_t>(x->size());
  std::vector<int64_t> axes = infer_axes(ctx, p.axes_or_all(r), r);
  Dims o = *x;
  if (shape && shape->elems.size() != axes.size())
    ctx.fail("shape has " + std::to_string(shape->elems.size()) + " values for " + std::to_string(axes.size()) + " axes");
  for (size_t i = 0; i < axes.size(); ++i) o[static_cast<size_t>(axes[i])] = shape ? shape->elems[i] : Dim{};
  ctx.set_output(0, t, o);
}
}  // namespace
SONNX_PARAMS("", "CenterCropPad", (18), CenterCropPadParams);
SONNX_KERNEL("", "CenterCropPad", 18, center_crop_pad, Accuracy::Exact);
SONNX_SHAPE_RULE("", "CenterCropPad", (18), center_crop_pad_shape);
}  // namespace sonnx
