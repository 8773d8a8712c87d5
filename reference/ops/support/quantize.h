// Quantization (QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, QLinearConv,
// QLinearMatMul, ConvInteger, MatMulInteger): the 8-bit types and where each element finds its
// scale and zero point. Rounding is round_half_even and saturating_cast (numeric.h).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "elementwise.h"

namespace sonnx::support {

// Visits int8_t or uint8_t (the quantized types); traps otherwise.
template <class F>
decltype(auto) visit_quant8(const OpContext& ctx, DType type, F&& f) {
  if (type == DType::UInt8) return f.template operator()<uint8_t>();
  if (type == DType::Int8) return f.template operator()<int8_t>();
  ctx.fail("element type " + std::string(dtype_name(type)) + " is not int8 or uint8");
}

// Where element i of a tensor finds its quantization parameter: per tensor (every element uses
// parameter 0) or per axis (the element's index along the axis).
struct AxisLayout {
  bool per_axis = false;
  int64_t stride = 1;  // elements between successive indices along the axis
  int64_t dim = 1;
  int64_t at(int64_t i) const { return per_axis ? (i / stride) % dim : 0; }
};

// The layout of quantization parameters of `count` elements for a tensor of shape `x`: one value
// (a scalar or a one-element tensor) is per tensor; otherwise, when `allow_axis`, a 1-D tensor of
// x[axis] values is per axis. Traps on anything else.
inline AxisLayout axis_layout(const OpContext& ctx, const Shape& param_shape, const Shape& x, bool allow_axis, int64_t axis,
                              const std::string& what) {
  AxisLayout l;
  if (shape_size(param_shape) == 1 && param_shape.size() <= 1) return l;
  if (!allow_axis) ctx.fail(what + " must be a scalar, got shape " + shape_str(param_shape));
  if (param_shape.size() != 1) ctx.fail(what + " must be a scalar or 1-D, got shape " + shape_str(param_shape));
  int64_t a = normalize_axis(ctx, axis, static_cast<int64_t>(x.size()));
  if (param_shape[0] != x[static_cast<size_t>(a)])
    ctx.fail(what + " has " + std::to_string(param_shape[0]) + " values, but axis " + std::to_string(a) + " of " + shape_str(x) +
             " has " + std::to_string(x[static_cast<size_t>(a)]));
  l.per_axis = true;
  l.dim = x[static_cast<size_t>(a)];
  l.stride = shape_size(Shape(x.begin() + a + 1, x.end()));
  return l;
}

// A zero point or scale of a matrix-product operand, expanded to one value per row of A
// (`rows` = true: target shape A.shape[:-1] + [1]) or per column of B (target B.shape with the
// second-to-last dim 1). A 1-D parameter with one value per row (column) is accepted as the
// documentation describes; other shapes broadcast to the target. Returns the parameter
// broadcast to the target shape (a scalar for a 1-D operand): element batch*rows + m (A) or
// batch*cols + n (B), batch being the operand's own matrix index.
inline Tensor matrix_param(const OpContext& ctx, const Tensor& p, const Shape& operand, bool rows, const std::string& what) {
  Shape a = operand;
  if (a.size() == 1) {  // a vector operand: only a per-tensor parameter makes sense
    if (p.size() != 1) ctx.fail(what + " must be a scalar for a 1-D operand, got shape " + shape_str(p.shape()));
    return p.reshaped({});
  }
  Shape target = a;
  if (rows) target.back() = 1;
  else target[target.size() - 2] = 1;
  Tensor q = p;
  int64_t lines = rows ? a[a.size() - 2] : a.back();
  if (p.rank() == 1 && p.size() == lines && p.size() != 1) q = rows ? p.reshaped({lines, 1}) : p.reshaped({1, lines});
  if (q.rank() > static_cast<int64_t>(target.size()) || broadcast_shapes(ctx, q.shape(), target) != target)
    ctx.fail(what + " of shape " + shape_str(p.shape()) + " does not fit the operand " + shape_str(operand));
  return broadcast_to(q, target);
}

}  // namespace sonnx::support
