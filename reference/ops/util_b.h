// Helpers shared by the data-movement kernels (Reshape, Transpose, Slice, Gather, Scatter, Pad,
// Unique, TopK, Einsum, ...): type-generic element copies by index map, index checks, and value
// orderings used for sorting.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_util.h"

namespace sonnx::opsb {

// An integer-typed tensor (any integer element type) read as int64 values; traps otherwise.
inline std::vector<int64_t> int_values(const OpContext& ctx, const Tensor& t, const std::string& what) {
  if (!is_integer(t.dtype()))
    ctx.fail(what + " must be an integer tensor, got " + std::string(dtype_name(t.dtype())));
  return t.to_int64_vector();
}

// Like int_values, but also accepts floating tensors (old operator versions typed some counts as
// T = float): those convert as Cast does (truncation toward zero, saturating, NaN to 0).
inline std::vector<int64_t> int_values_any(const OpContext& ctx, const Tensor& t, const std::string& what) {
  if (is_float(t.dtype())) return cast_tensor(ctx, t, DType::Int64).to_int64_vector();
  return int_values(ctx, t, what);
}

// A single integer held by a scalar or one-element tensor (k of TopK/Trilu, axis of CumSum, ...).
inline int64_t int_scalar(const OpContext& ctx, const Tensor& t, const std::string& what) {
  if (t.size() != 1) ctx.fail(what + " must hold exactly one value, got shape " + shape_str(t.shape()));
  return int_values(ctx, t, what)[0];
}

// Index `i` into a dimension of size `dim`: negative values count from the end; anything outside
// [-dim, dim-1] traps.
inline int64_t checked_index(const OpContext& ctx, int64_t i, int64_t dim, const std::string& what) {
  if (i < -dim || i >= dim)
    ctx.fail(what + " " + std::to_string(i) + " is out of range for a dimension of size " + std::to_string(dim));
  return i < 0 ? i + dim : i;
}

// A new tensor of `out_shape` and in's element type whose element i is in[map[i]] (any element
// type). A map entry of -1 takes `fill` (element 0 of a tensor of the same type) or, without
// fill, the type's zero value (0, false, empty string).
inline Tensor take(const Tensor& in, const Shape& out_shape, const std::vector<int64_t>& map,
                   const Tensor* fill = nullptr) {
  Tensor out(in.dtype(), out_shape);
  visit_dtype(in.dtype(), [&]<class T>() {
    const T* src = in.data<T>();
    T* dst = out.data<T>();
    T pad_value = fill ? fill->data<T>()[0] : T{};
    for (int64_t i = 0; i < out.size(); ++i) {
      int64_t s = map[static_cast<size_t>(i)];
      dst[i] = s < 0 ? pad_value : src[s];
    }
  });
  return out;
}

// numpy.transpose: output dim i is input dim perm[i]. perm must be a permutation (checked by caller).
inline Tensor transpose_tensor(const Tensor& in, const std::vector<int64_t>& perm) {
  size_t rank = perm.size();
  Shape out_shape(rank);
  auto in_strides = strides_of(in.shape());
  std::vector<int64_t> stride_for_out(rank);
  for (size_t i = 0; i < rank; ++i) {
    out_shape[i] = in.shape()[static_cast<size_t>(perm[i])];
    stride_for_out[i] = in_strides[static_cast<size_t>(perm[i])];
  }
  std::vector<int64_t> map(static_cast<size_t>(shape_size(out_shape)));
  for_each_index(out_shape, [&](const std::vector<int64_t>& idx, int64_t lin) {
    int64_t src = 0;
    for (size_t d = 0; d < rank; ++d) src += idx[d] * stride_for_out[d];
    map[static_cast<size_t>(lin)] = src;
  });
  return take(in, out_shape, map);
}

// a * b for non-negative sizes, trapping instead of overflowing.
inline int64_t checked_mul(const OpContext& ctx, int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) ctx.fail("size computation overflows int64");
  return r;
}

// Product of shape[begin, end). A zero-sized tensor may have other dims whose product is huge:
// shape_size traps then instead of overflowing.
inline int64_t dims_product(const Shape& shape, size_t begin, size_t end) {
  return shape_size(Shape(shape.begin() + static_cast<std::ptrdiff_t>(begin), shape.begin() + static_cast<std::ptrdiff_t>(end)));
}

