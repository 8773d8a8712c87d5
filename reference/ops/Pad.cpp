// Pad: grows (or, with negative amounts, crops) every axis. pads = [x1_begin, x2_begin, ...,
// x1_end, x2_end, ...]. Modes: constant (fill with a value), reflect (mirror without repeating the
// edge element, periodically when the pad is longer than the axis, like numpy.pad), edge (repeat
// the border element). Version 1 names the attribute `paddings` (same layout as the attribute
// text says; its example is inconsistent with that text), version 2 `pads`; both carry a float
// `value`. From version 11 pads and the optional scalar constant_value are inputs.
// Version 18 adds the optional `axes` input (pads then holds 2 * len(axes) amounts for those axes,
// the others are not padded). Version 19 adds mode `wrap`: the (cropped) data repeats as on a torus.
// Versions 21, 23, 24 and 25 only add element types; they run the version 19 kernel.
// Relies on ops/movement.mlw Pad.pad_reads_valid: in the modes reflect (periodic), edge and wrap every output element reads a position inside the input.
#include "op_params.h"
#include "params/pad.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
Tensor pad(const OpContext& ctx, const Tensor& x, const std::vector<int64_t>& pads, const PadParams& p, const Tensor& fill) {
  Shape out_shape;
  if (std::string why = p.padded_shape(x.shape(), pads, out_shape); !why.empty()) ctx.fail(why);
  auto in_strides = strides_of(x.shape());
  std::vector<int64_t> map(static_cast<size_t>(shape_size(out_shape)));
  for_each_index(out_shape, [&](const std::vector<int64_t>& idx, int64_t lin) {
    int64_t src = 0;
    for (size_t d = 0; d < idx.size(); ++d) {
      int64_t dim = x.shape()[d];
      int64_t i = idx[d] - pads[d];
      if (i < 0 || i >= dim) {
        if (p.mode == PadMode::Constant) {
          src = -1;
          break;
        }
        if (p.mode == PadMode::Edge) i = std::clamp<int64_t>(i, 0, dim - 1);
        else if (p.mode == PadMode::Wrap) i = pad_wrap_index(i, dim, pads[d], pads[d + idx.size()]);
        else i = pad_reflect_index(i, dim);
      }
      src += i * in_strides[d];
    }
    map[static_cast<size_t>(lin)] = src;
  });
  return take(x, out_shape, map, &fill);
}

// Versions 1 and 2: the pads and the float `value` are attributes, the fill of x's (float) type.
std::vector<Value> pad_v1(OpContext& ctx) {
  PadParams p = PadParams::read(ctx, ctx.version());
  const Tensor& x = ctx.input(0);
  Tensor fill = visit_float(ctx, x.dtype(), [&]<class T>() { return Tensor::scalar<T>(to_storage<T>(p.value)); });
  return one(pad(ctx, x, p.pads, p, fill));
}

std::vector<int64_t> pads_for_all_axes(const OpContext& ctx, int64_t rank, const std::vector<int64_t>& pads);

std::vector<Value> pad_v11(OpContext& ctx) {
  PadParams p = PadParams::read(ctx, ctx.version());
  const Tensor& x = ctx.input(0);
  const Tensor& pads = ctx.input(1);
  if (pads.rank() != 1) ctx.fail("pads must be a 1-D tensor");
  Tensor fill(x.dtype(), {});  // zero / false / empty string
  if (ctx.has_input(2)) {
    const Tensor& c = ctx.input(2);
    if (c.dtype() != x.dtype()) ctx.fail("constant_value has a different element type than data");
    if (c.size() != 1) ctx.fail("constant_value must hold exactly one value");
    fill = c.reshaped({});
  }
  return one(pad(ctx, x, pads_for_all_axes(ctx, x.rank(), int_values(ctx, pads, "pads")), p, fill));
}

