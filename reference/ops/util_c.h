// Shared helpers of the reduction, softmax, normalization and loss operators (helper group "c").
//
// Precision policy of this group: every floating element type (float16, bfloat16, float, double)
// is read as double, the literal math of the operator is done in double, and each result is
// rounded once to its element type. For float16/bfloat16 the double → 16-bit rounding goes
// through float with round-to-odd, so the two-step conversion equals a single correct
// round-to-nearest-even from double (no double-rounding error).
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_util.h"

namespace sonnx::util_c {

// ---------------------------------------------------------------------------------------------
// Conversions between storage types and double.

// double → float rounded to odd: truncate toward zero, and if anything was lost set the last
// mantissa bit. Rounding that float to a type with at most 22 mantissa bits (float16: 10,
// bfloat16: 7) gives the correctly rounded result of the original double.
inline float float_round_to_odd(double d) {
  if (std::isnan(d) || std::isinf(d)) return static_cast<float>(d);
  float f = static_cast<float>(d);  // nearest (may be ±inf on overflow)
  if (std::isinf(f)) f = std::copysign(std::numeric_limits<float>::max(), f);
  if (std::fabs(static_cast<double>(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);  // now truncated
  if (static_cast<double>(f) != d) f = std::bit_cast<float>(std::bit_cast<uint32_t>(f) | 1u);
  return f;
}

// A floating storage value as double (exact for every floating type).
template <class T>
inline double to_double(T v) {
  return static_cast<double>(static_cast<compute_t<T>>(v));
}

// double rounded to the floating storage type T (round to nearest even).
template <class T>
inline T from_double(double d) {
  static_assert(is_floating_v<T>, "from_double is for floating types");
  if constexpr (std::is_same_v<T, double>) return d;
  else if constexpr (std::is_same_v<T, float>) return static_cast<float>(d);
  else return T(float_round_to_odd(d));
}

// double → integer T the way Cast does it here: truncation toward zero, saturating at the limits
// of T, NaN → 0 (never undefined behaviour).
template <class T>
inline T saturate_from_double(double d) {
  static_assert(std::is_integral_v<T>, "integer types only");
  if (std::isnan(d)) return T(0);
  if (d <= static_cast<double>(std::numeric_limits<T>::lowest())) return std::numeric_limits<T>::lowest();
  if (d >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return static_cast<T>(d);
}

// All elements of a floating tensor as doubles; traps for other element types.
inline std::vector<double> float_values(const OpContext& ctx, const Tensor& t) {
  return visit_float(ctx, t.dtype(), [&]<class T>() {
    std::vector<double> out(static_cast<size_t>(t.size()));
    const T* p = t.data<T>();
    for (int64_t i = 0; i < t.size(); ++i) out[static_cast<size_t>(i)] = to_double(p[i]);
    return out;
  });
}

// A floating tensor of element type `type` holding `values` rounded to that type.
inline Tensor float_tensor(const OpContext& ctx, DType type, const Shape& shape, const std::vector<double>& values) {
  Tensor out(type, shape);
  if (static_cast<int64_t>(values.size()) != out.size()) ctx.fail("internal: value count does not match the shape");
  visit_float(ctx, type, [&]<class T>() {
    T* p = out.data<T>();
    for (int64_t i = 0; i < out.size(); ++i) p[i] = from_double<T>(values[static_cast<size_t>(i)]);
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Shapes and axes.

inline int64_t product(const Shape& s, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to && i < s.size(); ++i) p *= s[i];
  return p;
}

// A tensor seen as [outer, n, inner]: element (o, k, i) is at (o * n + k) * inner + i.
struct AxisView {
  int64_t outer = 1, n = 1, inner = 1;
  int64_t at(int64_t o, int64_t k, int64_t i) const { return (o * n + k) * inner + i; }
};

// The single-axis view (opset ≥ 13 Softmax family, ArgMax, LpNormalization, ...).
inline AxisView axis_view(const Shape& s, int64_t axis) {
  auto a = static_cast<size_t>(axis);
  return {product(s, 0, a), s[a], product(s, a + 1, s.size())};
}

// The "coerced to 2-D at axis" view of opset ≤ 12 Softmax/LogSoftmax/Hardmax: rows are
// d[0]*...*d[axis-1], each row d[axis]*...*d[r-1] long.
inline AxisView coerced_2d_view(const Shape& s, int64_t axis) {
  auto a = static_cast<size_t>(axis);
  return {product(s, 0, a), product(s, a, s.size()), 1};
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

// One group of an integer reduction. Sum, Prod, L1 and SumSquare wrap modulo 2^bits (computed in
// uint64_t, which wraps by definition, then truncated to T). Max/Min are exact (empty: the lowest
// resp. highest value of T). Mean is the exact mean truncated toward zero (sum in 128 bits, which
// cannot overflow for any tensor that fits in memory). L2, LogSum and LogSumExp are computed in
// double and converted back like Cast (truncation toward zero, saturating).
template <class T>
T reduce_group_int(const OpContext& ctx, ReduceKind kind, const std::vector<T>& v) {
  using U = uint64_t;
  U acc = 0;
  switch (kind) {
    case ReduceKind::Sum:
      for (T x : v) acc += static_cast<U>(x);
      return static_cast<T>(acc);
    case ReduceKind::Prod:
      acc = 1;
      for (T x : v) acc *= static_cast<U>(x);
      return static_cast<T>(acc);
    case ReduceKind::L1:
      for (T x : v) {
        bool negative = false;
        if constexpr (std::is_signed_v<T>) negative = x < T(0);
        acc += negative ? U(0) - static_cast<U>(x) : static_cast<U>(x);
      }
      return static_cast<T>(acc);
    case ReduceKind::SumSquare:
      for (T x : v) acc += static_cast<U>(x) * static_cast<U>(x);
      return static_cast<T>(acc);
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
      return saturate_from_double<T>(reduce_group_double(kind, d));
    }
  }
  return T(0);
}

// Runs a reduction. `axes` empty means all axes, unless noop_with_empty_axes (ReduceSum-13),
// where the input is returned unchanged.
inline Tensor reduce_tensor(const OpContext& ctx, ReduceKind kind, const Tensor& x, const std::vector<int64_t>& axes,
                            bool keepdims, bool noop_with_empty_axes) {
  if (axes.empty() && noop_with_empty_axes) return x;
  std::vector<bool> reduced(static_cast<size_t>(x.rank()), true);
  if (!axes.empty()) reduced = axis_flags(ctx, axes, x.rank());
  ReduceGeometry g = reduce_geometry(x.shape(), reduced, keepdims);
  return visit_real(ctx, x.dtype(), [&]<class T>() {
    Tensor out(x.dtype(), g.out_shape);
    T* po = out.data<T>();
    const T* px = x.data<T>();
    if constexpr (is_floating_v<T>) {
      std::vector<std::vector<double>> groups(static_cast<size_t>(g.out_size));
      for (int64_t i = 0; i < x.size(); ++i) groups[static_cast<size_t>(g.out_index[static_cast<size_t>(i)])].push_back(to_double(px[i]));
      for (int64_t o = 0; o < g.out_size; ++o) po[o] = from_double<T>(reduce_group_double(kind, groups[static_cast<size_t>(o)]));
    } else {
      std::vector<std::vector<T>> groups(static_cast<size_t>(g.out_size));
      for (int64_t i = 0; i < x.size(); ++i) groups[static_cast<size_t>(g.out_index[static_cast<size_t>(i)])].push_back(px[i]);
      for (int64_t o = 0; o < g.out_size; ++o) po[o] = reduce_group_int<T>(ctx, kind, groups[static_cast<size_t>(o)]);
    }
    return out;
  });
}

// The reduction kernels of opsets 1–13 with an `axes` attribute (absent or empty = all axes).
inline std::vector<Value> reduce_with_axes_attribute(OpContext& ctx, ReduceKind kind) {
  return one(reduce_tensor(ctx, kind, ctx.input(0), ctx.attr_ints("axes", {}), ctx.attr_int("keepdims", 1) != 0, false));
}

// The reduction kernels with an optional `axes` input and noop_with_empty_axes (ReduceSum-13).
inline std::vector<Value> reduce_with_axes_input(OpContext& ctx, ReduceKind kind) {
  std::vector<int64_t> axes = optional_ints_input(ctx, 1, {});
  return one(reduce_tensor(ctx, kind, ctx.input(0), axes, ctx.attr_int("keepdims", 1) != 0,
                           ctx.attr_int("noop_with_empty_axes", 0) != 0));
}

// ---------------------------------------------------------------------------------------------
// ArgMax / ArgMin.

// Index of the maximum (or minimum) along `axis`. Ties: the first occurrence, or the last with
// select_last_index (opset ≥ 12). NaN counts as the extreme value, as numpy.argmax/argmin (which
// the ONNX test generators use) treat it: the first (last) NaN wins.
inline std::vector<Value> arg_extreme(OpContext& ctx, bool want_max) {
  const Tensor& x = ctx.input(0);
  int64_t axis = normalize_axis(ctx, ctx.attr_int("axis", 0), x.rank());
  bool keepdims = ctx.attr_int("keepdims", 1) != 0;
  bool select_last = ctx.version() >= 12 && ctx.attr_int("select_last_index", 0) != 0;
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

// ---------------------------------------------------------------------------------------------
// Softmax, LogSoftmax, Hardmax.

enum class SoftmaxKind { Softmax, LogSoftmax, Hardmax };

// Applies the operation to every line (o, ·, i) of `in` seen through `v`, writing `out`.
inline void softmax_lines(SoftmaxKind kind, const AxisView& v, const std::vector<double>& in, std::vector<double>& out) {
  for (int64_t o = 0; o < v.outer; ++o)
    for (int64_t i = 0; i < v.inner; ++i) {
      auto at = [&](int64_t k) { return static_cast<size_t>(v.at(o, k, i)); };
      if (v.n == 0) continue;
      if (kind == SoftmaxKind::Hardmax) {
        // 1 at the first maximum (NaN counts as the maximum, as numpy.argmax), 0 elsewhere.
        int64_t best = 0;
        for (int64_t k = 1; k < v.n; ++k) {
          double c = in[at(k)], b = in[at(best)];
          if (!std::isnan(b) && (std::isnan(c) || c > b)) best = k;
        }
        for (int64_t k = 0; k < v.n; ++k) out[at(k)] = k == best ? 1.0 : 0.0;
        continue;
      }
      // With m the maximum of the line, exp(x - m) / sum(exp(x - m)) and (x - m) - log(sum(exp(x - m)))
      // are the same values as the textbook formulas, without overflowing exp.
      double m = -std::numeric_limits<double>::infinity();
      for (int64_t k = 0; k < v.n; ++k) {
        double c = in[at(k)];
        if (std::isnan(c)) {  // a NaN makes the whole line NaN
          m = c;
          break;
        }
        if (c > m) m = c;
      }
      double sum = 0;
      for (int64_t k = 0; k < v.n; ++k) sum += std::exp(in[at(k)] - m);
      for (int64_t k = 0; k < v.n; ++k) {
        double d = in[at(k)] - m;
        out[at(k)] = kind == SoftmaxKind::Softmax ? std::exp(d) / sum : d - std::log(sum);
      }
    }
}

// Opset ≤ 12: the input is coerced to 2-D at `axis` (default 1) and each row of
// d[axis]*...*d[r-1] elements is normalized. Opset ≥ 13: one axis (default -1).
inline std::vector<Value> softmax_family(OpContext& ctx, SoftmaxKind kind) {
  const Tensor& x = ctx.input(0);
  bool coerced = ctx.version() < 13;
  int64_t axis = normalize_axis(ctx, ctx.attr_int("axis", coerced ? 1 : -1), x.rank());
  AxisView v = coerced ? coerced_2d_view(x.shape(), axis) : axis_view(x.shape(), axis);
  std::vector<double> in = float_values(ctx, x);
  std::vector<double> out(in.size());
  softmax_lines(kind, v, in, out);
  return one(float_tensor(ctx, x.dtype(), x.shape(), out));
}

// ---------------------------------------------------------------------------------------------
// NegativeLogLikelihoodLoss (and the second half of SoftmaxCrossEntropyLoss).

// logp: the (N, C, D1..Dk) input as doubles; target: (N, D1..Dk) int32/int64 class indices;
// weight: optional (C). Per sample: loss = -logp[n, t, d] * w, w = weight[t] (1 without weights);
// samples whose target equals ignore_index get loss 0 and w 0. reduction "none" returns the losses
// (target's shape), "sum" their sum, "mean" sum(loss) / sum(w): with neither weights nor
// ignore_index that is the plain mean; with ignore_index only, the mean over the samples not
// ignored (as the ONNX test generators and PyTorch do). Any other target value outside [0, C)
// traps. Result of element type `type`.
inline Tensor nll_loss(const OpContext& ctx, const std::vector<double>& logp, const Shape& in_shape, DType type,
                       const Tensor& target, const Tensor* weight) {
  if (in_shape.size() < 2) ctx.fail("input must have shape (N, C, D1, ..., Dk)");
  if (target.dtype() != DType::Int32 && target.dtype() != DType::Int64) ctx.fail("target must be int32 or int64");
  Shape expect_target = in_shape;
  expect_target.erase(expect_target.begin() + 1);
  if (target.shape() != expect_target)
    ctx.fail("target shape " + shape_str(target.shape()) + " does not match input shape " + shape_str(in_shape));
  int64_t c = in_shape[1];
  std::vector<double> w_class;
  if (weight) {
    w_class = float_values(ctx, *weight);
    if (static_cast<int64_t>(w_class.size()) != c || weight->rank() != 1) ctx.fail("weight must have shape (C)");
  }
  std::string reduction = ctx.attr_string("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean") ctx.fail("unknown reduction '" + reduction + "'");
  bool has_ignore = ctx.has_attr("ignore_index");
  int64_t ignore = ctx.attr_int("ignore_index", 0);
  AxisView v = axis_view(in_shape, 1);  // [N, C, D1*...*Dk]
  std::vector<int64_t> t = target.to_int64_vector();
  std::vector<double> loss(t.size()), w(t.size());
  for (int64_t n = 0; n < v.outer; ++n)
    for (int64_t d = 0; d < v.inner; ++d) {
      auto s = static_cast<size_t>(n * v.inner + d);
      if (has_ignore && t[s] == ignore) {
        loss[s] = 0;
        w[s] = 0;
        continue;
      }
      if (t[s] < 0 || t[s] >= c) ctx.fail("target value " + std::to_string(t[s]) + " is outside [0, C)");
      w[s] = weight ? w_class[static_cast<size_t>(t[s])] : 1.0;
      loss[s] = -logp[static_cast<size_t>(v.at(n, t[s], d))] * w[s];
    }
  if (reduction == "none") return float_tensor(ctx, type, target.shape(), loss);
  double sum = 0, wsum = 0;
  for (size_t s = 0; s < loss.size(); ++s) {
    sum += loss[s];
    wsum += w[s];
  }
  return float_tensor(ctx, type, {}, {reduction == "sum" ? sum : sum / wsum});
}

}  // namespace sonnx::util_c
