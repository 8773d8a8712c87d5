// Helpers shared by the convolution, pooling, matrix-product and quantization kernels (group d):
// window geometry (output sizes, auto_pad, ceil_mode, dilations), the table of window taps used to
// walk a kernel window over an input, batched matrix-product geometry (numpy matmul semantics),
// and round-half-to-even quantization.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernel_util.h"

namespace sonnx::opsd {

// Integer division rounding toward −∞ / +∞ (b > 0).
inline int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}
inline int64_t ceil_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a > 0) ? q + 1 : q;
}

inline int64_t product(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (auto x : v) p *= x;
  return p;
}

// Upper bound for kernel sizes, strides, dilations and pads given as attributes: far beyond any real
// model, and small enough that the window arithmetic below cannot overflow int64 (dimensions are
// at most 2^34, see shape_size).
inline constexpr int64_t kMaxWindowValue = int64_t{1} << 24;

enum class AutoPad { NotSet, SameUpper, SameLower, Valid };

inline AutoPad auto_pad_of(const OpContext& ctx) {
  std::string s = ctx.attr_string("auto_pad", "NOTSET");
  if (s == "NOTSET" || s.empty()) return AutoPad::NotSet;
  if (s == "SAME_UPPER") return AutoPad::SameUpper;
  if (s == "SAME_LOWER") return AutoPad::SameLower;
  if (s == "VALID") return AutoPad::Valid;
  ctx.fail("auto_pad '" + s + "' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID");
}

// An INTS attribute with one value per spatial axis (strides, dilations, ...): `def` for each axis
// when absent; traps when it has the wrong length or a value below `min_value`.
inline std::vector<int64_t> per_axis_attr(const OpContext& ctx, const std::string& name, size_t rank, int64_t def,
                                          int64_t min_value) {
  std::vector<int64_t> v = ctx.attr_ints(name, std::vector<int64_t>(rank, def));
  if (v.empty()) v.assign(rank, def);  // an empty list means "absent"
  if (v.size() != rank)
    ctx.fail("attribute '" + name + "' has " + std::to_string(v.size()) + " values, expected " + std::to_string(rank));
  for (auto x : v) {
    if (x < min_value) ctx.fail("attribute '" + name + "' has value " + std::to_string(x) + " below " + std::to_string(min_value));
    if (x > kMaxWindowValue) ctx.fail("attribute '" + name + "' has an unreasonably large value " + std::to_string(x));
  }
  return v;
}

// The `pads` attribute split into begin and end pads ([x1_begin, x2_begin, ..., x1_end, x2_end, ...]).
inline void pads_attr(const OpContext& ctx, size_t rank, std::vector<int64_t>& begin, std::vector<int64_t>& end) {
  std::vector<int64_t> p = ctx.attr_ints("pads", std::vector<int64_t>(2 * rank, 0));
  if (p.empty()) p.assign(2 * rank, 0);
  if (p.size() != 2 * rank)
    ctx.fail("attribute 'pads' has " + std::to_string(p.size()) + " values, expected " + std::to_string(2 * rank));
  for (auto x : p) {
    if (x < 0) ctx.fail("attribute 'pads' has a negative value " + std::to_string(x));
    if (x > kMaxWindowValue) ctx.fail("attribute 'pads' has an unreasonably large value " + std::to_string(x));
  }
  begin.assign(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(rank));
  end.assign(p.begin() + static_cast<std::ptrdiff_t>(rank), p.end());
}

// The geometry of a window (kernel) sliding over the spatial axes of an input.
struct WindowGeometry {
  std::vector<int64_t> in, kernel, strides, dilations, pad_begin, pad_end, out;
  size_t rank() const { return in.size(); }
};

