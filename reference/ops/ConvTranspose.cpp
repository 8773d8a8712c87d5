// ConvTranspose: the transpose (gradient) of Conv. X [N, C, D...], W [C, M/group, k...],
// Y [N, M, O...] with
//   Y[n, m, o] = B[m] + sum over c in m's group, i, k with o + pad_begin = i*s + k*d of
//                X[n, c, i] * W[c, m - g*M/group, k].
// The output lengths and begin pads: support::transposed_geometry (window.h).
// Relies on ops/conv_transpose.mlw TAxis.resolved_tpads: the resolved ConvTranspose pads are nonnegative and the output length is the full length s*(in-1) + output_padding + (k-1)*d + 1 minus the resolved pads whenever the output is not longer.
// Relies on ops/conv_transpose.mlw Adjoint1d.adjoint: in 1-D with one channel ConvTranspose is the adjoint of Conv with the same kernel, stride, dilation and begin pad (sum of y*ConvTranspose(x) = sum of x*Conv(y)).
#include "op_params.h"
#include "params/conv.h"
#include "support/shape.h"
#include "support/window.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> conv_transpose(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& w = ctx.input(1);
  if (x.dtype() != w.dtype()) ctx.fail("X and W have different element types");
  if (x.rank() < 3) ctx.fail("input X must have rank at least 3 (N, C, spatial...), got " + shape_str(x.shape()));
  if (w.rank() != x.rank()) ctx.fail("weight W " + shape_str(w.shape()) + " must have the rank of X " + shape_str(x.shape()));
  size_t r = static_cast<size_t>(x.rank() - 2);
  int64_t N = x.dim(0), C = x.dim(1);
  ConvParams params = ConvParams::read(ctx, ctx.version());
  int64_t group = params.group;
  if (w.dim(0) != C) ctx.fail("weight W " + shape_str(w.shape()) + " must have C=" + std::to_string(C) + " as first dimension");
  if (C % group != 0) ctx.fail("channels C=" + std::to_string(C) + " must be divisible by group=" + std::to_string(group));
  int64_t Cg = C / group, Mg = w.dim(1), M = Mg * group;
  std::vector<int64_t> in(x.shape().begin() + 2, x.shape().end());
  std::vector<int64_t> kernel(w.shape().begin() + 2, w.shape().end());
  if (std::string why = params.check_kernel(w.shape()); !why.empty()) ctx.fail(why);
  TransposedAttrs attrs = transposed_attrs(ctx, r);
  const std::vector<int64_t>& strides = attrs.strides;
  const std::vector<int64_t>& dilations = attrs.dilations;
  // Not a structured binding: clang 14 cannot capture one in the lambda below.
  TransposedGeometry geometry = transposed_geometry(ctx, attrs, in, kernel);
  const std::vector<int64_t>& out = geometry.out;
  const std::vector<int64_t>& pad_begin = geometry.pad_begin;

  std::vector<double> bias(static_cast<size_t>(M), 0.0);
  if (ctx.has_input(2)) {
    const Tensor& b = ctx.input(2);
    if (b.dtype() != x.dtype()) ctx.fail("bias B has a different element type from X");
    if (b.size() != M) ctx.fail("bias B has " + std::to_string(b.size()) + " elements, expected M=" + std::to_string(M));
    bias = real_values(ctx, b);
  }
  Shape out_shape = {N, M};
  out_shape.insert(out_shape.end(), out.begin(), out.end());
  shape_size(out_shape);  // traps on an absurd output_shape before the tap table is built
  TapTable table = TapTable::transposed(in, kernel, out, strides, dilations, pad_begin);
  int64_t in_plane = element_count(in), out_plane = element_count(out), k_plane = element_count(kernel);

  return one(visit_float(ctx, x.dtype(), [&]<class T>() {
    std::vector<double> xd = real_values(ctx, x), wd = real_values(ctx, w);
    Tensor y(x.dtype(), out_shape);
    T* py = y.data<T>();
    std::vector<Tap> taps;
    Shape out_sp(out.begin(), out.end());
    for (int64_t n = 0; n < N; ++n)
      for_each_index(out_sp, [&](const std::vector<int64_t>& idx, int64_t o) {
        table.taps(idx, taps);
        for (int64_t g = 0; g < group; ++g)
          for (int64_t mm = 0; mm < Mg; ++mm) {
            int64_t m = g * Mg + mm;
            double acc = 0;
            for (int64_t c = g * Cg; c < (g + 1) * Cg; ++c) {
              int64_t xbase = (n * C + c) * in_plane;
              int64_t wbase = (c * Mg + mm) * k_plane;
              for (const Tap& t : taps)
                acc += xd[static_cast<size_t>(xbase + t.in_off)] * wd[static_cast<size_t>(wbase + t.k_off)];
            }
            py[(n * M + m) * out_plane + o] = to_storage<T>(acc + bias[static_cast<size_t>(m)]);
          }
      });
    return y;
  }));
}
}  // namespace
SONNX_PARAMS("", "ConvTranspose", (1, 11, 22), ConvParams);
SONNX_KERNEL("", "ConvTranspose", 1, conv_transpose, Accuracy::Rounding);
SONNX_KERNEL("", "ConvTranspose", 11, conv_transpose, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "ConvTranspose", 22, conv_transpose, Accuracy::Rounding);
namespace {
// Output [N, W[1] * group, spatial...]: output_shape when given, else
// stride * (in - 1) + output_padding + (k - 1) * dilation + 1 - pad_begin - pad_end (SAME_*: in * stride).
void conv_transpose_shape(InferContext& ctx) {
  DType t = common_elem(ctx, {0, 1});
  const Dims* x = ctx.input_shape(0);
  const Dims* w = ctx.input_shape(1);
  ConvParams params = ConvParams::read(ctx, ctx.version());
  int64_t group = params.group;
  if (!x) {
    ctx.set_output(0, t, w ? std::optional<Dims>(Dims(w->size())) : std::nullopt);
    return;
  }
  if (x->size() < 2) ctx.fail("the input must have rank at least 2");
  if (w && w->size() != x->size()) ctx.fail("X has rank " + std::to_string(x->size()) + ", W has " + std::to_string(w->size()));
  size_t r = x->size() - 2;
  Dim m;
  if (w && (*w)[1].value) m = known_dim(*(*w)[1].value * group);
  if (x && w && (*x)[1].value && (*w)[0].value && *(*x)[1].value != *(*w)[0].value)
    ctx.fail("X has " + std::to_string(*(*x)[1].value) + " channels, W has " + std::to_string(*(*w)[0].value));
  Dims out{(*x)[0], m};
  TransposedAttrs attrs = transposed_attrs(ctx, r);  // as the kernel reads them
  std::vector<int64_t> kernel = params.kernel_shape.value_or(std::vector<int64_t>{});
  if (kernel.empty() && w)
    for (size_t i = 2; i < w->size(); ++i) kernel.push_back((*w)[i].value.value_or(-1));
  for (size_t i = 0; i < r; ++i) {
    if (!attrs.output_shape.empty()) {
      out.push_back(size_dim(ctx, attrs.output_shape[i], "output_shape"));
      continue;
    }
    const Dim& in = (*x)[i + 2];
    if (!in.value || kernel.size() != r || kernel[i] < 0 || *in.value > kMaxDimValue) {
      out.push_back(Dim{});
      continue;
    }
    int64_t length = 0, pad = 0;
    if (std::string why = attrs.axis(i, *in.value, kernel[i], ctx.version(), length, pad); !why.empty()) ctx.fail(why);
    out.push_back(size_dim(ctx, length, "the window"));
  }
  ctx.set_output(0, t, out);
}
}  // namespace
SONNX_SHAPE_RULE("", "ConvTranspose", (1, 11, 22), conv_transpose_shape);
}  // namespace sonnx
