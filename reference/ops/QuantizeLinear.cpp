// QuantizeLinear: y = saturate(round(x / y_scale) + y_zero_point), rounding half to even and
// saturating to the range of y's type (uint8 [0, 255], int8 [−128, 127]); NaN gives 0.
// x is float (the division happens in float, as the formula reads for float operands) or int32
// (the division happens in double, exact for every int32). y_zero_point is optional (uint8 0).
// Version 10: scale and zero point are per tensor. Version 13: they may instead be 1-D with one
// value per index along `axis` (default 1).
// Version 19: x and y_scale float, float16 or bfloat16 (or int32 x); y may be a float8 type, into
// which x / y_scale + y_zero_point converts as Cast does under `saturate`. The division is in the
// precision of y_scale's type (computed exactly, rounded once to it).
// Version 21: int16/uint16/int4/uint4 outputs, blocked scales (`block_size`), `output_dtype`, and
// x and y_scale of different types. 23: float4e2m1 outputs, `precision` (the type the division is
// rounded to, default y_scale's); 24: float8e8m0 scales; 25: int2/uint2 outputs.
#include "op_params.h"
#include "params/quantize.h"
#include "support/cast.h"
#include "support/shape.h"
#include "support/quantize.h"
#include "support/quantize_linear.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> quantize_impl(OpContext& ctx, bool allow_axis) {
  const Tensor& x = ctx.input(0);
  const Tensor& scale = ctx.input(1);
  if (scale.dtype() != DType::Float) ctx.fail("y_scale must be float");
  int64_t axis = QuantizeParams::read(ctx, ctx.version()).axis;
  AxisLayout layout = axis_layout(ctx, scale.shape(), x.shape(), allow_axis, axis, "y_scale");
  DType qtype = DType::UInt8;
  std::vector<int64_t> zp(static_cast<size_t>(scale.size()), 0);
  if (ctx.has_input(2)) {
    const Tensor& z = ctx.input(2);
    if (z.shape() != scale.shape() && !(z.size() == 1 && scale.size() == 1))
      ctx.fail("y_zero_point " + shape_str(z.shape()) + " must have the shape of y_scale " + shape_str(scale.shape()));
    qtype = z.dtype();
    zp = z.to_int64_vector();
  }
  const float* ps = scale.data<float>();
  return one(visit_quant8(ctx, qtype, [&]<class Q>() {
    Tensor y(qtype, x.shape());
    Q* py = y.data<Q>();
    if (x.dtype() == DType::Float) {
      const float* px = x.data<float>();
      for (int64_t i = 0; i < x.size(); ++i) {
        size_t a = static_cast<size_t>(layout.at(i));
        float q = px[i] / ps[a];
        py[i] = saturating_cast<Q>(round_half_even(static_cast<double>(q)) + static_cast<double>(zp[a]));
      }
    } else if (x.dtype() == DType::Int32) {
      const int32_t* px = x.data<int32_t>();
      for (int64_t i = 0; i < x.size(); ++i) {
        size_t a = static_cast<size_t>(layout.at(i));
        double q = static_cast<double>(px[i]) / static_cast<double>(ps[a]);
        py[i] = saturating_cast<Q>(round_half_even(q) + static_cast<double>(zp[a]));
      }
    } else {
      ctx.fail("x must be float or int32, got " + std::string(dtype_name(x.dtype())));
    }
    return y;
  }));
}

// Versions 19 to 25 (the features by version are in the header comment).
std::vector<Value> quantize_v19(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& scale = ctx.input(1);
  const Tensor* zp = ctx.has_input(2) ? &ctx.input(2) : nullptr;
  if (zp && zp->shape() != scale.shape() && !(zp->size() == 1 && scale.size() == 1))
    ctx.fail("y_zero_point " + shape_str(zp->shape()) + " must have the shape of y_scale " + shape_str(scale.shape()));
  QuantizeParams p = QuantizeParams::read(ctx, ctx.version());
  DType qtype = zp ? zp->dtype() : DType::UInt8;
  if (p.output_dtype) {
    if (zp && zp->dtype() != *p.output_dtype) ctx.fail("output_dtype differs from y_zero_point's type");
    qtype = *p.output_dtype;
  }
  if (!is_quantized_integer(qtype) && !is_small_float(qtype)) ctx.fail("cannot quantize into " + std::string(dtype_name(qtype)));
  DType precision = p.precision.value_or(scale.dtype());
  if (precision == DType::Float8E8M0) precision = DType::Float;  // a power of two: division is exact
  std::vector<int64_t> at = scale_index_map(ctx, x.shape(), scale.shape(), p.axis, p.block_size, "y_scale");
  Tensor q(DType::Double, x.shape());
  double* pq = q.data<double>();
  const bool integer = is_quantized_integer(qtype);
  auto [lo, hi] = quantized_range(qtype);
  for (int64_t i = 0; i < x.size(); ++i) {
    int64_t a = at[static_cast<size_t>(i)];
    double z = zp ? zp->as_double(a) : 0.0;
    double v = round_to_precision(x.as_double(i) / scale.as_double(a), precision);
    if (integer) pq[i] = std::isnan(v) ? 0.0 : std::clamp(round_half_even(v) + z, lo, hi);
    else pq[i] = round_to_precision(v + z, precision);
  }
  NarrowOptions options;
  options.saturate = p.saturate;
  options.fnuz_inf_to_max = ctx.version() >= 24;
  return one(cast_tensor(ctx, q, qtype, options));
}

std::vector<Value> quantize_v10(OpContext& ctx) { return quantize_impl(ctx, false); }
std::vector<Value> quantize_v13(OpContext& ctx) { return quantize_impl(ctx, true); }
}  // namespace
SONNX_PARAMS("", "QuantizeLinear", (10, 13, 19, 21, 23, 24, 25), QuantizeParams);
SONNX_KERNEL("", "QuantizeLinear", 10, quantize_v10, Accuracy::Exact);
SONNX_KERNEL("", "QuantizeLinear", 13, quantize_v13, Accuracy::Exact);
SONNX_KERNEL("", "QuantizeLinear", 19, quantize_v19, Accuracy::Exact);
SONNX_KERNEL("", "QuantizeLinear", 21, quantize_v19, Accuracy::Exact);
SONNX_KERNEL("", "QuantizeLinear", 23, quantize_v19, Accuracy::Exact);
SONNX_KERNEL("", "QuantizeLinear", 24, quantize_v19, Accuracy::Exact);
SONNX_KERNEL("", "QuantizeLinear", 25, quantize_v19, Accuracy::Exact);
namespace {
// x's shape; the type of y_zero_point (uint8 when absent; output_dtype from 21).
void quantize_shape(InferContext& ctx) {
  DType t = QuantizeParams::read(ctx, ctx.version()).output_dtype.value_or(ctx.has_input(2) ? ctx.input_elem(2) : DType::UInt8);
  const Dims* x = ctx.input_shape(0);
  ctx.set_output(0, t, x ? std::optional<Dims>(*x) : std::nullopt);
}
}  // namespace
SONNX_SHAPE_RULE("", "QuantizeLinear", (10, 13, 19, 21, 23, 24, 25), quantize_shape);
}  // namespace sonnx
