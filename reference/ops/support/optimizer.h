// The ai.onnx.preview.training optimizers (Adagrad, Adam, Momentum): their scalar inputs and the
// blocks of optimized tensors.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernel.h"

namespace sonnx::support {

// The scalar inputs R (learning rate, float or double) and T (update count, int64).
inline double learning_rate_input(const OpContext& ctx) {
  const Tensor& r = ctx.input(0);
  if ((r.dtype() != DType::Float && r.dtype() != DType::Double) || r.size() != 1) ctx.fail("R must be a float or double scalar");
  return r.as_double(0);
}
inline int64_t update_count_input(const OpContext& ctx) {
  const Tensor& t = ctx.input(1);
  if (t.dtype() != DType::Int64 || t.size() != 1) ctx.fail("T must be an int64 scalar");
  return t.data<int64_t>()[0];
}

// The optimized tensors of an optimizer node: inputs after R and T come in `groups` blocks of n
// (X_1..X_n, G_1..G_n, ...); returns n after checking the counts. Outputs come in `out_groups`
// blocks of n.
inline size_t optimizer_tensor_count(const OpContext& ctx, size_t groups, size_t out_groups) {
  if (ctx.num_inputs() < 2 || (ctx.num_inputs() - 2) % groups != 0)
    ctx.fail("expected R, T and " + std::to_string(groups) + " inputs per optimized tensor");
  size_t n = (ctx.num_inputs() - 2) / groups;
  if (ctx.num_outputs() != n * out_groups) ctx.fail("expected " + std::to_string(out_groups) + " outputs per optimized tensor");
  return n;
}

// Input `idx` of an optimizer as doubles, checking it has X's element type and shape.
inline std::vector<double> optimizer_operand(const OpContext& ctx, size_t idx, const Tensor& x) {
  const Tensor& t = ctx.input(idx);
  if (t.dtype() != x.dtype() || t.shape() != x.shape())
    ctx.fail("input " + std::to_string(idx) + " (" + std::string(dtype_name(t.dtype())) + shape_str(t.shape()) +
             ") must have the element type and shape of the optimized tensor (" + std::string(dtype_name(x.dtype())) +
             shape_str(x.shape()) + ")");
  std::vector<double> v(static_cast<size_t>(t.size()));
  for (int64_t i = 0; i < t.size(); ++i) v[static_cast<size_t>(i)] = t.as_double(i);
  return v;
}

// Doubles rounded into a tensor of element type `type` (float or double) and shape `shape`.
inline Tensor optimizer_result(const OpContext& ctx, DType type, const Shape& shape, const std::vector<double>& v) {
  if (type != DType::Float && type != DType::Double) ctx.fail("optimized tensors must be float or double");
  Tensor out(type, shape);
  for (size_t i = 0; i < v.size(); ++i) {
    if (type == DType::Float) out.data<float>()[i] = static_cast<float>(v[i]);
    else out.data<double>()[i] = v[i];
  }
  return out;
}

}  // namespace sonnx::support