// Output size and padding of a convolution or pooling window (Conv, ConvInteger, QLinearConv,
// MaxPool, AveragePool, LpPool):
//   NOTSET:     out = floor((in + pad_begin + pad_end - ((k-1)*d + 1)) / s) + 1, or ceil(...) with
//               ceil_mode, in which case a last window that would start inside the end padding
//               (not covering any input or begin-padding element) is dropped;
//   VALID:      no padding, out = ceil((in - ((k-1)*d + 1) + 1) / s);
//   SAME_UPPER/SAME_LOWER: out = ceil(in / s) and the total padding (out-1)*s + (k-1)*d + 1 - in
//               (never negative) is split evenly, the odd element at the end (UPPER) or the
//               beginning (LOWER). Explicit pads are ignored.
inline WindowGeometry window_geometry(const OpContext& ctx, const Shape& in_spatial, const std::vector<int64_t>& kernel,
                                      const std::vector<int64_t>& strides, const std::vector<int64_t>& dilations,
                                      bool ceil_mode) {
  size_t r = in_spatial.size();
  WindowGeometry g;
  g.in = in_spatial;
  g.kernel = kernel;
  g.strides = strides;
  g.dilations = dilations;
  g.out.assign(r, 0);
  AutoPad ap = auto_pad_of(ctx);
  if (ap == AutoPad::NotSet) {
    pads_attr(ctx, r, g.pad_begin, g.pad_end);
  } else {
    g.pad_begin.assign(r, 0);
    g.pad_end.assign(r, 0);
  }
  for (size_t i = 0; i < r; ++i) {
    if (kernel[i] < 1) ctx.fail("kernel size " + std::to_string(kernel[i]) + " must be positive");
    if (kernel[i] > kMaxWindowValue) ctx.fail("kernel size " + std::to_string(kernel[i]) + " is unreasonably large");
    int64_t extent = (kernel[i] - 1) * dilations[i] + 1;  // the dilated kernel's span
    int64_t in = in_spatial[i];
    int64_t s = strides[i];
    switch (ap) {
      case AutoPad::NotSet: {
        int64_t span = in + g.pad_begin[i] + g.pad_end[i] - extent;
        if (span < 0)
          ctx.fail("the window (extent " + std::to_string(extent) + ") does not fit the padded input of size " +
                   std::to_string(in + g.pad_begin[i] + g.pad_end[i]) + " on spatial axis " + std::to_string(i));
        int64_t out = (ceil_mode ? ceil_div(span, s) : floor_div(span, s)) + 1;
        if (ceil_mode && (out - 1) * s >= in + g.pad_begin[i]) --out;
        g.out[i] = out;
        break;
      }
      case AutoPad::Valid: {
        int64_t span = in - extent;
        if (span < 0)
          ctx.fail("the window (extent " + std::to_string(extent) + ") does not fit the input of size " +
                   std::to_string(in) + " on spatial axis " + std::to_string(i));
        g.out[i] = span / s + 1;  // = ceil((in - extent + 1) / s)
        break;
      }
      case AutoPad::SameUpper:
      case AutoPad::SameLower: {
        int64_t out = ceil_div(in, s);
        int64_t total = std::max<int64_t>(0, (out - 1) * s + extent - in);
        int64_t small = total / 2;
        g.pad_begin[i] = ap == AutoPad::SameUpper ? small : total - small;
        g.pad_end[i] = total - g.pad_begin[i];
        g.out[i] = out;
        break;
      }
    }
  }
  return g;
}

// One tap of a window: the offset of an input element within its (n, c) spatial plane and the
// offset of the kernel element it meets within the kernel.
struct Tap {
  int64_t in_off;
  int64_t k_off;
};

