// DequantizeLinear: y = (x - x_zero_point) * x_scale, as float. x is int8, uint8 or int32 (int32
// has no zero point, or a zero one). The difference is exact (computed in int64) and the product is
// rounded once to float. x_zero_point is optional (0).
// Version 10: scale and zero point are per tensor. Version 13: they may instead be 1-D with one
// value per index along `axis` (default 1).
// Version 19: x may be a float8 type; x_scale (and y) float, float16 or bfloat16. 21: int16,
// uint16, int4, uint4 x and blocked scales (`block_size`). 23: float4e2m1 x and `output_dtype`
// (y's type, default x_scale's); 24: float8e8m0 scales; 25: int2/uint2 x. From 19 on
// (x - x_zero_point) is exact and the product is computed exactly and rounded once to y's type.
#include "op_params.h"
#include "params/quantize.h"
#include "support/shape.h"
#include "support/cast.h"
#include "support/quantize.h"
#include "support/quantize_linear.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> dequantize_impl(OpContext& ctx, bool allow_axis) {
  const Tensor& x = ctx.input(0);
  const Tensor& scale = ctx.input(1);
  if (scale.dtype() != DType::Float) ctx.fail("x_scale must be float");
  if (x.dtype() != DType::Int8 && x.dtype() != DType::UInt8 && x.dtype() != DType::Int32)
    ctx.fail("x must be int8, uint8 or int32, got " + std::string(dtype_name(x.dtype())));
  int64_t axis = QuantizeParams::read(ctx, ctx.version()).axis;
  AxisLayout layout = axis_layout(ctx, scale.shape(), x.shape(), allow_axis, axis, "x_scale");
  std::vector<int64_t> zp(static_cast<size_t>(scale.size()), 0);
  if (ctx.has_input(2)) {
    const Tensor& z = ctx.input(2);
    if (z.dtype() != x.dtype()) ctx.fail("x_zero_point must have the element type of x");
    if (z.shape() != scale.shape() && !(z.size() == 1 && scale.size() == 1))
      ctx.fail("x_zero_point " + shape_str(z.shape()) + " must have the shape of x_scale " + shape_str(scale.shape()));
    zp = z.to_int64_vector();
  }
  const float* ps = scale.data<float>();
  std::vector<int64_t> xv = x.to_int64_vector();
  Tensor y(DType::Float, x.shape());
  float* py = y.data<float>();
  for (int64_t i = 0; i < x.size(); ++i) {
    size_t a = static_cast<size_t>(layout.at(i));
    py[i] = static_cast<float>(static_cast<double>(xv[static_cast<size_t>(i)] - zp[a]) * static_cast<double>(ps[a]));
  }
  return one(std::move(y));
}

std::vector<Value> dequantize_v19(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& scale = ctx.input(1);
  const Tensor* zp = ctx.has_input(2) ? &ctx.input(2) : nullptr;
  if (zp && zp->dtype() != x.dtype()) ctx.fail("x_zero_point must have the element type of x");
  if (zp && zp->shape() != scale.shape() && !(zp->size() == 1 && scale.size() == 1))
    ctx.fail("x_zero_point " + shape_str(zp->shape()) + " must have the shape of x_scale " + shape_str(scale.shape()));
  QuantizeParams p = QuantizeParams::read(ctx, ctx.version());
  DType out = p.output_dtype.value_or(scale.dtype());
  if (out != DType::Float && out != DType::Float16 && out != DType::BFloat16)
    ctx.fail("y must be float, float16 or bfloat16, not " + std::string(dtype_name(out)) + " (set output_dtype)");
  std::vector<int64_t> at = scale_index_map(ctx, x.shape(), scale.shape(), p.axis, p.block_size, "x_scale");
  Tensor y(DType::Double, x.shape());
  double* py = y.data<double>();
  for (int64_t i = 0; i < x.size(); ++i) {
    int64_t a = at[static_cast<size_t>(i)];
    double d = x.as_double(i) - (zp ? zp->as_double(a) : 0.0);
    py[i] = d * scale.as_double(a);
  }
  return one(cast_tensor(ctx, y, out));
}

std::vector<Value> dequantize_v10(OpContext& ctx) { return dequantize_impl(ctx, false); }
std::vector<Value> dequantize_v13(OpContext& ctx) { return dequantize_impl(ctx, true); }
}  // namespace
SONNX_PARAMS("", "DequantizeLinear", (10, 13, 19, 21, 23, 24, 25), QuantizeParams);
SONNX_KERNEL("", "DequantizeLinear", 10, dequantize_v10, Accuracy::Rounding);
SONNX_KERNEL("", "DequantizeLinear", 13, dequantize_v13, Accuracy::Rounding);
SONNX_KERNEL("", "DequantizeLinear", 19, dequantize_v19, Accuracy::Rounding);
SONNX_KERNEL("", "DequantizeLinear", 21, dequantize_v19, Accuracy::Rounding);
SONNX_KERNEL("", "DequantizeLinear", 23, dequantize_v19, Accuracy::Rounding);
SONNX_KERNEL("", "DequantizeLinear", 24, dequantize_v19, Accuracy::Rounding);
SONNX_KERNEL("", "DequantizeLinear", 25, dequantize_v19, Accuracy::Rounding);
namespace {
// x's shape; float before 19, then x_scale's type (output_dtype from 23 when set).
void dequantize_shape(InferContext& ctx) {
  DType t =
      QuantizeParams::read(ctx, ctx.version()).output_dtype.value_or(ctx.version() < 19 ? DType::Float : ctx.input_elem(1));
  const Dims* x = ctx.input_shape(0);
  ctx.set_output(0, t, x ? std::optional<Dims>(*x) : std::nullopt);
}
}  // namespace
SONNX_SHAPE_RULE("", "DequantizeLinear", (10, 13, 19, 21, 23, 24, 25), dequantize_shape);
}  // namespace sonnx