// Versions 18+: `pads` names the axes of the optional `axes` input (all axes when omitted); the
// full [begin..., end...] layout over every axis, with 0 for axes not named.
std::vector<int64_t> pads_for_all_axes(const OpContext& ctx, int64_t rank, const std::vector<int64_t>& pads) {
  if (ctx.version() < 18 || !ctx.has_input(3)) return pads;
  std::vector<int64_t> axes = normalize_axes(ctx, int_values(ctx, ctx.input(3), "axes"), rank);
  size_t n = axes.size();
  if (pads.size() != 2 * n)
    ctx.fail("pads has " + std::to_string(pads.size()) + " entries for " + std::to_string(n) + " axes, expected " +
             std::to_string(2 * n));
  std::vector<int64_t> full(static_cast<size_t>(2 * rank), 0);
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (size_t k = 0; k < n; ++k) {
    auto a = static_cast<size_t>(axes[k]);
    if (seen[a]) ctx.fail("axis " + std::to_string(a) + " is given more than once");
    seen[a] = true;
    full[a] = pads[k];
    full[a + static_cast<size_t>(rank)] = pads[k + n];
  }
  return full;
}
}  // namespace
SONNX_PARAMS("", "Pad", (1, 2, 11, 13, 18, 19, 21, 23, 24, 25), PadParams);
SONNX_KERNEL("", "Pad", 1, pad_v1, Accuracy::Exact);
SONNX_KERNEL("", "Pad", 2, pad_v1, Accuracy::Exact);
SONNX_KERNEL("", "Pad", 11, pad_v11, Accuracy::Exact);
SONNX_KERNEL("", "Pad", 18, pad_v11, Accuracy::Exact);
SONNX_KERNEL("", "Pad", 19, pad_v11, Accuracy::Exact);
SONNX_KERNEL("", "Pad", 21, pad_v11, Accuracy::Exact);
SONNX_KERNEL("", "Pad", 23, pad_v11, Accuracy::Exact);
SONNX_KERNEL("", "Pad", 24, pad_v11, Accuracy::Exact);
SONNX_KERNEL("", "Pad", 25, pad_v11, Accuracy::Exact);
namespace {
// Each padded axis grows by its begin and end pads (which may be negative). Pads come from the
// attribute `paddings` (1) or `pads` (2), else the input; from 18 an optional axes input says which
// axes the pads are for.
void pad_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  const Dims* x = ctx.input_shape(0);
  if (!x) {
    ctx.set_output(0, t, std::nullopt);
    return;
  }
  int64_t r = static_cast<int64_t>(x->size());
  PadParams p = PadParams::read(ctx, ctx.version());
  std::optional<std::vector<int64_t>> pads;
  if (ctx.version() < 11) pads = p.pads;
  else pads = ctx.input_ints(1);
  std::vector<int64_t> axes;
  if (ctx.version() >= 18 && ctx.has_input(3)) {
    auto a = ctx.input_ints(3);
    if (!a) pads.reset();
    else axes = infer_axes(ctx, *a, r);
  } else {
    for (int64_t i = 0; i < r; ++i) axes.push_back(i);
  }
  if (!pads) {
    Dims out = *x;
    for (int64_t a : axes) out[static_cast<size_t>(a)] = Dim{};
    if (ctx.version() >= 18 && ctx.has_input(3) && axes.empty()) out = Dims(x->size());
    ctx.set_output(0, t, out);
    return;
  }
  size_t n = axes.size();
  if (pads->size() != 2 * n) ctx.fail("pads has " + std::to_string(pads->size()) + " values, expected " + std::to_string(2 * n));
  Dims out = *x;
  for (size_t i = 0; i < n; ++i) {
    Dim& d = out[static_cast<size_t>(axes[i])];
    int64_t b = (*pads)[i], e = (*pads)[i + n];
    if (std::abs(b) > kMaxDimValue || std::abs(e) > kMaxDimValue) ctx.fail("pads are unreasonably large");
    if (d.value) {
      int64_t v = *d.value + b + e;
      if (v < 0) ctx.fail("padding makes axis " + std::to_string(axes[i]) + " negative");
      d = size_dim(ctx, v, "padding");
    } else if (b != 0 || e != 0) {
      d = Dim{};
    }
  }
  ctx.set_output(0, t, out);
}
}  // namespace
SONNX_SHAPE_RULE("", "Pad", (1, 2, 11, 13, 18, 19, 21, 23, 24, 25), pad_shape);
}  // namespace sonnx