// For every output position, the list of (input index, kernel index) pairs that contribute to it,
// stored per spatial axis (the taps of a position are the Cartesian product over the axes).
class TapTable {
 public:
  // Pairs for a direct window (convolution / pooling): input index o*s - pad_begin + k*d for each
  // kernel index k that lands inside the input (padding contributes nothing).
  static TapTable forward(const WindowGeometry& g) {
    TapTable t;
    t.init(g.in, g.kernel, g.out);
    for (size_t d = 0; d < g.rank(); ++d)
      for (int64_t o = 0; o < g.out[d]; ++o)
        for (int64_t k = 0; k < g.kernel[d]; ++k) {
          int64_t i = o * g.strides[d] - g.pad_begin[d] + k * g.dilations[d];
          if (i >= 0 && i < g.in[d]) t.pairs_[d][static_cast<size_t>(o)].push_back({i, k});
        }
    return t;
  }
  // Pairs for a transposed window (ConvTranspose): input index i meets kernel index k at output
  // position o when o + pad_begin = i*s + k*d.
  static TapTable transposed(const std::vector<int64_t>& in, const std::vector<int64_t>& kernel,
                             const std::vector<int64_t>& out, const std::vector<int64_t>& strides,
                             const std::vector<int64_t>& dilations, const std::vector<int64_t>& pad_begin) {
    TapTable t;
    t.init(in, kernel, out);
    for (size_t d = 0; d < in.size(); ++d)
      for (int64_t o = 0; o < out[d]; ++o)
        for (int64_t k = 0; k < kernel[d]; ++k) {
          int64_t pos = o + pad_begin[d] - k * dilations[d];
          if (pos < 0 || pos % strides[d] != 0) continue;
          int64_t i = pos / strides[d];
          if (i < in[d]) t.pairs_[d][static_cast<size_t>(o)].push_back({i, k});
        }
    return t;
  }

  // The taps of output position `out_idx` (a spatial multi-index), replacing the contents of `taps`.
  void taps(const std::vector<int64_t>& out_idx, std::vector<Tap>& taps) const {
    taps.clear();
    size_t r = pairs_.size();
    std::vector<const std::vector<std::pair<int64_t, int64_t>>*> lists(r);
    for (size_t d = 0; d < r; ++d) {
      lists[d] = &pairs_[d][static_cast<size_t>(out_idx[d])];
      if (lists[d]->empty()) return;
    }
    std::vector<size_t> pos(r, 0);
    while (true) {
      int64_t in_off = 0, k_off = 0;
      for (size_t d = 0; d < r; ++d) {
        const auto& p = (*lists[d])[pos[d]];
        in_off += p.first * in_strides_[d];
        k_off += p.second * k_strides_[d];
      }
      taps.push_back({in_off, k_off});
      size_t d = r;
      while (d > 0) {
        --d;
        if (++pos[d] < lists[d]->size()) break;
        pos[d] = 0;
        if (d == 0) return;
      }
      if (r == 0) return;
    }
  }

 private:
  void init(const std::vector<int64_t>& in, const std::vector<int64_t>& kernel, const std::vector<int64_t>& out) {
    size_t r = in.size();
    pairs_.assign(r, {});
    for (size_t d = 0; d < r; ++d) pairs_[d].assign(static_cast<size_t>(out[d]), {});
    in_strides_ = strides_of(in);
    k_strides_ = strides_of(kernel);
  }
  std::vector<std::vector<std::vector<std::pair<int64_t, int64_t>>>> pairs_;
  std::vector<int64_t> in_strides_, k_strides_;
};

// Everything a grouped convolution (Conv, ConvInteger, QLinearConv) needs to know about its
// operands: X [N, C, D1..Dr], W [M, C/group, k1..kr]; Y [N, M, O1..Or].
struct ConvSetup {
  int64_t N = 0, C = 0, M = 0, group = 1, Cg = 0, Mg = 0;
  WindowGeometry g;
  TapTable taps;
  int64_t in_plane = 1, out_plane = 1, k_plane = 1;
  Shape out_shape;
};

