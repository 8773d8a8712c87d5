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
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
Tensor pad(const OpContext& ctx, const Tensor& x, const std::vector<int64_t>& pads, const std::string& mode,
           const Tensor& fill) {
  int64_t rank = x.rank();
  if (static_cast<int64_t>(pads.size()) != 2 * rank)
    ctx.fail("pads has " + std::to_string(pads.size()) + " entries, expected " + std::to_string(2 * rank));
  if (mode != "constant" && mode != "reflect" && mode != "edge" && !(mode == "wrap" && ctx.version() >= 19))
    ctx.fail("unsupported mode '" + mode + "'");
  Shape out_shape(static_cast<size_t>(rank));
  for (int64_t d = 0; d < rank; ++d) {
    int64_t begin = pads[static_cast<size_t>(d)], end = pads[static_cast<size_t>(d + rank)];
    int64_t dim = x.dim(d);
    // Bounded so that output coordinate - begin never overflows below.
    constexpr int64_t kLimit = int64_t{1} << 62;
    if (begin < -kLimit || begin > kLimit || end < -kLimit || end > kLimit) ctx.fail("pad amount out of range");
    int64_t size = 0;
    if (__builtin_add_overflow(dim, begin, &size) || __builtin_add_overflow(size, end, &size) || size < 0)
      ctx.fail("pads " + std::to_string(begin) + ", " + std::to_string(end) + " are invalid for a dimension of size " +
               std::to_string(dim));
    if (mode != "constant" && dim == 0 && size > 0) ctx.fail("cannot pad an empty axis in mode '" + mode + "'");
    if (mode == "wrap" && (begin > 0 || end > 0) && dim + std::min<int64_t>(begin, 0) + std::min<int64_t>(end, 0) <= 0)
      ctx.fail("cannot wrap-pad an axis that the negative pads crop to nothing");
    out_shape[static_cast<size_t>(d)] = size;
  }
  auto in_strides = strides_of(x.shape());
  std::vector<int64_t> map(static_cast<size_t>(shape_size(out_shape)));
  for_each_index(out_shape, [&](const std::vector<int64_t>& idx, int64_t lin) {
    int64_t src = 0;
    for (size_t d = 0; d < idx.size(); ++d) {
      int64_t dim = x.shape()[d];
      int64_t i = idx[d] - pads[d];
      if (i < 0 || i >= dim) {
        if (mode == "constant") {
          src = -1;
          break;
        }
        if (mode == "edge") i = std::clamp<int64_t>(i, 0, dim - 1);
        else if (mode == "wrap") i = pad_wrap_index(i, dim, pads[d], pads[d + idx.size()]);
        else i = pad_reflect_index(i, dim);
      }
      src += i * in_strides[d];
    }
    map[static_cast<size_t>(lin)] = src;
  });
  return take(x, out_shape, map, &fill);
}

// The float `value` attribute of versions 1 and 2 as a one-element tensor of x's (float) type.
Tensor float_fill(const OpContext& ctx, const Tensor& x) {
  float v = ctx.attr_float("value", 0.0f);
  return visit_float(ctx, x.dtype(), [&]<class T>() { return Tensor::scalar<T>(to_storage<T>(v)); });
}

std::vector<Value> pad_v1(OpContext& ctx) {
  if (!ctx.has_attr("paddings")) ctx.fail("attribute 'paddings' is required");
  const Tensor& x = ctx.input(0);
  return one(pad(ctx, x, ctx.attr_ints("paddings"), ctx.attr_string("mode", "constant"), float_fill(ctx, x)));
}

std::vector<Value> pad_v2(OpContext& ctx) {
  if (!ctx.has_attr("pads")) ctx.fail("attribute 'pads' is required");
  const Tensor& x = ctx.input(0);
  return one(pad(ctx, x, ctx.attr_ints("pads"), ctx.attr_string("mode", "constant"), float_fill(ctx, x)));
}

std::vector<int64_t> pads_for_all_axes(const OpContext& ctx, int64_t rank, const std::vector<int64_t>& pads);

std::vector<Value> pad_v11(OpContext& ctx) {
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
  return one(
      pad(ctx, x, pads_for_all_axes(ctx, x.rank(), int_values(ctx, pads, "pads")), ctx.attr_string("mode", "constant"), fill));
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
SONNX_KERNEL("", "Pad", 1, pad_v1, Accuracy::Exact);
SONNX_KERNEL("", "Pad", 2, pad_v2, Accuracy::Exact);
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
  std::optional<std::vector<int64_t>> pads;
  if (ctx.version() < 11) pads = ctx.attr_ints(ctx.version() < 2 ? "paddings" : "pads");
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
