// Indexing and data movement (Reshape, Transpose, Slice, Gather, Scatter, Pad, Concat, Split,
// Unique, TopK, Einsum, the sequence operators, ...): integer index inputs, element copies by
// index map or by block, slicing/concatenating/stacking along an axis, and value orderings.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "reference/ops/params/scatter.h"
#include "cast.h"
#include "kernel.h"

namespace sonnx::support {

// Pad's reflect and wrap modes (reference/ops/Pad.cpp, optimized/kernels/pad.cpp): the position in
// [0, dim) that coordinate i reads, i outside [0, dim) relative to the unpadded data. Reflect
// mirrors without repeating the edge; wrap repeats the data left after cropping negative pads
// (begin, end < 0), [lo, hi), periodically.
inline int64_t pad_reflect_index(int64_t i, int64_t dim) {
  if (dim == 1) return 0;
  int64_t period = 2 * (dim - 1);
  int64_t m = i % period;
  if (m < 0) m += period;
  return m < dim ? m : period - m;
}
inline int64_t pad_wrap_index(int64_t i, int64_t dim, int64_t begin, int64_t end) {
  int64_t lo = begin < 0 ? -begin : 0, hi = end < 0 ? dim + end : dim;
  int64_t m = (i - lo) % (hi - lo);
  if (m < 0) m += hi - lo;
  return lo + m;
}

// An integer-typed tensor (any integer element type) read as int64 values; traps otherwise.
inline std::vector<int64_t> int_values(const OpContext& ctx, const Tensor& t, const std::string& what) {
  if (!is_integer(t.dtype())) ctx.fail(what + " must be an integer tensor, got " + std::string(dtype_name(t.dtype())));
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

// Element storage by width, for kernels that only move elements and never look at their values:
// one path for every element type. Strings move as strings (width 0), every other type as its
// dtype_size bytes, which covers the small types (float8, float4, int4, int2, ...: one byte per
// element in memory, small_types.h; TensorProto packing is the loader's business, packing.h).
template <class F>
decltype(auto) visit_element_width(DType type, F&& f) {
  if (type == DType::String) return f.template operator()<0>();
  switch (dtype_size(type)) {
    case 1: return f.template operator()<1>();
    case 2: return f.template operator()<2>();
    case 4: return f.template operator()<4>();
    case 8: return f.template operator()<8>();
    case 16: return f.template operator()<16>();
    default: break;
  }
  throw InternalError("no element storage for type " + std::string(dtype_name(type)));
}

// dst[d] = src[s] for two tensors of one element type of width N (visit_element_width).
template <size_t N>
void move_element(const Tensor& src, int64_t s, Tensor& dst, int64_t d) {
  if constexpr (N == 0) dst.data<std::string>()[d] = src.data<std::string>()[s];
  else std::memcpy(dst.raw() + static_cast<size_t>(d) * N, src.raw() + static_cast<size_t>(s) * N, N);
}

// A new tensor of `out_shape` and in's element type whose element i is in[map[i]] (any element
// type). A map entry of -1 takes `fill` (element 0 of a tensor of the same type) or, without
// fill, the type's zero value (0, false, empty string; the all-zero byte of a small type).
inline Tensor take(const Tensor& in, const Shape& out_shape, const std::vector<int64_t>& map, const Tensor* fill = nullptr) {
  Tensor out(in.dtype(), out_shape);
  if (fill && fill->dtype() != in.dtype()) throw InternalError("take: fill has another element type");
  visit_element_width(in.dtype(), [&]<size_t N>() {
    for (int64_t i = 0; i < out.size(); ++i) {
      int64_t s = map[static_cast<size_t>(i)];
      if (s >= 0) move_element<N>(in, s, out, i);
      else if (fill) move_element<N>(*fill, 0, out, i);
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

// Elementwise reduction used by ScatterElements / ScatterND (reduction="add" / "mul", from opset
// 18 also "max" / "min"): integers wrap, 16-bit floats compute in float and round back, bool uses
// numpy's meaning (add = max = or, mul = min = and), max/min propagate NaN (numpy.maximum).
// Strings cannot be reduced, complex numbers only added or multiplied.
// (Reduction and its reading: reference/ops/params/scatter.h.)
template <class T>
T reduce_values(const OpContext& ctx, Reduction r, const T& acc, const T& v) {
  if (r == Reduction::None) return v;
  if constexpr (std::is_same_v<T, std::string>) {
    ctx.fail("reduction is not defined for strings");
  } else if constexpr (std::is_same_v<T, bool>) {
    return r == Reduction::Add || r == Reduction::Max ? (acc || v) : (acc && v);
  } else if constexpr (is_complex_v<T>) {
    if (r == Reduction::Max || r == Reduction::Min) ctx.fail("reduction max/min is not defined for complex numbers");
    return r == Reduction::Add ? acc + v : acc * v;
  } else {
    using C = compute_t<T>;
    C x = static_cast<C>(acc), y = static_cast<C>(v);
    if (r == Reduction::Max || r == Reduction::Min) {
      if constexpr (!std::is_integral_v<T>) {
        if (x != x) return acc;  // NaN propagates
        if (y != y) return v;
      }
      return (r == Reduction::Max ? y > x : y < x) ? v : acc;
    }
    if constexpr (std::is_integral_v<T>) return r == Reduction::Add ? wrap_add<T>(acc, v) : wrap_mul<T>(acc, v);
    else return to_storage<T>(r == Reduction::Add ? x + y : x * y);
  }
}

// GatherElements / ScatterElements: for every position p of `indices` (row-major), the linear index
// into a tensor of `data_shape` at p with p[axis] (axis normalized) replaced by indices[p].
// Negative indices count from the end; an index out of range, or a dim of indices outside the
// axis larger than data's, traps.
inline std::vector<int64_t> axis_index_map(const OpContext& ctx, const Shape& data_shape, const Tensor& indices, int64_t axis) {
  for (size_t d = 0; d < data_shape.size(); ++d)
    if (static_cast<int64_t>(d) != axis && indices.shape()[d] > data_shape[d])
      ctx.fail("indices shape " + shape_str(indices.shape()) + " exceeds data shape " + shape_str(data_shape) +
               " outside the axis");
  std::vector<int64_t> idx = int_values(ctx, indices, "indices");
  auto strides = strides_of(data_shape);
  std::vector<int64_t> map(idx.size());
  for_each_index(indices.shape(), [&](const std::vector<int64_t>& p, int64_t lin) {
    int64_t at = 0;
    for (size_t d = 0; d < p.size(); ++d) {
      int64_t coord = static_cast<int64_t>(d) == axis ? checked_index(ctx, idx[static_cast<size_t>(lin)], data_shape[d], "index")
                                                      : p[d];
      at += coord * strides[d];
    }
    map[static_cast<size_t>(lin)] = at;
  });
  return map;
}

// ScatterND (and its enclosure): index tuple t of `indices` (length k = indices.shape[-1]) addresses
// the `slice` elements of data (an element when k = rank, else data.shape[k:]) that start at flat
// offset base[t]. Negative indices count from the end; out of range traps.
struct ScatterSlices {
  std::vector<int64_t> base;
  int64_t slice = 0;
};
inline ScatterSlices scatter_nd_slices(const OpContext& ctx, const Shape& data_shape, const Tensor& indices) {
  size_t q = indices.shape().size(), k = static_cast<size_t>(indices.shape()[q - 1]);
  std::vector<int64_t> idx = int_values(ctx, indices, "indices");
  int64_t tuples = element_count(indices.shape(), 0, q - 1);
  auto strides = strides_of(data_shape);
  ScatterSlices s{std::vector<int64_t>(static_cast<size_t>(tuples), 0), element_count(data_shape, k)};
  for (int64_t t = 0; t < tuples; ++t)
    for (size_t j = 0; j < k; ++j)
      s.base[static_cast<size_t>(t)] += checked_index(ctx, idx[static_cast<size_t>(t) * k + j], data_shape[j], "index") *
                                        strides[j];
  return s;
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
  std::vector<int64_t> target = axis_index_map(ctx, data.shape(), indices, axis);
  Tensor out = data;
  if (reduction == Reduction::None) {  // a plain copy: any element type
    visit_element_width(data.dtype(), [&]<size_t N>() {
      for (size_t i = 0; i < target.size(); ++i) move_element<N>(updates, static_cast<int64_t>(i), out, target[i]);
    });
    return out;
  }
  visit_dtype(data.dtype(), [&]<class T>() {
    T* dst = out.data<T>();
    const T* src = updates.data<T>();
    for (size_t i = 0; i < target.size(); ++i) dst[target[i]] = reduce_values<T>(ctx, reduction, dst[target[i]], src[i]);
  });
  return out;
}

// Copies `count` consecutive elements from src[src_off...] to dst[dst_off...]. Both tensors must
// have the same element type. Strings are copied as strings, everything else as bytes.
inline void copy_elements(const Tensor& src, int64_t src_off, Tensor& dst, int64_t dst_off, int64_t count) {
  if (count <= 0) return;
  if (src.dtype() == DType::String) {
    const std::string* s = src.data<std::string>();
    std::string* d = dst.data<std::string>();
    for (int64_t i = 0; i < count; ++i) d[dst_off + i] = s[src_off + i];
    return;
  }
  size_t es = dtype_size(src.dtype());
  std::memcpy(dst.raw() + static_cast<size_t>(dst_off) * es, src.raw() + static_cast<size_t>(src_off) * es,
              static_cast<size_t>(count) * es);
}

// The sub-tensor t[..., start:start+len, ...] along `axis` (axis already normalized; range checked by
// the caller). The axis is kept, with size len.
inline Tensor slice_axis(const Tensor& t, int64_t axis, int64_t start, int64_t len) {
  Shape out_shape = t.shape();
  size_t ax = static_cast<size_t>(axis);
  int64_t dim = out_shape[ax];
  out_shape[ax] = len;
  Tensor out(t.dtype(), out_shape);
  int64_t outer = element_count(t.shape(), 0, ax);
  int64_t inner = element_count(t.shape(), ax + 1, t.shape().size());
  for (int64_t o = 0; o < outer; ++o) copy_elements(t, (o * dim + start) * inner, out, o * len * inner, len * inner);
  return out;
}

// t indexed at position `index` along `axis`: rank one less than t.
inline Tensor take_axis(const Tensor& t, int64_t axis, int64_t index) {
  Tensor s = slice_axis(t, axis, index, 1);
  Shape shape = t.shape();
  shape.erase(shape.begin() + axis);
  return s.reshaped(shape);
}

// Concatenates tensors along an existing axis (normalized). All parts must share element type, rank
// and every dim but `axis`; traps through ctx otherwise. At least one part is required.
inline Tensor concat_axis(const OpContext& ctx, const std::vector<Tensor>& parts, int64_t axis) {
  if (parts.empty()) ctx.fail("nothing to concatenate");
  const Tensor& first = parts[0];
  size_t ax = static_cast<size_t>(axis);
  Shape out_shape = first.shape();
  out_shape[ax] = 0;
  for (const Tensor& p : parts) {
    if (p.dtype() != first.dtype())
      ctx.fail("tensors of different element types (" + std::string(dtype_name(first.dtype())) + ", " +
               std::string(dtype_name(p.dtype())) + ") cannot be concatenated");
    if (p.rank() != first.rank()) ctx.fail("tensors of different ranks cannot be concatenated");
    for (size_t d = 0; d < out_shape.size(); ++d)
      if (d != ax && p.shape()[d] != first.shape()[d])
        ctx.fail("shapes " + shape_str(first.shape()) + " and " + shape_str(p.shape()) +
                 " differ outside the concatenation axis");
    out_shape[ax] += p.shape()[ax];
  }
  Tensor out(first.dtype(), out_shape);
  int64_t outer = element_count(out_shape, 0, ax);
  int64_t inner = element_count(out_shape, ax + 1, out_shape.size());
  int64_t pos = 0;
  for (int64_t o = 0; o < outer; ++o)
    for (const Tensor& p : parts) {
      int64_t n = p.shape()[ax] * inner;
      copy_elements(p, o * n, out, pos, n);
      pos += n;
    }
  return out;
}

// Stacks equally shaped tensors along a new axis inserted at `axis` (in [0, rank]).
inline Tensor stack_axis(const OpContext& ctx, const std::vector<Tensor>& parts, int64_t axis) {
  if (parts.empty()) ctx.fail("nothing to stack");
  std::vector<Tensor> expanded;
  expanded.reserve(parts.size());
  for (const Tensor& p : parts) {
    if (p.shape() != parts[0].shape())
      ctx.fail("values to stack have different shapes " + shape_str(parts[0].shape()) + " and " + shape_str(p.shape()));
    Shape s = p.shape();
    s.insert(s.begin() + axis, 1);
    expanded.push_back(p.reshaped(s));
  }
  return concat_axis(ctx, expanded, axis);
}

// Slice's window (reference/ops/Slice.cpp, and the C template of emit/ops_movement.cpp): per axis of
// an input of shape `in`, the first position read, the step and the output's length, from starts,
// ends, axes and steps as the version 13 text reads them: negative starts/ends count from the end;
// for a positive step start and end clamp to [0, dim], for a negative one start to [0, dim-1] and
// end to [-1, dim-1]; steps may not be 0 and axes may not repeat.
struct SliceWindow {
  std::vector<int64_t> first, step;
  Shape out_shape;
};
inline SliceWindow slice_window(const OpContext& ctx, const Shape& in, const std::vector<int64_t>& starts,
                                const std::vector<int64_t>& ends, std::vector<int64_t> axes, std::vector<int64_t> steps) {
  const auto rank = static_cast<int64_t>(in.size());
  const size_t n = starts.size();
  if (ends.size() != n) ctx.fail("starts and ends have different lengths");
  if (axes.empty() && n > 0) {
    if (static_cast<int64_t>(n) > rank) ctx.fail("more starts than input dimensions");
    for (size_t i = 0; i < n; ++i) axes.push_back(static_cast<int64_t>(i));
  }
  if (steps.empty()) steps.assign(n, 1);
  if (axes.size() != n) ctx.fail("axes and starts have different lengths");
  if (steps.size() != n) ctx.fail("steps and starts have different lengths");
  axes = normalize_axes(ctx, axes, rank);
  SliceWindow w{std::vector<int64_t>(static_cast<size_t>(rank), 0), std::vector<int64_t>(static_cast<size_t>(rank), 1), in};
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (size_t i = 0; i < n; ++i) {
    const auto a = static_cast<size_t>(axes[i]);
    if (seen[a]) ctx.fail("axis " + std::to_string(axes[i]) + " appears twice");
    seen[a] = true;
    const int64_t st = steps[i];
    if (st == 0) ctx.fail("slice step cannot be 0");
    const int64_t dim = in[a];
    int64_t s = starts[i], e = ends[i];
    if (s < 0) s += dim;  // s < 0 ≤ dim: cannot overflow
    if (e < 0) e += dim;
    int64_t len = 0;
    if (st > 0) {
      s = std::clamp<int64_t>(s, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
      // ceil((e - s) / st) in unsigned arithmetic: st may be as large as INT64_MAX.
      if (e > s) len = static_cast<int64_t>((static_cast<uint64_t>(e - s) - 1) / static_cast<uint64_t>(st) + 1);
    } else if (dim > 0) {
      s = std::clamp<int64_t>(s, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      const uint64_t abs_step = 0 - static_cast<uint64_t>(st);  // |st|, also for INT64_MIN
      if (s > e) len = static_cast<int64_t>((static_cast<uint64_t>(s - e) - 1) / abs_step + 1);
    }
    w.first[a] = s;
    w.step[a] = st;
    w.out_shape[a] = len;
  }
  return w;
}

// Reshape's output shape (reference/ops/Reshape.cpp, and the C template of emit/ops_movement.cpp)
// for data of shape `data`: -1 (at most once) inferred from the element count, 0 the input's
// dimension at that position unless allow_zero.
inline Shape reshaped_shape(const OpContext& ctx, const Shape& data, const std::vector<int64_t>& requested, bool allow_zero) {
  Shape shape = requested;
  const auto rank = static_cast<int64_t>(data.size());
  const int64_t count = shape_size(data);
  int64_t infer_at = -1;
  bool has_zero = false;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (infer_at >= 0) ctx.fail("the shape may contain -1 at most once");
      infer_at = static_cast<int64_t>(i);
    } else if (shape[i] == 0) {
      has_zero = true;
      if (!allow_zero) {
        if (static_cast<int64_t>(i) >= rank)
          ctx.fail("shape entry " + std::to_string(i) + " is 0 but the input has no dimension there");
        shape[i] = data[i];
      }
    } else if (shape[i] < -1) {
      ctx.fail("invalid shape entry " + std::to_string(shape[i]));
    }
  }
  if (allow_zero && has_zero && infer_at >= 0) ctx.fail("with allowzero=1 the shape may not contain both 0 and -1");
  if (infer_at >= 0) {
    int64_t known = 1;
    for (size_t i = 0; i < shape.size(); ++i)
      if (static_cast<int64_t>(i) != infer_at) known = checked_mul(ctx, known, shape[i]);
    if (known == 0) ctx.fail("cannot infer the -1 dimension when the other dimensions multiply to 0");
    if (count % known != 0) ctx.fail("cannot reshape " + shape_str(data) + " to " + shape_str(requested));
    shape[static_cast<size_t>(infer_at)] = count / known;
  }
  // shape_size traps on absurd products, so the element-count comparison is safe.
  if (shape_size(shape) != count)
    ctx.fail("cannot reshape " + shape_str(data) + " (" + std::to_string(count) + " elements) to " + shape_str(requested));
  return shape;
}

}  // namespace sonnx::support