inline ConvSetup conv_setup(const OpContext& ctx, const Shape& x, const Shape& w) {
  if (x.size() < 3) ctx.fail("input X must have rank at least 3 (N, C, spatial...), got " + shape_str(x));
  if (w.size() != x.size()) ctx.fail("weight W " + shape_str(w) + " must have the rank of X " + shape_str(x));
  size_t r = x.size() - 2;
  ConvSetup s;
  s.N = x[0];
  s.C = x[1];
  s.M = w[0];
  s.group = ctx.attr_int("group", 1);
  if (s.group < 1) ctx.fail("group must be positive");
  if (s.C % s.group != 0 || s.M % s.group != 0)
    ctx.fail("channels C=" + std::to_string(s.C) + " and M=" + std::to_string(s.M) + " must be divisible by group=" +
             std::to_string(s.group));
  s.Cg = s.C / s.group;
  s.Mg = s.M / s.group;
  if (w[1] != s.Cg)
    ctx.fail("weight W " + shape_str(w) + " must have C/group=" + std::to_string(s.Cg) + " input channels");
  std::vector<int64_t> kernel(w.begin() + 2, w.end());
  if (ctx.has_attr("kernel_shape")) {
    std::vector<int64_t> ks = ctx.attr_ints("kernel_shape");
    if (ks != kernel) ctx.fail("kernel_shape does not match the weight's spatial shape " + shape_str(w));
  }
  std::vector<int64_t> strides = per_axis_attr(ctx, "strides", r, 1, 1);
  std::vector<int64_t> dilations = per_axis_attr(ctx, "dilations", r, 1, 1);
  Shape in_sp(x.begin() + 2, x.end());
  s.g = window_geometry(ctx, in_sp, kernel, strides, dilations, false);
  s.taps = TapTable::forward(s.g);
  s.in_plane = product(s.g.in);
  s.out_plane = product(s.g.out);
  s.k_plane = product(kernel);
  s.out_shape = {s.N, s.M};
  s.out_shape.insert(s.out_shape.end(), s.g.out.begin(), s.g.out.end());
  return s;
}

// The convolution sum, literally: for each image n, output position o and output channel m,
//   acc = init(m); for each input channel c of m's group and each tap: mac(acc, x_index, w_index)
// and then emit(n, m, o, acc). x_index/w_index are linear indices into X and W.
template <class Init, class Mac, class Emit>
void conv_loop(const ConvSetup& s, Init init, Mac mac, Emit emit) {
  std::vector<Tap> taps;
  Shape out_sp(s.g.out.begin(), s.g.out.end());
  for (int64_t n = 0; n < s.N; ++n) {
    for_each_index(out_sp, [&](const std::vector<int64_t>& idx, int64_t o) {
      s.taps.taps(idx, taps);
      for (int64_t gi = 0; gi < s.group; ++gi)
        for (int64_t mm = 0; mm < s.Mg; ++mm) {
          int64_t m = gi * s.Mg + mm;
          auto acc = init(m);
          for (int64_t c = 0; c < s.Cg; ++c) {
            int64_t xbase = (n * s.C + gi * s.Cg + c) * s.in_plane;
            int64_t wbase = (m * s.Cg + c) * s.k_plane;
            for (const Tap& t : taps) mac(acc, xbase + t.in_off, wbase + t.k_off);
          }
          emit(n, m, o, acc);
        }
    });
  }
}

// The global pooling operators: X is [N, C, D...], Y is [N, C, 1, ..., 1] with each Y[n, c] =
// reduce(the (n, c) plane of X). `reduce` is called as reduce.template operator()<T>(plane, size)
// with a pointer to the plane's elements and returns the T to store.
template <class Reduce>
Tensor global_pool(const OpContext& ctx, const Tensor& x, Reduce reduce) {
  if (x.rank() < 2) ctx.fail("input X must have rank at least 2 (N, C, ...), got " + shape_str(x.shape()));
  Shape out_shape(static_cast<size_t>(x.rank()), 1);
  out_shape[0] = x.dim(0);
  out_shape[1] = x.dim(1);
  int64_t planes = x.dim(0) * x.dim(1);
  int64_t plane = shape_size(Shape(x.shape().begin() + 2, x.shape().end()));
  return visit_float(ctx, x.dtype(), [&]<class T>() {
    Tensor out(x.dtype(), out_shape);
    const T* px = x.data<T>();
    T* py = out.data<T>();
    for (int64_t p = 0; p < planes; ++p) py[p] = reduce.template operator()<T>(px + p * plane, plane);
    return out;
  });
}

// The window of a pooling operator (MaxPool, AveragePool, LpPool) over X [N, C, D1..Dr]:
// kernel_shape (required), strides, pads/auto_pad, and — when the version has them — dilations
// and ceil_mode. Y is [N, C, O1..Or].
struct PoolSetup {
  int64_t N = 0, C = 0;
  WindowGeometry g;
  TapTable taps;
  int64_t in_plane = 1, out_plane = 1;
  Shape out_shape;
};

