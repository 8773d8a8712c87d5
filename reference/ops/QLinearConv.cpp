// QLinearConv: the quantized convolution
//   acc = B[m] + sum (x - x_zero_point) * (w - w_zero_point[m])   (Conv's windows; exact integers)
//   y   = saturate(round(acc * x_scale * w_scale[m] / y_scale) + y_zero_point)
// rounding half to even, saturating to y's type. The real-valued product is formed in double
// from the float scales. Padding contributes nothing (it stands for x_zero_point). x and y
// parameters are per tensor; w's per tensor or 1-D with one value per output channel. The int32
// bias B is optional.
#include "op_params.h"
#include "params/conv.h"
#include "support/shape.h"
#include "support/quantize.h"
#include "support/window.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> qlinear_conv(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& w = ctx.input(3);
  for (const Tensor* t : {&x, &w})
    if (t->dtype() != DType::Int8 && t->dtype() != DType::UInt8) ctx.fail("x and w must be int8 or uint8");
  ConvSetup s = conv_setup(ctx, x.shape(), w.shape());
  auto scalar = [&](size_t i, const char* what) {
    const Tensor& t = ctx.input(i);
    if (t.size() != 1) ctx.fail(std::string(what) + " must be a scalar, got shape " + shape_str(t.shape()));
    return t;
  };
  Tensor xs = scalar(1, "x_scale"), xz = scalar(2, "x_zero_point"), ys = scalar(6, "y_scale"), yz = scalar(7, "y_zero_point");
  if (xs.dtype() != DType::Float || ys.dtype() != DType::Float || ctx.input(4).dtype() != DType::Float)
    ctx.fail("scales must be float");
  if (xz.dtype() != x.dtype()) ctx.fail("x_zero_point must have the element type of x");
  if (ctx.input(5).dtype() != w.dtype()) ctx.fail("w_zero_point must have the element type of w");
  auto per_channel = [&](size_t i, const char* what) {
    const Tensor& t = ctx.input(i);
    std::vector<double> v = real_values(ctx, t);
    if (v.size() == 1) return std::vector<double>(static_cast<size_t>(s.M), v[0]);
    if (t.rank() != 1 || t.size() != s.M)
      ctx.fail(std::string(what) + " must be a scalar or have M=" + std::to_string(s.M) + " values, got shape " +
               shape_str(t.shape()));
    return v;
  };
  std::vector<double> wscale = per_channel(4, "w_scale"), wzp = per_channel(5, "w_zero_point");
  std::vector<int64_t> bias(static_cast<size_t>(s.M), 0);
  if (ctx.has_input(8)) {
    const Tensor& b = ctx.input(8);
    if (b.dtype() != DType::Int32) ctx.fail("bias B must be int32");
    if (b.size() != s.M) ctx.fail("bias B has " + std::to_string(b.size()) + " elements, expected M=" + std::to_string(s.M));
    bias = b.to_int64_vector();
  }
  double x_scale = xs.as_double(0), y_scale = ys.as_double(0);
  int64_t xzp = xz.as_int64(0);
  double y_zp = static_cast<double>(yz.as_int64(0));
  std::vector<int64_t> xv = x.to_int64_vector(), wv = w.to_int64_vector();
  return one(visit_quant8(ctx, yz.dtype(), [&]<class Q>() {
    Tensor y(yz.dtype(), s.out_shape);
    Q* py = y.data<Q>();
    struct Acc {
      int64_t sum;
      int64_t zw;
    };
    conv_loop(
        s,
        [&](int64_t m) {
          return Acc{bias[static_cast<size_t>(m)], static_cast<int64_t>(wzp[static_cast<size_t>(m)])};
        },
        [&](Acc& acc, int64_t xi, int64_t wi) {
          acc.sum += (xv[static_cast<size_t>(xi)] - xzp) * (wv[static_cast<size_t>(wi)] - acc.zw);
        },
        [&](int64_t n, int64_t m, int64_t o, const Acc& acc) {
          double real = static_cast<double>(acc.sum) * x_scale * wscale[static_cast<size_t>(m)] / y_scale;
          py[(n * s.M + m) * s.out_plane + o] = saturating_cast<Q>(round_half_even(real) + y_zp);
        });
    return y;
  }));
}
}  // namespace
SONNX_PARAMS("", "QLinearConv", (10), ConvParams);
SONNX_KERNEL("", "QLinearConv", 10, qlinear_conv, Accuracy::Exact);
namespace {
// The output has y_zero_point's element type (input 7).
void qlinear_conv_shape(InferContext& ctx) { conv_rule(ctx, 3, ctx.input_elem(7)); }
}  // namespace
SONNX_SHAPE_RULE("", "QLinearConv", (10), qlinear_conv_shape);
}  // namespace sonnx
