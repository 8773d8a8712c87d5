// MaxUnpool: the partial inverse of MaxPool. X [N, C, d...] holds pooled values and I (same shape)
// their positions as MaxPool's Indices output gives them: linear indices into the unpooled tensor
// [N, C, D...] with D = (d - 1)*stride + kernel - pad_begin - pad_end, row-major, padding not
// counted. Every other output element is 0.
// With the output_shape input the pads are ignored (D = (d - 1)*stride + kernel) and the output
// has the requested shape, which must be at least D on every axis: the extra elements are the
// "auto-generated padding" at the end of each axis (this is what the ONNX node test
// test_maxunpool_export_with_output_shape encodes — indices stay relative to D, not to the
// requested shape). Versions 9 and 11 differ only in documentation.
#include "support/shape.h"
#include "support/window.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> max_unpool(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& ind = ctx.input(1);
  if (x.rank() < 3) ctx.fail("input X must have rank at least 3 (N, C, spatial...), got " + shape_str(x.shape()));
  if (ind.shape() != x.shape())
    ctx.fail("indices I " + shape_str(ind.shape()) + " must have the shape of X " + shape_str(x.shape()));
  if (!is_integer(ind.dtype())) ctx.fail("indices I must be an integer tensor");
  size_t r = static_cast<size_t>(x.rank() - 2);
  if (!ctx.has_attr("kernel_shape")) ctx.fail("attribute 'kernel_shape' is required");
  std::vector<int64_t> kernel = ctx.attr_ints("kernel_shape");
  if (kernel.size() != r)
    ctx.fail("kernel_shape has " + std::to_string(kernel.size()) + " values, expected " + std::to_string(r));
  for (auto k : kernel)
    if (k < 1 || k > kMaxWindowValue) ctx.fail("kernel size " + std::to_string(k) + " is out of range");
  std::vector<int64_t> strides = per_axis_attr(ctx, "strides", r, 1, 1);
  bool has_output_shape = ctx.has_input(2);
  std::vector<int64_t> pb(r, 0), pe(r, 0);
  if (!has_output_shape) pads_attr(ctx, r, pb, pe);
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
SONNX_KERNEL("", "MaxUnpool", 9, max_unpool, Accuracy::Exact);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "MaxUnpool", 22, max_unpool, Accuracy::Exact);
namespace {
// output_shape when given (input 2), else (in - 1) * stride + kernel - pads per spatial axis.
void max_unpool_shape(InferContext& ctx) {
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
  std::vector<int64_t> k = ctx.attr_ints("kernel_shape");
  size_t r = k.size();
  if (x->size() != r + 2) ctx.fail("kernel_shape does not match the input's rank");
  std::vector<int64_t> s = ctx.attr_ints("strides"), pads = ctx.attr_ints("pads");
  if (s.empty()) s.assign(r, 1);
  if (pads.empty()) pads.assign(2 * r, 0);
  if (s.size() != r || pads.size() != 2 * r) ctx.fail("strides or pads have the wrong length");
  Dims o{(*x)[0], (*x)[1]};
  constexpr int64_t lim = int64_t{1} << 20;
  for (size_t i = 0; i < r; ++i) {
    const Dim& d = (*x)[i + 2];
    if (s[i] < 1 || s[i] > lim || k[i] < 1 || k[i] > lim || std::abs(pads[i]) > lim || std::abs(pads[i + r]) > lim)
      ctx.fail("invalid window attributes");
    if (!d.value || *d.value > kMaxDimValue) {
      o.push_back(Dim{});
      continue;
    }
    o.push_back(size_dim(ctx, (*d.value - 1) * s[i] + k[i] - pads[i] - pads[i + r], "the window"));
  }
  ctx.set_output(0, t, o);
}
}  // namespace
SONNX_SHAPE_RULE("", "MaxUnpool", (9, 11, 22), max_unpool_shape);
}  // namespace sonnx