inline PoolSetup pool_setup(const OpContext& ctx, const Shape& x) {
  if (x.size() < 3) ctx.fail("input X must have rank at least 3 (N, C, spatial...), got " + shape_str(x));
  size_t r = x.size() - 2;
  if (!ctx.has_attr("kernel_shape")) ctx.fail("attribute 'kernel_shape' is required");
  std::vector<int64_t> kernel = ctx.attr_ints("kernel_shape");
  if (kernel.size() != r)
    ctx.fail("kernel_shape has " + std::to_string(kernel.size()) + " values, expected " + std::to_string(r));
  std::vector<int64_t> strides = per_axis_attr(ctx, "strides", r, 1, 1);
  std::vector<int64_t> dilations = per_axis_attr(ctx, "dilations", r, 1, 1);
  bool ceil_mode = ctx.attr_int("ceil_mode", 0) != 0;
  PoolSetup s;
  s.N = x[0];
  s.C = x[1];
  s.g = window_geometry(ctx, Shape(x.begin() + 2, x.end()), kernel, strides, dilations, ceil_mode);
  s.taps = TapTable::forward(s.g);
  s.in_plane = product(s.g.in);
  s.out_plane = product(s.g.out);
  s.out_shape = {s.N, s.C};
  s.out_shape.insert(s.out_shape.end(), s.g.out.begin(), s.g.out.end());
  return s;
}

// For each (n, c) plane and output position: f(plane_index, out_index, taps) with the plane's
// linear index p = n*C + c (its input plane starts at p*in_plane, its output at p*out_plane).
template <class F>
void pool_loop(const PoolSetup& s, F f) {
  std::vector<Tap> taps;
  Shape out_sp(s.g.out.begin(), s.g.out.end());
  for_each_index(out_sp, [&](const std::vector<int64_t>& idx, int64_t o) {
    s.taps.taps(idx, taps);
    for (int64_t p = 0; p < s.N * s.C; ++p) f(p, o, idx, taps);
  });
}

// Converts a whole real-typed tensor to doubles (float16/bfloat16 through float).
inline std::vector<double> to_doubles(const OpContext& ctx, const Tensor& t) {
  std::vector<double> v(static_cast<size_t>(t.size()));
  visit_real(ctx, t.dtype(), [&]<class T>() {
    const T* p = t.data<T>();
    for (int64_t i = 0; i < t.size(); ++i) v[static_cast<size_t>(i)] = static_cast<double>(static_cast<compute_t<T>>(p[i]));
  });
  return v;
}

// Batched matrix-product geometry with numpy.matmul semantics: a 1-D A is a row vector [1,K]
// (the 1 is removed from the result), a 1-D B a column vector [K,1] (likewise); the batch
// dimensions (all but the last two) broadcast.
struct MatMulGeometry {
  int64_t M = 0, K = 0, N = 0;
  Shape out_shape;                  // the result's shape
  Shape batch_shape;                // broadcast batch dims
  std::vector<int64_t> a_batch;     // for each batch index, the matrix index into A
  std::vector<int64_t> b_batch;     // likewise for B
  Shape a3, b3;                     // A and B viewed as [batches..., M, K] / [..., K, N]
};

inline MatMulGeometry matmul_geometry(const OpContext& ctx, const Shape& a_shape, const Shape& b_shape) {
  if (a_shape.empty() || b_shape.empty()) ctx.fail("MatMul inputs must have rank at least 1");
  MatMulGeometry g;
  Shape a = a_shape, b = b_shape;
  bool a_vec = a.size() == 1, b_vec = b.size() == 1;
  if (a_vec) a.insert(a.begin(), 1);
  if (b_vec) b.push_back(1);
  g.M = a[a.size() - 2];
  g.K = a[a.size() - 1];
  g.N = b[b.size() - 1];
  if (b[b.size() - 2] != g.K)
    ctx.fail("inner dimensions differ: " + shape_str(a_shape) + " x " + shape_str(b_shape));
  Shape ab(a.begin(), a.end() - 2), bb(b.begin(), b.end() - 2);
  g.batch_shape = broadcast_shapes(ctx, ab, bb);
  g.a_batch = broadcast_index_map(ab, g.batch_shape);
  g.b_batch = broadcast_index_map(bb, g.batch_shape);
  g.out_shape = g.batch_shape;
  if (!a_vec) g.out_shape.push_back(g.M);
  if (!b_vec) g.out_shape.push_back(g.N);
  g.a3 = a;
  g.b3 = b;
  return g;
}

