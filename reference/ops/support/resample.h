// Resampling (Resize, Upsample): every axis is resampled independently. For each output index
// along an axis we work out the coordinate x_original in the input it corresponds to, then a short
// list of (input index, weight) taps; an output element is the sum, over the Cartesian product of
// its axes' taps, of the product of the weights times the input element. Nearest mode has one tap
// per axis (weight 1), linear two, cubic four.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kernel.h"

namespace sonnx::support {

enum class ResizeMode { Nearest, Linear, Cubic };
enum class CoordMode {
  HalfPixel,
  HalfPixelSymmetric,  // Resize-19
  PytorchHalfPixel,
  AlignCorners,
  Asymmetric,
  TfHalfPixelForNN,
  TfCropAndResize
};
// How nearest mode turns x_original into an index. Simple is the rule of Upsample and Resize-10,
// which predate nearest_mode: floor when upsampling (scale >= 1), ceil when downsampling.
enum class NearestRound { RoundPreferFloor, RoundPreferCeil, Floor, Ceil, Simple };

// How Resize-18 turns `sizes` into output lengths: each as given, or one scale for all the named
// axes, the largest keeping every length within its size or the smallest keeping none below it.
enum class AspectPolicy { Stretch, NotLarger, NotSmaller };

// Resize's parameters (reference/ops/op_params.h; read by its reference kernel, shape rule, fast
// kernel and enclosure; Upsample fills in the few it has): version 10 has nearest and linear on
// asymmetric coordinates with the Simple rule; from 11 every mode and coordinate transformation;
// 18 adds antialias, axes and keep_aspect_ratio_policy.
struct ResizeParams {
  ResizeMode mode = ResizeMode::Nearest;
  CoordMode coord = CoordMode::Asymmetric;
  NearestRound nearest = NearestRound::Simple;
  double cubic_a = -0.75;
  bool exclude_outside = false;
  double extrapolation = 0.0;
  bool antialias = false;                       // Resize-18: linear/cubic filters stretched by 1/scale when downsampling
  std::optional<std::vector<int64_t>> axes;     // Resize-18: the axes roi, scales and sizes name (all when absent)
  AspectPolicy policy = AspectPolicy::Stretch;  // Resize-18
  static ResizeParams read(const AttrReader& reader, int64_t version);
  // The axes roi, scales and sizes name, for an input of this rank, normalized, into `out`: "" when
  // each is an axis named once, else why not.
  std::string named_axes(int64_t rank, std::vector<size_t>& out) const;
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

// The axes of Upsample and Resize-10: one positive, finite scale per axis of x, output lengths
// floor(in * scale).
inline std::vector<ResizeAxis> scaled_axes(const OpContext& ctx, const Tensor& x, const std::vector<double>& scales) {
  std::vector<ResizeAxis> axes(scales.size());
  for (size_t d = 0; d < axes.size(); ++d) {
    double s = scales[d];
    if (!(s > 0) || !std::isfinite(s)) ctx.fail("scales must be positive and finite");
    axes[d].in = x.dim(static_cast<int64_t>(d));
    axes[d].scale = s;
    axes[d].out = scaled_length(ctx, static_cast<double>(axes[d].in), s);
    axes[d].resized_length = static_cast<double>(axes[d].in) * s;
  }
  return axes;
}

// x_original of output index o along an axis, as coordinate_transformation_mode defines it.
inline double original_coordinate(const ResizeAxis& a, CoordMode mode, int64_t o) {
  double x = static_cast<double>(o);
  double in = static_cast<double>(a.in);
  switch (mode) {
    case CoordMode::HalfPixel: return (x + 0.5) / a.scale - 0.5;
    case CoordMode::HalfPixelSymmetric: {
      // Centres the (fractional) resized extent in the integer output: offset = in/2 * (1 - out / (in * scale)).
      double adjustment = static_cast<double>(a.out) / a.resized_length;
      return in / 2 * (1 - adjustment) + (x + 0.5) / a.scale - 0.5;
    }
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

// Antialiased taps (Resize-18 antialias=1, linear or cubic): the filter is stretched by
// 1 / s with s = min(scale, 1), so downsampling averages over more inputs. With base the input
// index just below x (x - 1 when x is an integer) the taps are base + i for i in
// [first, 1 - first], first = floor(-support / s) + 1 (support 1 for the tent, 2 for cubic); each
// weight is K(s * (base + i - x)), normalized to sum 1. For s = 1 these are the ordinary taps.
inline std::vector<std::pair<int64_t, double>> antialias_taps(double x, double scale, const ResizeParams& p) {
  double s = std::min(scale, 1.0);
  double support = p.mode == ResizeMode::Linear ? 1.0 : 2.0;
  // The first offset from `base`: floor(-support / s) + 1; the taps run symmetric up to 1 - first.
  auto first = static_cast<int64_t>(std::floor(-support / s) + 1);
  // base is the input index just below x (x itself counts as above when it is an integer).
  auto base = static_cast<int64_t>(std::ceil(x)) - 1;
  std::vector<std::pair<int64_t, double>> raw;
  double sum = 0;
  for (int64_t i = first; i <= 1 - first; ++i) {
    double d = s * (static_cast<double>(base + i) - x);
    double w = p.mode == ResizeMode::Linear ? std::max(0.0, 1 - std::fabs(d)) : cubic_weight(d, p.cubic_a);
    raw.push_back({base + i, w});
    sum += w;
  }
  for (auto& tap : raw) tap.second /= sum;
  return raw;
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
    if (p.antialias) {
      raw = antialias_taps(x, a.scale, p);
    } else if (p.mode == ResizeMode::Linear) {
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
          else extrapolated = saturating_cast<T>(std::trunc(p.extrapolation));
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
      bool inside = walk(idx,
                         [&](int64_t off, double w) { acc += w * static_cast<double>(static_cast<compute_t<T>>(px[off])); });
      if (!inside) acc = p.extrapolation;
      if constexpr (is_floating_v<T>) py[lin] = to_storage<T>(acc);
      else py[lin] = saturating_cast<T>(round_half_even(acc));  // integers: nearest value, ties to even
    });
  });
  return y;
}

}  // namespace sonnx::support
