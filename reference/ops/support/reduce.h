// Reductions along axes (ReduceSum, ReduceMean, ... and ArgMax/ArgMin), and the axis views the
// reductions, Softmax and the normalizations share.
//
// Precision: every floating element type is read as double, the operator's math is done in double
// and each result is rounded once to its element type (round_from_double in numeric.h).
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kernel.h"
#include "reference/ops/params/reduce.h"

namespace sonnx::support {

// A tensor seen as [outer, n, inner]: element (o, k, i) is at (o * n + k) * inner + i.
struct AxisView {
  int64_t outer = 1, n = 1, inner = 1;
  int64_t at(int64_t o, int64_t k, int64_t i) const { return (o * n + k) * inner + i; }
};

// The single-axis view (opset ≥ 13 Softmax family, ArgMax, LpNormalization, ...).
inline AxisView axis_view(const Shape& s, int64_t axis) {
  auto a = static_cast<size_t>(axis);
  return {element_count(s, 0, a), s[a], element_count(s, a + 1)};
}

// The "coerced to 2-D at axis" view of opset ≤ 12 Softmax/LogSoftmax/Hardmax: rows are
// d[0]*...*d[axis-1], each row d[axis]*...*d[r-1] long.
inline AxisView coerced_2d_view(const Shape& s, int64_t axis) {
  auto a = static_cast<size_t>(axis);
  return {element_count(s, 0, a), element_count(s, a), 1};
}

// Normalized axes as a per-dimension flag; traps on a repeated axis.
inline std::vector<bool> axis_flags(const OpContext& ctx, const std::vector<int64_t>& axes, int64_t rank) {
  std::vector<bool> flag(static_cast<size_t>(rank), false);
  for (int64_t a : normalize_axes(ctx, axes, rank)) {
    if (flag[static_cast<size_t>(a)]) ctx.fail("axis " + std::to_string(a) + " is given more than once");
    flag[static_cast<size_t>(a)] = true;
  }
  return flag;
}

// Where each input element goes when the flagged dims are reduced.
struct ReduceGeometry {
  Shape out_shape;                 // reduced dims kept as 1 (keepdims) or removed
  int64_t out_size = 0;            // elements of the output
  std::vector<int64_t> out_index;  // for every input element (row-major), its output element
};

inline ReduceGeometry reduce_geometry(const Shape& in, const std::vector<bool>& reduced, bool keepdims) {
  ReduceGeometry g;
  Shape kept(in.size());
  for (size_t d = 0; d < in.size(); ++d) {
    kept[d] = reduced[d] ? 1 : in[d];
    if (!reduced[d]) g.out_shape.push_back(in[d]);
    else if (keepdims) g.out_shape.push_back(1);
  }
  g.out_size = shape_size(kept);
  auto kept_strides = strides_of(kept);
  g.out_index.resize(static_cast<size_t>(shape_size(in)));
  for_each_index(in, [&](const std::vector<int64_t>& idx, int64_t lin) {
    int64_t o = 0;
    for (size_t d = 0; d < in.size(); ++d)
      if (!reduced[d]) o += idx[d] * kept_strides[d];
    g.out_index[static_cast<size_t>(lin)] = o;
  });
  return g;
}

// ---------------------------------------------------------------------------------------------
// Reductions (ReduceSum, ReduceMean, ...).

enum class ReduceKind { Sum, Mean, Max, Min, Prod, L1, L2, LogSum, LogSumExp, SumSquare };

// One group of a floating reduction, in double. An empty group gives the identity element of the
// operation (0 for sums, 1 for Prod, -inf for Max and LogSumExp, +inf for Min, log(0) = -inf for
// LogSum) and NaN for Mean (0/0).
inline double reduce_group_double(ReduceKind kind, const std::vector<double>& v) {
  const double inf = std::numeric_limits<double>::infinity();
  double acc = 0;
  switch (kind) {
    case ReduceKind::Sum:
      for (double x : v) acc += x;
      return acc;
    case ReduceKind::Mean:
      for (double x : v) acc += x;
      return acc / static_cast<double>(v.size());
    case ReduceKind::Max:
      acc = -inf;
      for (double x : v) {
        if (std::isnan(x)) return x;  // NaN propagates (as numpy.max)
        if (x > acc) acc = x;
      }
      return acc;
    case ReduceKind::Min:
      acc = inf;
      for (double x : v) {
        if (std::isnan(x)) return x;
        if (x < acc) acc = x;
      }
      return acc;
    case ReduceKind::Prod:
      acc = 1;
      for (double x : v) acc *= x;
      return acc;
    case ReduceKind::L1:
      for (double x : v) acc += std::fabs(x);
      return acc;
    case ReduceKind::L2:
      for (double x : v) acc += x * x;
      return std::sqrt(acc);
    case ReduceKind::LogSum:
      for (double x : v) acc += x;
      return std::log(acc);
    case ReduceKind::LogSumExp: {
      // log(sum(exp(x))) computed as m + log(sum(exp(x - m))) with m the maximum: the same value,
      // without overflowing exp for large x.
      double m = reduce_group_double(ReduceKind::Max, v);
      if (std::isnan(m) || std::isinf(m)) return m;  // NaN; all -inf or empty → -inf; any +inf → +inf
      for (double x : v) acc += std::exp(x - m);
      return m + std::log(acc);
    }
    case ReduceKind::SumSquare:
      for (double x : v) acc += x * x;
      return acc;
  }
  return acc;
}

// One group of an integer reduction. Sum, Prod, L1 and SumSquare wrap modulo 2^bits (wrap_add,
// wrap_mul). Max/Min are exact (empty: the lowest resp. highest value of T). Mean is the exact mean
// truncated toward zero (sum in 128 bits, which cannot overflow for any tensor that fits in
// memory). L2, LogSum and LogSumExp are computed in double and converted back like Cast
// (truncation toward zero, saturating).
template <class T>
T reduce_group_int(const OpContext& ctx, ReduceKind kind, const std::vector<T>& v) {
  T acc = 0;
  switch (kind) {
    case ReduceKind::Sum:
      for (T x : v) acc = wrap_add<T>(acc, x);
      return acc;
    case ReduceKind::Prod:
      acc = 1;
      for (T x : v) acc = wrap_mul<T>(acc, x);
      return acc;
    case ReduceKind::L1:
      for (T x : v) {
        bool negative = false;
        if constexpr (std::is_signed_v<T>) negative = x < T(0);
        acc = wrap_add<T>(acc, negative ? wrap_neg<T>(x) : x);
      }
      return acc;
    case ReduceKind::SumSquare:
      for (T x : v) acc = wrap_add<T>(acc, wrap_mul<T>(x, x));
      return acc;
    case ReduceKind::Max: {
      T m = std::numeric_limits<T>::lowest();
      for (T x : v) m = x > m ? x : m;
      return m;
    }
    case ReduceKind::Min: {
      T m = std::numeric_limits<T>::max();
      for (T x : v) m = x < m ? x : m;
      return m;
    }
    case ReduceKind::Mean: {
      if (v.empty()) ctx.fail("ReduceMean over an empty set of integers divides by zero");
      __int128 s = 0;
      for (T x : v) s += static_cast<__int128>(x);
      return static_cast<T>(s / static_cast<__int128>(v.size()));  // |mean| ≤ max |x|: fits in T
    }
    case ReduceKind::L2:
    case ReduceKind::LogSum:
    case ReduceKind::LogSumExp: {
      std::vector<double> d(v.begin(), v.end());
      return saturating_cast<T>(reduce_group_double(kind, d));
    }
  }
  return T(0);
}

// Max/Min of a bool tensor (ReduceMax-20, ReduceMin-20), with false < true: any / all. An empty
// group gives the lowest (false) for Max and the highest (true) for Min.
inline Tensor reduce_bool(const OpContext& ctx, ReduceKind kind, const Tensor& x, const ReduceGeometry& g) {
  if (kind != ReduceKind::Max && kind != ReduceKind::Min) ctx.fail("this reduction does not accept bool tensors");
  bool empty_value = kind == ReduceKind::Min;
  Tensor out(DType::Bool, g.out_shape);
  bool* po = out.data<bool>();
  for (int64_t o = 0; o < g.out_size; ++o) po[o] = empty_value;
  const bool* px = x.data<bool>();
  for (int64_t i = 0; i < x.size(); ++i) {
    bool& r = po[g.out_index[static_cast<size_t>(i)]];
    r = kind == ReduceKind::Max ? (r || px[i]) : (r && px[i]);
  }
  return out;
}

// Whether reducing a single element leaves it unchanged (so noop_with_empty_axes is the identity).
inline bool reduction_of_one_is_identity(ReduceKind kind) {
  return kind == ReduceKind::Sum || kind == ReduceKind::Mean || kind == ReduceKind::Max || kind == ReduceKind::Min ||
         kind == ReduceKind::Prod;
}

// Runs a reduction. `axes` empty means all axes, unless noop_with_empty_axes (ReduceSum-13, all
// reductions from 18), where the reduction runs over the empty set of axes: each element is its
// own group, so Sum/Mean/Max/Min/Prod return the input unchanged while the composite reductions
// still apply their element step (L1 and L2 give |x|, LogSum log x, LogSumExp x, SumSquare x²).
inline Tensor reduce_tensor(const OpContext& ctx, ReduceKind kind, const Tensor& x, const std::vector<int64_t>& axes,
                            bool keepdims, bool noop_with_empty_axes) {
  bool noop = axes.empty() && noop_with_empty_axes;
  if (noop && reduction_of_one_is_identity(kind)) return x;
  std::vector<bool> reduced(static_cast<size_t>(x.rank()), !noop);
  if (!axes.empty()) reduced = axis_flags(ctx, axes, x.rank());
  ReduceGeometry g = reduce_geometry(x.shape(), reduced, keepdims);
  if (x.dtype() == DType::Bool) return reduce_bool(ctx, kind, x, g);
  return visit_real(ctx, x.dtype(), [&]<class T>() {
    Tensor out(x.dtype(), g.out_shape);
    T* po = out.data<T>();
    const T* px = x.data<T>();
    if constexpr (is_floating_v<T>) {
      std::vector<std::vector<double>> groups(static_cast<size_t>(g.out_size));
      for (int64_t i = 0; i < x.size(); ++i)
        groups[static_cast<size_t>(g.out_index[static_cast<size_t>(i)])].push_back(to_double(px[i]));
      for (int64_t o = 0; o < g.out_size; ++o)
        po[o] = round_from_double<T>(reduce_group_double(kind, groups[static_cast<size_t>(o)]));
    } else {
      std::vector<std::vector<T>> groups(static_cast<size_t>(g.out_size));
      for (int64_t i = 0; i < x.size(); ++i) groups[static_cast<size_t>(g.out_index[static_cast<size_t>(i)])].push_back(px[i]);
      for (int64_t o = 0; o < g.out_size; ++o) po[o] = reduce_group_int<T>(ctx, kind, groups[static_cast<size_t>(o)]);
    }
    return out;
  });
}

// The reduction kernel of every version: `axes` from the attribute or the optional input 1, as
// ReduceParams says.
inline std::vector<Value> reduce_kernel(OpContext& ctx, ReduceKind kind) {
  ReduceParams p = ReduceParams::read(ctx, ctx.version());
  std::vector<int64_t> axes = p.axes_from_input ? optional_ints_input(ctx, 1, {}) : p.axes;
  return one(reduce_tensor(ctx, kind, ctx.input(0), axes, p.keepdims, p.noop_with_empty_axes));
}

// ---------------------------------------------------------------------------------------------
// ArgMax / ArgMin.

// Index of the maximum (or minimum) along `axis`. Ties: the first occurrence, or the last with
// select_last_index (opset ≥ 12). NaN counts as the extreme value, as numpy.argmax/argmin (which
// the ONNX test generators use) treat it: the first (last) NaN wins.
inline std::vector<Value> arg_extreme(OpContext& ctx, bool want_max) {
  const Tensor& x = ctx.input(0);
  ArgReduceParams p = ArgReduceParams::read(ctx, ctx.version());
  int64_t axis = normalize_axis(ctx, p.axis, x.rank());
  bool keepdims = p.keepdims, select_last = p.select_last_index;
  AxisView v = axis_view(x.shape(), axis);
  Shape out_shape;
  for (int64_t d = 0; d < x.rank(); ++d) {
    if (d != axis) out_shape.push_back(x.dim(d));
    else if (keepdims) out_shape.push_back(1);
  }
  Tensor out(DType::Int64, out_shape);
  if (out.size() > 0 && v.n == 0) ctx.fail("cannot take the arg extreme of an empty axis");
  int64_t* po = out.data<int64_t>();
  visit_real(ctx, x.dtype(), [&]<class T>() {
    const T* px = x.data<T>();
    for (int64_t o = 0; o < v.outer; ++o)
      for (int64_t i = 0; i < v.inner; ++i) {
        int64_t best = 0;
        auto bv = static_cast<compute_t<T>>(px[v.at(o, 0, i)]);
        for (int64_t k = 1; k < v.n; ++k) {
          auto c = static_cast<compute_t<T>>(px[v.at(o, k, i)]);
          bool better, equal;
          if constexpr (is_floating_v<T>) {
            if (std::isnan(bv)) {
              better = false;
              equal = std::isnan(c);
            } else if (std::isnan(c)) {
              better = true;
              equal = false;
            } else {
              better = want_max ? c > bv : c < bv;
              equal = c == bv;
            }
          } else {
            better = want_max ? c > bv : c < bv;
            equal = c == bv;
          }
          if (better || (select_last && equal)) {
            best = k;
            bv = c;
          }
        }
        po[o * v.inner + i] = best;
      }
  });
  return one(std::move(out));
}

// Running sums (CumSum) or products (CumProd) of x along `axis`: exclusive leaves out the current
// element (the first result is 0 or 1), reverse runs from the end. The running value is kept in the
// element type's arithmetic (float for float16/bfloat16, rounding each output); integers wrap.
template <bool Product>
Tensor running_along_axis(const OpContext& ctx, const Tensor& x, int64_t axis, bool exclusive, bool reverse) {
  int64_t n = x.dim(axis);
  int64_t outer = element_count(x.shape(), 0, static_cast<size_t>(axis));
  int64_t inner = element_count(x.shape(), static_cast<size_t>(axis) + 1, x.shape().size());
  Tensor out(x.dtype(), x.shape());
  visit_real(ctx, x.dtype(), [&]<class T>() {
    using C = compute_t<T>;
    const T* src = x.data<T>();
    T* dst = out.data<T>();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        C acc = C(Product ? 1 : 0);
        for (int64_t step = 0; step < n; ++step) {
          int64_t j = reverse ? n - 1 - step : step;
          int64_t at = (o * n + j) * inner + i;
          C v = static_cast<C>(src[at]);
          if (exclusive) dst[at] = to_storage<T>(acc);
          if constexpr (std::is_integral_v<C>) acc = Product ? wrap_mul(acc, v) : wrap_add(acc, v);
          else acc = Product ? acc * v : acc + v;
          if (!exclusive) dst[at] = to_storage<T>(acc);
        }
      }
  });
  return out;
}

}  // namespace sonnx::support