// The unsigned type integer arithmetic of T wraps in: at least 32 bits, so that no operand is
// promoted to (signed) int and overflows.
template <class T>
using wrap_t = std::conditional_t<(sizeof(T) < sizeof(uint32_t)), uint32_t, std::make_unsigned_t<T>>;

// Round half to even, as ONNX quantization prescribes (std::nearbyint in the default mode).
inline double round_half_even(double v) { return std::nearbyint(v); }

// Saturates a double into the range of integer type Q; NaN becomes 0.
template <class Q>
inline Q saturate_to(double v) {
  if (std::isnan(v)) return Q(0);
  if (v <= static_cast<double>(std::numeric_limits<Q>::lowest())) return std::numeric_limits<Q>::lowest();
  if (v >= static_cast<double>(std::numeric_limits<Q>::max())) return std::numeric_limits<Q>::max();
  return static_cast<Q>(v);
}

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
inline AxisLayout axis_layout(const OpContext& ctx, const Shape& param_shape, const Shape& x, bool allow_axis,
                              int64_t axis, const std::string& what) {
  AxisLayout l;
  if (shape_size(param_shape) == 1 && param_shape.size() <= 1) return l;
  if (!allow_axis) ctx.fail(what + " must be a scalar, got shape " + shape_str(param_shape));
  if (param_shape.size() != 1) ctx.fail(what + " must be a scalar or 1-D, got shape " + shape_str(param_shape));
  int64_t a = normalize_axis(ctx, axis, static_cast<int64_t>(x.size()));
  if (param_shape[0] != x[static_cast<size_t>(a)])
    ctx.fail(what + " has " + std::to_string(param_shape[0]) + " values, but axis " + std::to_string(a) + " of " +
             shape_str(x) + " has " + std::to_string(x[static_cast<size_t>(a)]));
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


// ---- Resize / Upsample sampling ----
// Every axis is resampled independently: for each output index along an axis we work out the
// coordinate x_original in the input it corresponds to, then a short list of (input index, weight)
// taps; an output element is the sum, over the Cartesian product of its axes' taps, of the product
// of the weights times the input element. Nearest mode has one tap per axis (weight 1), linear two,
// cubic four.


enum class ResizeMode { Nearest, Linear, Cubic };
enum class CoordMode { HalfPixel, PytorchHalfPixel, AlignCorners, Asymmetric, TfHalfPixelForNN, TfCropAndResize };
// How nearest mode turns x_original into an index. Simple is the rule of Upsample and Resize-10,
// which predate nearest_mode: floor when upsampling (scale >= 1), ceil when downsampling.
enum class NearestRound { RoundPreferFloor, RoundPreferCeil, Floor, Ceil, Simple };

struct ResizeParams {
  ResizeMode mode = ResizeMode::Nearest;
  CoordMode coord = CoordMode::Asymmetric;
  NearestRound nearest = NearestRound::Simple;
  double cubic_a = -0.75;
  bool exclude_outside = false;
  double extrapolation = 0.0;
};

// Per-axis description of the resampling.
struct ResizeAxis {
  int64_t in = 0, out = 0;
  double scale = 1;           // output length / input length as given (or derived from sizes)
  double resized_length = 0;  // length_resized of the align_corners formula (in * scale)
  double roi_start = 0, roi_end = 1;
};

// floor(in * factor) as an output length; traps when it is not a sensible size.
inline int64_t scaled_length(const OpContext& ctx, double in, double factor) {
  double len = std::floor(in * factor);
  if (!(len >= 0) || len > 9e18) ctx.fail("the output length " + std::to_string(len) + " is out of range");
  return static_cast<int64_t>(len);
}

// x_original of output index o along an axis, as coordinate_transformation_mode defines it.
inline double original_coordinate(const ResizeAxis& a, CoordMode mode, int64_t o) {
  double x = static_cast<double>(o);
  double in = static_cast<double>(a.in);
  switch (mode) {
    case CoordMode::HalfPixel: return (x + 0.5) / a.scale - 0.5;
    case CoordMode::PytorchHalfPixel: return a.out > 1 ? (x + 0.5) / a.scale - 0.5 : 0.0;
    case CoordMode::AlignCorners:
      // length_resized is in * scale, which is the output length when sizes were given; with
      // scales it can be fractional (the ONNX node tests use it so).
      return a.resized_length == 1 ? 0.0 : x * (in - 1) / (a.resized_length - 1);
    case CoordMode::Asymmetric: return x / a.scale;
    case CoordMode::TfHalfPixelForNN: return (x + 0.5) / a.scale;
    case CoordMode::TfCropAndResize:
      if (a.out > 1) return a.roi_start * (in - 1) + x * (a.roi_end - a.roi_start) * (in - 1) / static_cast<double>(a.out - 1);
      return 0.5 * (a.roi_start + a.roi_end) * (in - 1);
  }
  return 0;
}

// The cubic convolution kernel W(d) with coefficient A (Keys 1981).
inline double cubic_weight(double d, double A) {
  d = std::fabs(d);
  if (d <= 1) return ((A + 2) * d - (A + 3)) * d * d + 1;
  if (d < 2) return ((A * d - 5 * A) * d + 8 * A) * d - 4 * A;
  return 0;
}

struct AxisTaps {
  std::vector<std::vector<std::pair<int64_t, double>>> taps;  // per output index
  std::vector<char> outside;  // per output index: x_original outside the input (tf_crop_and_resize)
};

inline AxisTaps axis_taps(const OpContext& ctx, const ResizeAxis& a, const ResizeParams& p) {
  AxisTaps t;
  t.taps.resize(static_cast<size_t>(a.out));
  t.outside.assign(static_cast<size_t>(a.out), 0);
  if (a.out > 0 && a.in == 0) ctx.fail("cannot resize an empty axis to a non-empty one");
  double last = static_cast<double>(a.in - 1);
  auto clamp_index = [&](int64_t i) { return std::clamp<int64_t>(i, 0, a.in - 1); };
  for (int64_t o = 0; o < a.out; ++o) {
    double x = original_coordinate(a, p.coord, o);
    auto& taps = t.taps[static_cast<size_t>(o)];
    if (p.coord == CoordMode::TfCropAndResize && (x < 0 || x > last)) {
      t.outside[static_cast<size_t>(o)] = 1;
      continue;
    }
    if (!std::isfinite(x) || std::fabs(x) > 1e15) ctx.fail("resize coordinate is not finite (check scales/roi)");
    if (p.mode == ResizeMode::Nearest) {
      double r = 0;
      switch (p.nearest) {
        case NearestRound::RoundPreferFloor: r = std::ceil(x - 0.5); break;
        case NearestRound::RoundPreferCeil: r = std::floor(x + 0.5); break;
        case NearestRound::Floor: r = std::floor(x); break;
        case NearestRound::Ceil: r = std::ceil(x); break;
        case NearestRound::Simple: r = a.scale < 1 ? std::ceil(x) : std::floor(x); break;
      }
      taps.push_back({clamp_index(static_cast<int64_t>(r)), 1.0});
      continue;
    }
    int64_t x0 = static_cast<int64_t>(std::floor(x));
    double f = x - static_cast<double>(x0);
    std::vector<std::pair<int64_t, double>> raw;
    if (p.mode == ResizeMode::Linear) {
      raw = {{x0, 1 - f}, {x0 + 1, f}};
    } else {
      raw = {{x0 - 1, cubic_weight(f + 1, p.cubic_a)},
             {x0, cubic_weight(f, p.cubic_a)},
             {x0 + 1, cubic_weight(1 - f, p.cubic_a)},
             {x0 + 2, cubic_weight(2 - f, p.cubic_a)}};
    }
    if (p.exclude_outside) {
      double sum = 0;
      for (auto& [i, w] : raw) {
        if (i < 0 || i >= a.in) w = 0;
        sum += w;
      }
      for (auto& [i, w] : raw) w /= sum;
    }
    // Taps outside the input take the nearest edge element.
    for (auto& [i, w] : raw)
      if (w != 0) taps.push_back({clamp_index(i), w});
  }
  return t;
}

// Resamples x to the axes' output lengths.
inline Tensor resample(const OpContext& ctx, const Tensor& x, const std::vector<ResizeAxis>& axes, const ResizeParams& p) {
  size_t r = axes.size();
  Shape out_shape(r);
  for (size_t d = 0; d < r; ++d) out_shape[d] = axes[d].out;
  shape_size(out_shape);  // traps on an absurd output before any per-axis table is built
  std::vector<AxisTaps> taps;
  for (const auto& a : axes) taps.push_back(axis_taps(ctx, a, p));
  std::vector<int64_t> in_strides = strides_of(x.shape());
  Tensor y(x.dtype(), out_shape);
  bool interpolate = p.mode != ResizeMode::Nearest;

  // Walks the taps of output multi-index idx: f(input_offset, weight) for each combination;
  // returns false when the element lies outside the crop (extrapolation).
  std::vector<size_t> pos(r);
  std::vector<const std::vector<std::pair<int64_t, double>>*> lists(r);
  auto walk = [&](const std::vector<int64_t>& idx, auto&& f) {
    for (size_t d = 0; d < r; ++d) {
      size_t o = static_cast<size_t>(idx[d]);
      if (taps[d].outside[o]) return false;
      lists[d] = &taps[d].taps[o];
      pos[d] = 0;
    }
    while (true) {
      int64_t off = 0;
      double w = 1;
      for (size_t d = 0; d < r; ++d) {
        const auto& t = (*lists[d])[pos[d]];
        off += t.first * in_strides[d];
        w *= t.second;
      }
      f(off, w);
      size_t d = r;
      bool done = true;
      while (d > 0) {
        --d;
        if (++pos[d] < lists[d]->size()) {
          done = false;
          break;
        }
        pos[d] = 0;
      }
      if (done) return true;
    }
  };

  if (!interpolate) {
    // Nearest: a pure gather, for any element type.
    visit_dtype(x.dtype(), [&]<class T>() {
      const T* px = x.data<T>();
      T* py = y.data<T>();
      T extrapolated{};
      if (p.coord == CoordMode::TfCropAndResize) {
        if constexpr (std::is_same_v<T, bool>) extrapolated = p.extrapolation != 0;
        else if constexpr (is_real_number_v<T>) {
          if constexpr (is_floating_v<T>) extrapolated = to_storage<T>(p.extrapolation);
          else extrapolated = saturate_to<T>(std::trunc(p.extrapolation));
        }
      }
      for_each_index(out_shape, [&](const std::vector<int64_t>& idx, int64_t lin) {
        bool inside = walk(idx, [&](int64_t off, double) { py[lin] = px[off]; });
        if (!inside) py[lin] = extrapolated;
      });
    });
    return y;
  }
  visit_real(ctx, x.dtype(), [&]<class T>() {
    const T* px = x.data<T>();
    T* py = y.data<T>();
    for_each_index(out_shape, [&](const std::vector<int64_t>& idx, int64_t lin) {
      double acc = 0;
      bool inside = walk(idx, [&](int64_t off, double w) { acc += w * static_cast<double>(static_cast<compute_t<T>>(px[off])); });
      if (!inside) acc = p.extrapolation;
      if constexpr (is_floating_v<T>) py[lin] = to_storage<T>(acc);
      else py[lin] = saturate_to<T>(round_half_even(acc));  // integers: nearest value, ties to even
    });
  });
  return y;
}

}  // namespace sonnx::opsd
