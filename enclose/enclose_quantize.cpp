// The enclosures of QuantizeLinear and DequantizeLinear (10, 13, 19, 21, 23, 24, 25), and of the
// exact integer operators MatMulInteger-10 and ConvInteger-10 (spec/accuracy.md, "Admissible
// results", "Quantization"). Scales and zero points per tensor, per axis (13) or blocked (21), each
// element's found by the reference's own index maps.
//   QuantizeLinear: y = saturate(round_half_even(x / y_scale) + y_zero_point). Under `real` x / y_scale
//     is the exact quotient of the enclosures of x and y_scale; under `admissible` it may be computed
//     with one rounding to the division's precision or any wider format (an integer x converted to
//     float first): the exact quotient rounded outward to the precision. An integer output is
//     decided where every candidate quotient gives the same integer, else Undetermined. Into float8
//     and float4 the quotient plus the zero point (rounded to the precision under `admissible`) is
//     converted as Cast converts (saturate), which is nondecreasing: the conversions of both ends.
//   DequantizeLinear: y = (x − x_zero_point)·x_scale, the difference exact, the product rounded once
//     to y's type (correctly rounded, ½ ulp: the encloser rounds the exact product outward).
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "quantized.h"
#include "reference/ops/params/quantize.h"
#include "reference/ops/support/quantize.h"
#include "reference/ops/support/quantize_linear.h"
#include "reference/ops/support/shape.h"

