// MaxUnpool: the partial inverse of MaxPool. X [N, C, d...] holds pooled values and I (same shape)
// their positions as MaxPool's Indices output gives them: linear indices into the unpooled tensor
// [N, C, D...] with D = (d - 1)*stride + kernel - pad_begin - pad_end, row-major, padding not
// counted. Every other output element is 0.
// With the output_shape input the pads are ignored (D = (d - 1)*stride + kernel) and the output
// has the requested shape, which must be at least D on every axis: the extra elements are the
// "auto-generated padding" at the end of each axis (this is what the ONNX node test
// test_maxunpool_export_with_output_shape encodes — indices stay relative to D, not to the
// requested shape). Versions 9 and 11 differ only in documentation.
#include "op_params.h"
#include "support/shape.h"
#include "support/window.h"

namespace sonnx {
using namespace support;
namespace {

// The window of the MaxPool being inverted. Values are checked here; the lengths (one per spatial
// axis, two for pads) against X's rank by `axes`.
struct MaxUnpoolParams {
  std::vector<int64_t> kernel_shape;  // required; each in [1, kMaxWindowValue]
  std::vector<int64_t> strides;       // as given (empty: 1 per axis); each in [1, kMaxWindowValue]
  std::vector<int64_t> pads;          // as given (empty: 0 per axis); each in [0, kMaxWindowValue]

  static MaxUnpoolParams read(const AttrReader& r, int64_t /*version*/) {
    MaxUnpoolParams p;
    if (!r.has_attr("kernel_shape")) r.fail("attribute 'kernel_shape' is required");
    p.kernel_shape = r.attr_ints("kernel_shape");
    for (auto k : p.kernel_shape)
      if (k < 1 || k > kMaxWindowValue) r.fail("kernel size " + std::to_string(k) + " is out of range");
    p.strides = r.attr_ints("strides");
    for (auto x : p.strides) {
      if (x < 1) r.fail("attribute 'strides' has value " + std::to_string(x) + " below 1");
      if (x > kMaxWindowValue) r.fail("attribute 'strides' has an unreasonably large value " + std::to_string(x));
    }
    p.pads = r.attr_ints("pads");
    for (auto x : p.pads) {
      if (x < 0) r.fail("attribute 'pads' has a negative value " + std::to_string(x));
      if (x > kMaxWindowValue) r.fail("attribute 'pads' has an unreasonably large value " + std::to_string(x));
    }
    return p;
  }

