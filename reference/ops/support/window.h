// Windows sliding over the spatial axes of an input (Conv, ConvTranspose, ConvInteger, QLinearConv,
// MaxPool, AveragePool, LpPool and the global pools): attributes, output sizes and padding, the
// taps of each output position, and the convolution and pooling loops. The geometry itself
// (window_output) needs no operator context, so the oneDNN glue in optimized/kernels uses it too.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kernel.h"
#include "reference/model/attr_reader.h"
#include "reference/ops/params/conv.h"
#include "reference/ops/params/pool.h"

namespace sonnx::support {

// Upper bound for kernel sizes, strides, dilations and pads given as attributes: far beyond any real
// model, and small enough that the window arithmetic below cannot overflow int64 (dimensions are
// at most 2^34, see shape_size).
inline constexpr int64_t kMaxWindowValue = int64_t{1} << 24;

enum class AutoPad { NotSet, SameUpper, SameLower, Valid };
// The auto_pad attribute's value ("" counts as NOTSET); nullopt for anything else.
std::optional<AutoPad> parse_auto_pad(const std::string& s);

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
// `g` holds in, kernel, strides, dilations and, for NOTSET, the explicit pads; window_output sets
// out (and the pads for SAME_*). Returns the reason when the window is malformed or does not fit,
// an empty string otherwise.
std::string window_output(WindowGeometry& g, AutoPad auto_pad, bool ceil_mode);

// The first output position of spatial axis `axis` whose window has no tap inside the input (it
// lies wholly in the padding, or its dilated taps step over the input): a description, or an
// empty string when every window meets the input. MaxPool has no maximum, and AveragePool without
// count_include_pad no mean, over such a window (spec/ops/MaxPool.md).
std::string window_without_input(const WindowGeometry& g, size_t axis);

// The window attributes, read through the one attribute parser (reference/model/attr_reader.h):
// the reference kernel's OpContext, the shape rule's InferContext or a fast-kernel factory's
// reader, whose fail() traps, reports an inference error or declines. So a kernel, its shape rule,
// its fast kernel and its enclosure read a window the same way.

// The operator's auto_pad attribute; fails on an unknown value.
AutoPad auto_pad_of(const AttrReader& ctx);

// An INTS attribute with one value per spatial axis (strides, dilations, ...): `def` for each axis
// when absent or empty; fails when it has the wrong length or a value below `min_value`.
std::vector<int64_t> per_axis_attr(const AttrReader& ctx, const std::string& name, size_t rank, int64_t def, int64_t min_value);

// The `pads` attribute split into begin and end pads ([x1_begin, x2_begin, ..., x1_end, x2_end, ...]),
// 0 when absent or empty.
void pads_attr(const AttrReader& ctx, size_t rank, std::vector<int64_t>& begin, std::vector<int64_t>& end);

// The window attributes of a convolution or pooling node, read and checked once for `rank` spatial
// axes: strides and dilations (1 per axis when absent or empty, at least 1), auto_pad and the explicit
// pads (read under NOTSET only). ceil_mode is the pools' (PoolParams), false here.
struct WindowAttrs {
  std::vector<int64_t> strides, dilations, pad_begin, pad_end;
  AutoPad auto_pad = AutoPad::NotSet;
  bool ceil_mode = false;
  // The geometry of the window `kernel` over the spatial lengths `in` (window_output); `why` says
  // why it does not fit, and is empty when it does.
  WindowGeometry over(const std::vector<int64_t>& in, const std::vector<int64_t>& kernel, std::string& why) const;
};
WindowAttrs window_attrs(const AttrReader& ctx, size_t rank);

// A transposed window (ConvTranspose): per spatial axis the output length and the begin pad. The
// full length s·(in − 1) + output_padding + (k − 1)·d + 1 is cropped by pads, or output_shape or a
// SAME_* auto_pad fixes the output length and the pads come from total = full − out (never
// negative: a longer output has trailing positions no input reaches). Version 11: SAME_UPPER puts
// total/2 at the beginning, NOTSET with output_shape and SAME_LOWER total − total/2. Version 1's
// formula contradicts its own auto_pad text ("extra padding at the end for SAME_UPPER"); the text is
// followed: total − total/2 at the beginning only for SAME_LOWER.
struct TransposedGeometry {
  std::vector<int64_t> out, pad_begin;
};
// Its attributes, read and checked once for `rank` spatial axes by the reference kernel, its shape
// rule, the fast kernel and the enclosure: strides and dilations (at least 1), output_padding (at
// least 0), auto_pad, the requested output_shape (its spatial lengths, given as those or as a full
// shape; none negative; empty when absent) and, under NOTSET without output_shape, the explicit
// pads (the other forms ignore them).
struct TransposedAttrs {
  std::vector<int64_t> strides, dilations, output_padding, output_shape, pad_begin, pad_end;
  AutoPad auto_pad = AutoPad::NotSet;
  // Axis i over an input of length `in` with a kernel of length `k`, for operator `version`: its
  // output length and begin pad, and the reason when the window does not fit ("" when it does).
  std::string axis(size_t i, int64_t in, int64_t k, int64_t version, int64_t& out, int64_t& pad_begin) const;
};
TransposedAttrs transposed_attrs(const AttrReader& ctx, size_t rank);
// Every axis of `a` over `in` with `kernel`, and a trap naming the node when one does not fit.
TransposedGeometry transposed_geometry(const OpContext& ctx, const TransposedAttrs& a, const std::vector<int64_t>& in,
                                       const std::vector<int64_t>& kernel);

// The geometry of `kernel` over `in_spatial`, and a trap naming the node when it does not fit.
WindowGeometry window_geometry(const OpContext& ctx, const Shape& in_spatial, const std::vector<int64_t>& kernel,
                               const WindowAttrs& attrs);

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
  static TapTable transposed(const std::vector<int64_t>& in, const std::vector<int64_t>& kernel, const std::vector<int64_t>& out,
                             const std::vector<int64_t>& strides, const std::vector<int64_t>& dilations,
                             const std::vector<int64_t>& pad_begin) {
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
  ConvParams params = ConvParams::read(ctx, ctx.version());
  s.group = params.group;
  if (s.C % s.group != 0 || s.M % s.group != 0)
    ctx.fail("channels C=" + std::to_string(s.C) + " and M=" + std::to_string(s.M) +
             " must be divisible by group=" + std::to_string(s.group));
  s.Cg = s.C / s.group;
  s.Mg = s.M / s.group;
  if (w[1] != s.Cg) ctx.fail("weight W " + shape_str(w) + " must have C/group=" + std::to_string(s.Cg) + " input channels");
  std::vector<int64_t> kernel(w.begin() + 2, w.end());
  if (std::string why = params.check_kernel(w); !why.empty()) ctx.fail(why);
  s.g = window_geometry(ctx, Shape(x.begin() + 2, x.end()), kernel, window_attrs(ctx, r));
  s.taps = TapTable::forward(s.g);
  s.in_plane = element_count(s.g.in);
  s.out_plane = element_count(s.g.out);
  s.k_plane = element_count(kernel);
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
// kernel_shape (PoolParams), strides, pads/auto_pad, and — when the version has them — dilations
// and ceil_mode. Y is [N, C, O1..Or].
struct PoolSetup {
  int64_t N = 0, C = 0;
  WindowGeometry g;
  TapTable taps;
  int64_t in_plane = 1, out_plane = 1;
  Shape out_shape;
};

inline PoolSetup pool_setup(const OpContext& ctx, const PoolParams& params, const Shape& x) {
  if (x.size() < 3) ctx.fail("input X must have rank at least 3 (N, C, spatial...), got " + shape_str(x));
  size_t r = x.size() - 2;
  const std::vector<int64_t>& kernel = params.kernel_shape;
  if (kernel.size() != r)
    ctx.fail("kernel_shape has " + std::to_string(kernel.size()) + " values, expected " + std::to_string(r));
  PoolSetup s;
  s.N = x[0];
  s.C = x[1];
  WindowAttrs attrs = window_attrs(ctx, r);
  attrs.ceil_mode = params.ceil_mode;
  s.g = window_geometry(ctx, Shape(x.begin() + 2, x.end()), kernel, attrs);
  s.taps = TapTable::forward(s.g);
  s.in_plane = element_count(s.g.in);
  s.out_plane = element_count(s.g.out);
  s.out_shape = {s.N, s.C};
  s.out_shape.insert(s.out_shape.end(), s.g.out.begin(), s.g.out.end());
  return s;
}

// window_without_input on every axis: the first finding, naming its spatial axis, or "".
std::string any_window_without_input(const WindowGeometry& g);

// Traps unless every window has an element of the input (any_window_without_input).
inline void require_windows_meet_input(const OpContext& ctx, const WindowGeometry& g) {
  if (std::string why = any_window_without_input(g); !why.empty()) ctx.fail(why);
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

}  // namespace sonnx::support
