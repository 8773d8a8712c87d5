// What every operator kernel needs around its arithmetic: dispatch on the element type, axes and
// strides, walking a shape, reading optional integer inputs, tensors as doubles and back.
// Kept literal and obvious: the reference favours clarity over speed.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "numeric.h"
#include "sonnx/tensor.h"
#include "reference/ops/registry.h"

namespace sonnx::support {

// Calls f.template operator()<T>() for real numeric element types (no string, bool or complex);
// other types trap through ctx.
template <class F>
decltype(auto) visit_real(const OpContext& ctx, DType type, F&& f) {
  switch (type) {
    case DType::Float: return f.template operator()<float>();
    case DType::Double: return f.template operator()<double>();
    case DType::Float16: return f.template operator()<float16_t>();
    case DType::BFloat16: return f.template operator()<bfloat16_t>();
    case DType::Int8: return f.template operator()<int8_t>();
    case DType::Int16: return f.template operator()<int16_t>();
    case DType::Int32: return f.template operator()<int32_t>();
    case DType::Int64: return f.template operator()<int64_t>();
    case DType::UInt8: return f.template operator()<uint8_t>();
    case DType::UInt16: return f.template operator()<uint16_t>();
    case DType::UInt32: return f.template operator()<uint32_t>();
    case DType::UInt64: return f.template operator()<uint64_t>();
    default: break;
  }
  ctx.fail("element type " + std::string(dtype_name(type)) + " is not supported by this operator");
}

// Only float, double, float16, bfloat16.
template <class F>
decltype(auto) visit_float(const OpContext& ctx, DType type, F&& f) {
  switch (type) {
    case DType::Float: return f.template operator()<float>();
    case DType::Double: return f.template operator()<double>();
    case DType::Float16: return f.template operator()<float16_t>();
    case DType::BFloat16: return f.template operator()<bfloat16_t>();
    default: break;
  }
  ctx.fail("element type " + std::string(dtype_name(type)) + " is not a floating type");
}

// Real numbers and bool (for comparisons and Equal).
template <class F>
decltype(auto) visit_real_or_bool(const OpContext& ctx, DType type, F&& f) {
  if (type == DType::Bool) return f.template operator()<bool>();
  return visit_real(ctx, type, std::forward<F>(f));
}

inline void require_same_type(const OpContext& ctx, const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype())
    ctx.fail("inputs have different element types (" + std::string(dtype_name(a.dtype())) + " and " +
             std::string(dtype_name(b.dtype())) + ")");
}

inline void require_type(const OpContext& ctx, const Tensor& t, DType type, const char* what) {
  if (t.dtype() != type)
    ctx.fail(std::string(what) + " must be " + std::string(dtype_name(type)) + ", got " + std::string(dtype_name(t.dtype())));
}

// Normalizes a possibly negative axis into [0, rank); traps when out of range.
int64_t normalize_axis(const OpContext& ctx, int64_t axis, int64_t rank);
std::vector<int64_t> normalize_axes(const OpContext& ctx, std::vector<int64_t> axes, int64_t rank);

// Row-major strides of a shape.
std::vector<int64_t> strides_of(const Shape& shape);

// Walks every multi-index of `shape` in row-major order, calling f(index_vector, linear_index).
template <class F>
void for_each_index(const Shape& shape, F f) {
  int64_t n = shape_size(shape);
  std::vector<int64_t> idx(shape.size(), 0);
  for (int64_t lin = 0; lin < n; ++lin) {
    f(static_cast<const std::vector<int64_t>&>(idx), lin);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++idx[static_cast<size_t>(d)] < shape[static_cast<size_t>(d)]) break;
      idx[static_cast<size_t>(d)] = 0;
    }
  }
}

// Reads an optional 1-D integer input (axes, pads, ...) or returns `def` when omitted.
std::vector<int64_t> optional_ints_input(const OpContext& ctx, size_t i, const std::vector<int64_t>& def = {});

// All elements of a floating tensor as doubles (exact); traps for other element types.
std::vector<double> float_values(const OpContext& ctx, const Tensor& t);
// All elements of a real-typed tensor as doubles (exact but for 64-bit integers beyond 2^53).
std::vector<double> real_values(const OpContext& ctx, const Tensor& t);
// A floating tensor of element type `type` holding `values`, each rounded once to that type.
Tensor float_tensor(const OpContext& ctx, DType type, const Shape& shape, const std::vector<double>& values);

// Single output helper.
inline std::vector<Value> one(Tensor t) {
  std::vector<Value> out;
  out.emplace_back(std::move(t));
  return out;
}

}  // namespace sonnx::support