  // For `rank` spatial axes: the strides and, when `with_pads` (no output_shape input), the begin
  // and end pads (0 otherwise). "" when the lengths fit, else why not.
  std::string axes(size_t rank, bool with_pads, std::vector<int64_t>& stride, std::vector<int64_t>& pad_begin,
                   std::vector<int64_t>& pad_end) const {
    if (kernel_shape.size() != rank)
      return "kernel_shape has " + std::to_string(kernel_shape.size()) + " values, expected " + std::to_string(rank);
    stride = strides.empty() ? std::vector<int64_t>(rank, 1) : strides;
    if (stride.size() != rank)
      return "attribute 'strides' has " + std::to_string(stride.size()) + " values, expected " + std::to_string(rank);
    pad_begin.assign(rank, 0);
    pad_end.assign(rank, 0);
    if (!with_pads || pads.empty()) return {};
    if (pads.size() != 2 * rank)
      return "attribute 'pads' has " + std::to_string(pads.size()) + " values, expected " + std::to_string(2 * rank);
    pad_begin.assign(pads.begin(), pads.begin() + static_cast<std::ptrdiff_t>(rank));
    pad_end.assign(pads.begin() + static_cast<std::ptrdiff_t>(rank), pads.end());
    return {};
  }
};

std::vector<Value> max_unpool(OpContext& ctx) {
  MaxUnpoolParams p = MaxUnpoolParams::read(ctx, ctx.version());
  const Tensor& x = ctx.input(0);
  const Tensor& ind = ctx.input(1);
  if (x.rank() < 3) ctx.fail("input X must have rank at least 3 (N, C, spatial...), got " + shape_str(x.shape()));
  if (ind.shape() != x.shape())
    ctx.fail("indices I " + shape_str(ind.shape()) + " must have the shape of X " + shape_str(x.shape()));
  if (!is_integer(ind.dtype())) ctx.fail("indices I must be an integer tensor");
  size_t r = static_cast<size_t>(x.rank() - 2);
  const std::vector<int64_t>& kernel = p.kernel_shape;
  bool has_output_shape = ctx.has_input(2);
  std::vector<int64_t> strides, pb, pe;
  if (std::string why = p.axes(r, !has_output_shape, strides, pb, pe); !why.empty()) ctx.fail(why);
  Shape inferred = {x.dim(0), x.dim(1)};
  for (size_t i = 0; i < r; ++i) {
    int64_t d = (x.dim(static_cast<int64_t>(i) + 2) - 1) * strides[i] + kernel[i] - pb[i] - pe[i];
    if (d < 0) ctx.fail("pads are larger than the unpooled size on spatial axis " + std::to_string(i));
    inferred.push_back(d);
  }
  Shape out_shape = inferred;
  if (has_output_shape) {
    out_shape = ctx.input(2).to_int64_vector();
    if (out_shape.size() != inferred.size())
      ctx.fail("output_shape " + shape_str(out_shape) + " must have the rank of X " + shape_str(x.shape()));
    for (size_t i = 0; i < out_shape.size(); ++i)
      if (out_shape[i] < inferred[i])
        ctx.fail("output_shape " + shape_str(out_shape) + " is smaller than the unpooled shape " + shape_str(inferred));
  }
  // Where each element of the inferred (unpadded) tensor lands in the output.
  int64_t inferred_size = shape_size(inferred);
  auto out_strides = strides_of(out_shape);
  auto inf_strides = strides_of(inferred);
  std::vector<int64_t> idx = ind.to_int64_vector();
  return one(visit_float(ctx, x.dtype(), [&]<class T>() {
    Tensor y(x.dtype(), out_shape);
    const T* px = x.data<T>();
    T* py = y.data<T>();
    for (int64_t i = 0; i < x.size(); ++i) {
      int64_t lin = idx[static_cast<size_t>(i)];
      if (lin < 0 || lin >= inferred_size)
        ctx.fail("index " + std::to_string(lin) + " is out of range for the unpooled shape " + shape_str(inferred));
      int64_t dst = 0, rest = lin;
      for (size_t d = 0; d < inferred.size(); ++d) {
        dst += (rest / inf_strides[d]) * out_strides[d];
        rest %= inf_strides[d];
      }
      py[dst] = px[i];
    }
    return y;
  }));
}
}  // namespace
SONNX_PARAMS("", "MaxUnpool", (9, 11, 22), MaxUnpoolParams);
SONNX_KERNEL("", "MaxUnpool", 9, max_unpool, Accuracy::Exact);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "MaxUnpool", 22, max_unpool, Accuracy::Exact);
namespace {
// output_shape when given (input 2), else (in - 1) * stride + kernel - pads per spatial axis.
void max_unpool_shape(InferContext& ctx) {
  MaxUnpoolParams params = MaxUnpoolParams::read(ctx, ctx.version());
  DType t = ctx.input_elem(0);
  const Dims* x = ctx.input_shape(0);
  if (ctx.has_input(2)) {
    if (auto p = ctx.input_partial(2)) {
      for (const auto& d : p->elems)
        if (d.value) size_dim(ctx, *d.value, "output_shape");
      return ctx.set_output(0, t, p->elems);
    }
    return ctx.set_output(0, t, x ? std::optional<Dims>(Dims(x->size())) : std::nullopt);
  }
  if (!x) return ctx.set_output(0, t, std::nullopt);
  if (x->size() < 3) ctx.fail("input X must have rank at least 3 (N, C, spatial...), got rank " + std::to_string(x->size()));
  size_t r = x->size() - 2;
  std::vector<int64_t> s, pb, pe;
  if (std::string why = params.axes(r, true, s, pb, pe); !why.empty()) ctx.fail(why);
  const std::vector<int64_t>& k = params.kernel_shape;
  Dims o{(*x)[0], (*x)[1]};
  for (size_t i = 0; i < r; ++i) {
    const Dim& d = (*x)[i + 2];
    if (!d.value || *d.value > kMaxDimValue) {
      o.push_back(Dim{});
      continue;
    }
    int64_t span = 0;  // (in - 1) * stride: up to 2^40 * 2^24, which may overflow
    if (__builtin_mul_overflow(*d.value - 1, s[i], &span) || span > kMaxDimValue + 2 * kMaxWindowValue)
      ctx.fail("the window gives an unreasonably large dimension on spatial axis " + std::to_string(i));
    o.push_back(size_dim(ctx, span + k[i] - pb[i] - pe[i], "the window"));
  }
  ctx.set_output(0, t, o);
}
}  // namespace
SONNX_SHAPE_RULE("", "MaxUnpool", (9, 11, 22), max_unpool_shape);
}  // namespace sonnx
