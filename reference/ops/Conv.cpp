// Conv: grouped N-D convolution (cross-correlation, as in every framework)
//   Y[n, m, o] = B[m] + sum_{c in group(m), k} X[n, g*C/group + c, o*s - pad_begin + k*d] * W[m, c, k]
// with elements of the padding contributing nothing. Versions 1 and 11 differ only in how the
// documentation words auto_pad; the arithmetic is the same, so one kernel serves both.
// Relies on ops/ops.mlw Conv.out_size_pos: Conv output sizes are positive when the window fits.
// Relies on ops/conv.mlw Axis.window_in_padding: every input position a Conv window reads lies in the input or the resolved padding, for every auto_pad.
// Relies on ops/conv.mlw Axis.same_out: SAME_UPPER and SAME_LOWER give ceil(H / s) outputs, in both ceil modes.
// Relies on ops/conv.mlw Window.wpos_in_padded: on every spatial axis, every input position an N-D Conv window reads lies in the input or the resolved padding.
#include "op_params.h"
#include "params/conv.h"
#include "support/shape.h"
#include "support/window.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> conv(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& w = ctx.input(1);
  if (x.dtype() != w.dtype()) ctx.fail("X and W have different element types");
  ConvSetup s = conv_setup(ctx, x.shape(), w.shape());
  std::vector<double> bias(static_cast<size_t>(s.M), 0.0);
  if (ctx.has_input(2)) {
    const Tensor& b = ctx.input(2);
    if (b.dtype() != x.dtype()) ctx.fail("bias B has a different element type from X");
    if (b.size() != s.M) ctx.fail("bias B has " + std::to_string(b.size()) + " elements, expected M=" + std::to_string(s.M));
    bias = real_values(ctx, b);
  }
  return one(visit_float(ctx, x.dtype(), [&]<class T>() {
    // Products and sums in double, rounded once to T at the end.
    std::vector<double> xd = real_values(ctx, x), wd = real_values(ctx, w);
    Tensor y(x.dtype(), s.out_shape);
    T* py = y.data<T>();
    conv_loop(
        s, [&](int64_t) { return 0.0; },
        [&](double& acc, int64_t xi, int64_t wi) { acc += xd[static_cast<size_t>(xi)] * wd[static_cast<size_t>(wi)]; },
        [&](int64_t n, int64_t m, int64_t o, double acc) {
          py[(n * s.M + m) * s.out_plane + o] = to_storage<T>(acc + bias[static_cast<size_t>(m)]);
        });
    return y;
  }));
}
}  // namespace
SONNX_PARAMS("", "Conv", (1, 11, 22), ConvParams);
SONNX_KERNEL("", "Conv", 1, conv, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "Conv", 22, conv, Accuracy::Rounding);
namespace {
void conv_shape(InferContext& ctx) { conv_rule(ctx, 1, common_elem(ctx, {0, 1})); }
}  // namespace
SONNX_SHAPE_RULE("", "Conv", (1, 11, 22), conv_shape);
}  // namespace sonnx