namespace sonnx::enclose::quantize_detail {

// For each element of x, the index of its scale and zero point: per tensor at 10, per axis too from
// 13 (the reference's axis_layout), blocked too from 19 (scale_index_map); traps where the
// reference traps. The zero point has the scale's shape (or both hold one value).
std::vector<int64_t> quant_param_index(const OpCall& c, const QuantizeParams& p, const Shape& x, const Bounds& scale,
                                       const Bounds* zero_point, const char* scale_name, const char* zero_point_name) {
  const Shape& s = scale.lo.shape();
  if (zero_point && zero_point->lo.shape() != s && !(zero_point->lo.size() == 1 && scale.lo.size() == 1))
    c.ctx.fail(std::string(zero_point_name) + " " + shape_str(zero_point->lo.shape()) + " must have the shape of " + scale_name +
               " " + shape_str(s));
  if (c.version >= 19) return support::scale_index_map(c.ctx, x, s, p.axis, p.block_size, scale_name);
  support::AxisLayout layout = support::axis_layout(c.ctx, s, x, c.version >= 13, p.axis, scale_name);
  std::vector<int64_t> index(static_cast<size_t>(shape_size(x)));
  for (size_t i = 0; i < index.size(); ++i) index[i] = layout.at(static_cast<int64_t>(i));
  return index;
}

// The type x / y_scale is rounded to: `precision` (23), else y_scale's type (19), float before (the
// reference divides floats); float where that is no float type (an e8m0 scale, a power of two, or
// an integer one).
DType quant_division_type(const OpCall& c, const QuantizeParams& p, DType scale) {
  DType t = c.version >= 19 ? p.precision.value_or(scale) : DType::Float;
  return sonnx::is_float(t) ? t : DType::Float;
}

// Quotients plus zero points into a float8 or float4 type: Cast's conversion (saturating or not)
// of each end. An undefined element stays undefined (float4 has no NaN to convert it to), and so
// does one whose end the conversion makes NaN (out of range without saturation, where the type has
// no infinity).
Bounds quant_small_float(const OpCall& c, const QuantizeParams& p, DType type, const Tensor& lower, const Tensor& upper) {
  NarrowOptions options;
  options.saturate = p.saturate;
  options.fnuz_inf_to_max = c.version >= 24;  // the reference's reading of Cast-24
  Tensor lo = support::cast_tensor(c.ctx, lower, type, options), hi = support::cast_tensor(c.ctx, upper, type, options);
  Bounds y = float_bounds(type, lower.shape());
  for (int64_t i = 0; i < lower.size(); ++i) {
    Interval v{lo.as_double(i), hi.as_double(i)};
    bool undefined = std::isnan(lower.as_double(i)) || std::isnan(upper.as_double(i)) || v.has_nan();
    set(y, i, undefined ? Interval::undefined() : v);
  }
  return y;
}

std::vector<Bounds> quantize_linear(const OpCall& c) {
  const Bounds& x = c.input(0);
  const Bounds& scale = c.input(1);
  const Bounds* zero_point = c.in.size() > 2 ? c.in[2] : nullptr;
  QuantizeParams p = QuantizeParams::read(c.ctx, c.version);
  if (c.version < 19) {
    if (scale.type != DType::Float) c.ctx.fail("y_scale must be float");
    if (x.type != DType::Float && x.type != DType::Int32)
      c.ctx.fail("x must be float or int32, got " + std::string(dtype_name(x.type)));
  }
  DType qtype = zero_point ? zero_point->type : DType::UInt8;
  if (p.output_dtype) {
    if (zero_point && zero_point->type != *p.output_dtype) c.ctx.fail("output_dtype differs from y_zero_point's type");
    qtype = *p.output_dtype;
  }
  const bool integer = support::is_quantized_integer(qtype);
  if (c.version < 19 ? qtype != DType::Int8 && qtype != DType::UInt8 : !integer && !is_small_float(qtype))
    c.ctx.fail("cannot quantize into " + std::string(dtype_name(qtype)));
  const Shape& shape = x.lo.shape();
  std::vector<int64_t> index = quant_param_index(c, p, shape, scale, zero_point, "y_scale", "y_zero_point");
  // Under `admissible`: the format of the division, and the one an integer x is converted to first.
  std::optional<FloatFormat> division, conversion;
  if (c.semantics == Semantics::Admissible) {
    DType t = quant_division_type(c, p, scale.type);
    division = float_format(t);
    conversion = float_format(t == DType::Double ? DType::Double : DType::Float);
  }
  const std::pair<double, double> range = support::quantized_range(qtype);
  Tensor lower(DType::Double, shape), upper(DType::Double, shape);  // integers: the values
  double *pl = lower.data<double>(), *pu = upper.data<double>();
  for (int64_t i = 0; i < x.lo.size(); ++i) {
    int64_t a = index[static_cast<size_t>(i)];
    Interval xi = quant_value(x, i);
    if (conversion && x.exact()) xi = conversion->round_out(xi);
    Interval q = xi / quant_value(scale, a);
    if (division && !q.has_nan()) q = division->round_out(q);
    Interval z = zero_point ? quant_value(*zero_point, a) : Interval::point(0);
    if (integer) {
      pl[i] = quant_decide(c, i, q, z.lo, range, "x / y_scale");
      continue;
    }
    Interval v = q + z;  // the reference rounds the sum to the precision too
    if (division && !v.has_nan()) v = division->round_out(v);
    pl[i] = v.lo;
    pu[i] = v.hi;
  }
  if (integer) return {quant_integers(c, lower, qtype)};
  return {quant_small_float(c, p, qtype, lower, upper)};
}

std::vector<Bounds> dequantize_linear(const OpCall& c) {
  const Bounds& x = c.input(0);
  const Bounds& scale = c.input(1);
  const Bounds* zero_point = c.in.size() > 2 ? c.in[2] : nullptr;
  QuantizeParams p = QuantizeParams::read(c.ctx, c.version);
  if (zero_point && zero_point->type != x.type) c.ctx.fail("x_zero_point must have the element type of x");
  if (c.version < 19) {
    if (scale.type != DType::Float) c.ctx.fail("x_scale must be float");
    if (x.type != DType::Int8 && x.type != DType::UInt8 && x.type != DType::Int32)
      c.ctx.fail("x must be int8, uint8 or int32, got " + std::string(dtype_name(x.type)));
  }
  DType out = c.version < 19 ? DType::Float : p.output_dtype.value_or(scale.type);
  if (out != DType::Float && out != DType::Float16 && out != DType::BFloat16)
    c.ctx.fail("y must be float, float16 or bfloat16, not " + std::string(dtype_name(out)) + " (set output_dtype)");
  const Shape& shape = x.lo.shape();
  std::vector<int64_t> index = quant_param_index(c, p, shape, scale, zero_point, "x_scale", "x_zero_point");
  Bounds y = float_bounds(out, shape);
  for (int64_t i = 0; i < x.lo.size(); ++i) {
    int64_t a = index[static_cast<size_t>(i)];
    Interval z = zero_point ? quant_value(*zero_point, a) : Interval::point(0);
    set(y, i, (quant_value(x, i) - z) * quant_value(scale, a));  // the difference exact: small integers or float8
  }
  return {y};
}

}  // namespace sonnx::enclose::quantize_detail

namespace sonnx::enclose {
// QuantizeLinear rounds (or decides) its result itself; DequantizeLinear's one product is correctly
// rounded to y's type.
SONNX_ENCLOSURE("QuantizeLinear", (10, 13, 19, 21, 23, 24, 25), Allowance::own(), quantize_detail::quantize_linear);
SONNX_ENCLOSURE("DequantizeLinear", (10, 13, 19, 21, 23, 24, 25), Allowance::within(0.5), quantize_detail::dequantize_linear);
// Integer inputs only: their result is exact, the reference kernel's.
SONNX_ENCLOSURE("MatMulInteger", (10), Allowance::exact(), lift_exact);
SONNX_ENCLOSURE("ConvInteger", (10), Allowance::exact(), lift_exact);
}  // namespace sonnx::enclose