// A total order on values of any element type, for sorting (Unique, TopK): numbers ascending with
// -0 == +0 and every NaN equal to every other NaN and greater than all numbers (numpy's sort
// order); complex numbers by real part, then imaginary part; false < true; strings bytewise.
template <class T>
int compare_values(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, std::string>) {
    int c = a.compare(b);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  } else if constexpr (is_complex_v<T>) {
    int c = compare_values(a.real(), b.real());
    return c != 0 ? c : compare_values(a.imag(), b.imag());
  } else if constexpr (is_half_v<T>) {
    return compare_values(static_cast<float>(a), static_cast<float>(b));
  } else if constexpr (std::is_floating_point_v<T>) {
    bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb) return na && nb ? 0 : (na ? 1 : -1);
    return a < b ? -1 : (b < a ? 1 : 0);
  } else {
    return a < b ? -1 : (b < a ? 1 : 0);
  }
}

// Whether a value counts as non-zero (NonZero): numbers != 0 (NaN is non-zero, -0 is zero),
// true, non-empty strings.
template <class T>
bool is_nonzero(const T& v) {
  if constexpr (std::is_same_v<T, std::string>) return !v.empty();
  else if constexpr (is_half_v<T>) return static_cast<float>(v) != 0.0f;
  else if constexpr (std::is_same_v<T, bool>) return v;
  else return v != T(0);
}

// Integer arithmetic that wraps (two's complement) instead of overflowing: computed in uint64_t,
// which never promotes to a signed type, then truncated back (modular in C++20).
template <class T>
T wrapping_add(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
template <class T>
T wrapping_mul(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

// Elementwise reduction used by ScatterElements / ScatterND (reduction="add" / "mul"): integers
// wrap, 16-bit floats compute in float and round back, bool uses numpy's meaning (add = or,
// mul = and). Strings cannot be reduced.
enum class Reduction { None, Add, Mul };

inline Reduction parse_reduction(const OpContext& ctx) {
  std::string r = ctx.attr_string("reduction", "none");
  if (r == "none") return Reduction::None;
  if (r == "add") return Reduction::Add;
  if (r == "mul") return Reduction::Mul;
  ctx.fail("unsupported reduction '" + r + "'");
}

template <class T>
T reduce_values(const OpContext& ctx, Reduction r, const T& acc, const T& v) {
  if (r == Reduction::None) return v;
  if constexpr (std::is_same_v<T, std::string>) {
    ctx.fail("reduction is not defined for strings");
  } else if constexpr (std::is_same_v<T, bool>) {
    return r == Reduction::Add ? (acc || v) : (acc && v);
  } else if constexpr (std::is_integral_v<T>) {
    return r == Reduction::Add ? wrapping_add(acc, v) : wrapping_mul(acc, v);
  } else if constexpr (is_complex_v<T>) {
    return r == Reduction::Add ? acc + v : acc * v;
  } else {
    using C = compute_t<T>;
    C x = static_cast<C>(acc), y = static_cast<C>(v);
    return to_storage<T>(r == Reduction::Add ? x + y : x * y);
  }
}

// ScatterElements / Scatter: a copy of data where, for every position p of updates,
// out[p with p[axis] replaced by indices[p]] = updates[p], or combined with the value already
// there by the reduction. Updates apply in row-major order of p (with duplicates and no
// reduction the last one wins). Negative indices count from the end; out of range traps.
inline Tensor scatter_elements(const OpContext& ctx, const Tensor& data, const Tensor& indices, const Tensor& updates,
                               int64_t axis_attr, Reduction reduction) {
  int64_t rank = data.rank();
  if (rank == 0) ctx.fail("data must have rank >= 1");
  if (indices.rank() != rank) ctx.fail("indices must have the same rank as data");
  if (updates.shape() != indices.shape()) ctx.fail("updates and indices must have the same shape");
  if (updates.dtype() != data.dtype()) ctx.fail("updates and data have different element types");
  int64_t axis = normalize_axis(ctx, axis_attr, rank);
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && indices.dim(d) > data.dim(d))
      ctx.fail("indices shape " + shape_str(indices.shape()) + " exceeds data shape " + shape_str(data.shape()) +
               " outside the axis");
  std::vector<int64_t> idx = int_values(ctx, indices, "indices");
  auto strides = strides_of(data.shape());
  Tensor out = data;
  visit_dtype(data.dtype(), [&]<class T>() {
    T* dst = out.data<T>();
    const T* src = updates.data<T>();
    for_each_index(indices.shape(), [&](const std::vector<int64_t>& p, int64_t lin) {
      int64_t target = 0;
      for (size_t d = 0; d < p.size(); ++d) {
        int64_t coord = static_cast<int64_t>(d) == axis
                            ? checked_index(ctx, idx[static_cast<size_t>(lin)], data.dim(axis), "index")
                            : p[d];
        target += coord * strides[d];
      }
      dst[target] = reduce_values<T>(ctx, reduction, dst[target], src[lin]);
    });
  });
  return out;
}

}  // namespace sonnx::opsb
