// ConvInteger: Conv on quantized integers, y = conv(x - x_zero_point, w - w_zero_point) as int32.
// Padding contributes nothing (it stands for x_zero_point, i.e. 0 after the subtraction).
// x_zero_point is per tensor; w_zero_point per tensor or 1-D with one value per output channel.
// Each product fits in int32; the sum wraps in 32 bits.
#include "op_params.h"
#include "params/conv.h"
#include "support/shape.h"
#include "support/window.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> conv_integer(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& w = ctx.input(1);
  for (const Tensor* t : {&x, &w})
    if (t->dtype() != DType::Int8 && t->dtype() != DType::UInt8) ctx.fail("x and w must be int8 or uint8");
  ConvSetup s = conv_setup(ctx, x.shape(), w.shape());
  int64_t xzp = 0;
  if (ctx.has_input(2)) {
    const Tensor& z = ctx.input(2);
    if (z.dtype() != x.dtype()) ctx.fail("x_zero_point must have the element type of x");
    if (z.size() != 1) ctx.fail("x_zero_point must be a scalar, got shape " + shape_str(z.shape()));
    xzp = z.as_int64(0);
  }
  std::vector<int64_t> wzp(static_cast<size_t>(s.M), 0);
  if (ctx.has_input(3)) {
    const Tensor& z = ctx.input(3);
    if (z.dtype() != w.dtype()) ctx.fail("w_zero_point must have the element type of w");
    std::vector<int64_t> v = z.to_int64_vector();
    if (v.size() == 1) wzp.assign(static_cast<size_t>(s.M), v[0]);
    else if (z.rank() == 1 && z.size() == s.M) wzp = v;
    else
      ctx.fail("w_zero_point must be a scalar or have M=" + std::to_string(s.M) + " values, got shape " + shape_str(z.shape()));
  }
  std::vector<int64_t> xv = x.to_int64_vector(), wv = w.to_int64_vector();
  Tensor y(DType::Int32, s.out_shape);
  int32_t* py = y.data<int32_t>();
  struct Acc {
    uint32_t sum;
    int64_t zw;
  };
  conv_loop(
      s,
      [&](int64_t m) {
        return Acc{0u, wzp[static_cast<size_t>(m)]};
      },
      [&](Acc& acc, int64_t xi, int64_t wi) {
        acc.sum += static_cast<uint32_t>((xv[static_cast<size_t>(xi)] - xzp) * (wv[static_cast<size_t>(wi)] - acc.zw));
      },
      [&](int64_t n, int64_t m, int64_t o, const Acc& acc) {
        py[(n * s.M + m) * s.out_plane + o] = static_cast<int32_t>(acc.sum);
      });
  return one(std::move(y));
}
}  // namespace
SONNX_PARAMS("", "ConvInteger", (10), ConvParams);
SONNX_KERNEL("", "ConvInteger", 10, conv_integer, Accuracy::Exact);
namespace {
void conv_integer_shape(InferContext& ctx) { conv_rule(ctx, 1, DType::Int32); }
}  // namespace
SONNX_SHAPE_RULE("", "ConvInteger", (10), conv_integer_shape);
}  // namespace sonnx
