// Shared building blocks for operator kernels: type dispatch, axes, broadcasting, index walking.
// Kept literal and obvious: the reference favours clarity over speed.
#pragma once
#include <cmath>
#include <complex>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "reference/model/tensor.h"
#include "registry.h"

namespace sonnx {

template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, float16_t> || std::is_same_v<T, bfloat16_t>;
template <class T>
inline constexpr bool is_complex_v = std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;
// Floating types including the 16-bit ones.
template <class T>
inline constexpr bool is_floating_v = std::is_floating_point_v<T> || is_half_v<T>;
// Real numbers we can do arithmetic on (all ints, bool excluded, floats incl. 16-bit).
template <class T>
inline constexpr bool is_real_number_v = (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) || is_half_v<T>;

// The type arithmetic happens in: float for the 16-bit floats, the type itself otherwise.
template <class T>
using compute_t = std::conditional_t<is_half_v<T>, float, T>;

// Converts a computed value back to storage type T (rounding for float16/bfloat16).
template <class T, class C>
inline T to_storage(C v) {
  if constexpr (is_half_v<T>) return T(static_cast<float>(v));
  else return static_cast<T>(v);
}

// Like visit_dtype, but only for real numeric element types (no string, bool or complex);
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

// Normalizes a possibly negative axis into [0, rank); traps when out of range.
int64_t normalize_axis(const OpContext& ctx, int64_t axis, int64_t rank);
std::vector<int64_t> normalize_axes(const OpContext& ctx, std::vector<int64_t> axes, int64_t rank);

// Row-major strides of a shape.
std::vector<int64_t> strides_of(const Shape& shape);

// Multidirectional (numpy) broadcasting of two or more shapes; traps when incompatible.
Shape broadcast_shapes(const OpContext& ctx, const Shape& a, const Shape& b);
Shape broadcast_shapes(const OpContext& ctx, const std::vector<Shape>& shapes);

// For each element of `out_shape` in row-major order, the linear index into a tensor of `in_shape`
// broadcast to it (in_shape right-aligned; size-1 dims repeat).
std::vector<int64_t> broadcast_index_map(const Shape& in_shape, const Shape& out_shape);

// Materializes t broadcast to out_shape (must be compatible).
Tensor broadcast_to(const Tensor& t, const Shape& out_shape);

// ONNX ≤ 6 legacy broadcasting (Add/Mul/... with broadcast=1, axis): B's shape matches a
// contiguous run of A's dims starting at `axis` (default: suffix). Returns B expanded to A's shape.
Tensor legacy_broadcast(const OpContext& ctx, const Tensor& a, const Tensor& b);

// Elementwise binary kernel with multidirectional broadcasting: out[i] = f(a[ia], b[ib]).
// Tin is the input storage type, Tout the output storage type.
template <class Tin, class Tout, class F>
Tensor binary_elementwise(const OpContext& ctx, const Tensor& a, const Tensor& b, F f) {
  Shape out_shape = broadcast_shapes(ctx, a.shape(), b.shape());
  Tensor out(dtype_of<Tout>(), out_shape);
  auto ia = broadcast_index_map(a.shape(), out_shape);
  auto ib = broadcast_index_map(b.shape(), out_shape);
  const Tin* pa = a.data<Tin>();
  const Tin* pb = b.data<Tin>();
  Tout* po = out.data<Tout>();
  for (int64_t i = 0; i < out.size(); ++i) po[i] = f(pa[ia[i]], pb[ib[i]]);
  return out;
}

// Elementwise unary kernel: out[i] = f(in[i]).
template <class Tin, class Tout, class F>
Tensor unary_elementwise(const Tensor& in, F f) {
  Tensor out(dtype_of<Tout>(), in.shape());
  const Tin* p = in.data<Tin>();
  Tout* o = out.data<Tout>();
  for (int64_t i = 0; i < in.size(); ++i) o[i] = f(p[i]);
  return out;
}

// Unary float op computed in compute_t<T> and rounded back: the common activation pattern.
template <class F>
Tensor unary_float_op(const OpContext& ctx, const Tensor& x, F f) {
  return visit_float(ctx, x.dtype(), [&]<class T>() {
    return unary_elementwise<T, T>(x, [&](T v) { return to_storage<T>(f(static_cast<compute_t<T>>(v))); });
  });
}

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

// Converts any real-typed tensor to another element type with ONNX Cast semantics for numbers.
Tensor cast_tensor(const OpContext& ctx, const Tensor& t, DType to);

// Reads an optional 1-D integer input (axes, pads, ...) or returns `def` when omitted.
std::vector<int64_t> optional_ints_input(const OpContext& ctx, size_t i, const std::vector<int64_t>& def = {});

// Single output helper.
inline std::vector<Value> one(Tensor t) {
  std::vector<Value> out;
  out.emplace_back(std::move(t));
  return out;
}

}  // namespace sonnx
