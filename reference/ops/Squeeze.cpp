// Squeeze: removes size-1 axes: the listed ones (each must have size 1 and be listed once, as
// numpy.squeeze requires), or all of them when no axes are given. Axes are an attribute up to
// version 12 (negative values from 11; accepted throughout) and an optional input from 13.
// Relies on ops/shape_ops.mlw Squeeze.squeeze_unsqueeze: Squeeze after Unsqueeze on the same axes is the identity.
#include "op_params.h"
#include "params/movement.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
Tensor squeeze(const OpContext& ctx, const Tensor& x, const std::vector<int64_t>* axes_in) {
  int64_t rank = x.rank();
  std::vector<bool> drop(static_cast<size_t>(rank), false);
  if (axes_in) {
    for (int64_t a : normalize_axes(ctx, *axes_in, rank)) {
      if (drop[static_cast<size_t>(a)]) ctx.fail("axis " + std::to_string(a) + " appears twice");  // as numpy.squeeze
      if (x.dim(a) != 1) ctx.fail("cannot squeeze axis " + std::to_string(a) + " of size " + std::to_string(x.dim(a)));
      drop[static_cast<size_t>(a)] = true;
    }
  } else {
    for (int64_t d = 0; d < rank; ++d) drop[static_cast<size_t>(d)] = x.dim(d) == 1;
  }
  Shape out;
  for (int64_t d = 0; d < rank; ++d)
    if (!drop[static_cast<size_t>(d)]) out.push_back(x.dim(d));
  return x.reshaped(out);
}

std::vector<Value> squeeze_v1(OpContext& ctx) {
  SqueezeParams p = SqueezeParams::read(ctx, ctx.version());
  return one(squeeze(ctx, ctx.input(0), p.axes ? &*p.axes : nullptr));
}

std::vector<Value> squeeze_v13(OpContext& ctx) {
  if (!ctx.has_input(1)) return one(squeeze(ctx, ctx.input(0), nullptr));
  const Tensor& a = ctx.input(1);
  if (a.rank() > 1) ctx.fail("axes must be a 1-D tensor (or a scalar, as Unsqueeze accepts)");
  std::vector<int64_t> axes = int_values(ctx, a, "axes");
  return one(squeeze(ctx, ctx.input(0), &axes));
}
}  // namespace
SONNX_PARAMS("", "Squeeze", (1, 11, 13, 21, 23, 24, 25), SqueezeParams);
SONNX_KERNEL("", "Squeeze", 1, squeeze_v1, Accuracy::Exact);
SONNX_KERNEL("", "Squeeze", 13, squeeze_v13, Accuracy::Exact);

// Versions 21, 23, 24, 25 only widen the type lists (the documents' text and
// structure are unchanged): the same kernel.
SONNX_KERNEL("", "Squeeze", 21, squeeze_v13, Accuracy::Exact);
SONNX_KERNEL("", "Squeeze", 23, squeeze_v13, Accuracy::Exact);
SONNX_KERNEL("", "Squeeze", 24, squeeze_v13, Accuracy::Exact);
SONNX_KERNEL("", "Squeeze", 25, squeeze_v13, Accuracy::Exact);
namespace {
// Axes from the attribute (before 13) or the optional input; without axes every dim known to be 1
// goes (and the result is unknown when some dim is not known).
void squeeze_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  SqueezeParams p = SqueezeParams::read(ctx, ctx.version());
  std::optional<std::vector<int64_t>> axes = p.axes;
  if (p.axes_from_input && ctx.has_input(1)) {
    axes = ctx.input_ints(1);
    if (!axes) {
      ctx.set_output(0, t, std::nullopt);
      return;
    }
  }
  const Dims* x = ctx.input_shape(0);
  if (!x) {
    ctx.set_output(0, t, std::nullopt);
    return;
  }
  int64_t r = static_cast<int64_t>(x->size());
  Dims out;
  if (!axes) {
    for (const auto& d : *x) {
      if (!d.value) {
        ctx.set_output(0, t, std::nullopt);
        return;
      }
      if (*d.value != 1) out.push_back(d);
    }
  } else {
    std::vector<int64_t> ax = infer_axes(ctx, *axes, r);
    for (int64_t i = 0; i < r; ++i) {
      const Dim& d = (*x)[static_cast<size_t>(i)];
      if (std::find(ax.begin(), ax.end(), i) == ax.end()) {
        out.push_back(d);
      } else if (d.value && *d.value != 1) {
        ctx.fail("cannot squeeze axis " + std::to_string(i) + " of size " + std::to_string(*d.value));
      }
    }
  }
  ctx.set_output(0, t, out);
  if (auto p = ctx.input_partial(0); p && out.empty() && p->elems.size() == 1) {
    p->scalar = true;
    ctx.set_output_partial(0, std::move(*p));
  }
}
}  // namespace
SONNX_SHAPE_RULE("", "Squeeze", (1, 11, 13, 21, 23, 24, 25), squeeze_shape);
}  // namespace sonnx
