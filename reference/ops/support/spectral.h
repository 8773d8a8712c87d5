// Spectral operators: the generalized cosine windows (HannWindow, HammingWindow, BlackmanWindow)
// and the discrete Fourier transform of one signal (DFT, STFT; their geometry is dft_geometry.h).
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "cast.h"
#include "reference/ops/params/window_function.h"
#include "shape.h"

namespace sonnx::support {

// Generalized cosine windows: w[k] = a0 - a1*cos(2*pi*k/N) + a2*cos(4*pi*k/N), k = 0..size-1,
// N = size when periodic, size-1 when symmetric. Computed in float exactly as the operators'
// function bodies in the schema do (float constants, angle = k * (tau / N), then Cast to
// output_datatype), so a kernel and an expanded body agree. As in the body, a size ≤ 0 gives an
// empty window and a symmetric window of size 1 divides by zero (NaN).
inline std::vector<Value> cosine_window(OpContext& ctx, const WindowFunctionParams& p, float a0, float a1, float a2) {
  const Tensor& size_in = ctx.input(0);
  if (size_in.dtype() != DType::Int32 && size_in.dtype() != DType::Int64) ctx.fail("size must be int32 or int64");
  if (size_in.size() != 1) ctx.fail("size must be a scalar");
  const int64_t size = size_in.as_int64(0);
  const float tau = 6.2831854820251465f;  // 2*pi rounded to float, the body's constant
  const float size_fp = static_cast<float>(size);
  const float n = p.periodic ? size_fp : size_fp - 1.0f;
  const float increment = tau / n;
  const int64_t count = size > 0 ? size : 0;
  Tensor w(DType::Float, {count});
  float* o = w.data<float>();
  for (int64_t k = 0; k < count; ++k) {
    const float angle = static_cast<float>(k) * increment;
    o[k] = (a0 - a1 * std::cos(angle)) + a2 * std::cos(angle * 2.0f);
  }
  return one(cast_tensor(ctx, w, p.output_datatype));
}

// The window operators' shape rule: [size] of output_datatype; a size below 0 gives an empty window
// as in the kernel.
inline void cosine_window_shape(InferContext& ctx) {
  const WindowFunctionParams p = WindowFunctionParams::read(ctx, ctx.version());
  require_rank(ctx, 0, 0, "size");
  Dim n;
  if (auto v = ctx.input_ints(0); v && v->size() == 1) n = size_dim(ctx, std::max<int64_t>((*v)[0], 0), "size");
  ctx.set_output(0, p.output_datatype, Dims{n});
}

// ---------------------------------------------------------------------------------------------
// The twiddle exp(-+2*pi*i*k*m/n) of bin k and point m is exp(-+2*pi*i*j/n) for j = (k*m) mod n,
// reduced without overflow: the angle 2*pi*j/n stays in [0, 2*pi) for long signals. The reference
// kernels and the enclosures (enclose/enclose_spectral.cpp) both take it from here.
inline int64_t dft_turn(int64_t k, int64_t m, int64_t n) {
  return static_cast<int64_t>((static_cast<unsigned __int128>(k) * static_cast<unsigned __int128>(m)) %
                              static_cast<unsigned __int128>(n));
}

// The discrete Fourier transform of one signal s[0..n-1], bins 0..bins-1, by the defining sum in
// double precision: X[k] = sum_m s[m] * exp(-+2*pi*i*k*m/n), divided by n when inverse (the
// numpy.fft convention). k*m is reduced modulo n first (dft_turn) so the angle stays exact for long
// signals.
inline std::vector<std::complex<double>> dft_of(const std::vector<std::complex<double>>& s, int64_t bins, bool inverse) {
  const int64_t n = static_cast<int64_t>(s.size());
  const double pi = 3.14159265358979323846;
  const double sign = inverse ? 1.0 : -1.0;
  std::vector<std::complex<double>> out(static_cast<size_t>(bins));
  for (int64_t k = 0; k < bins; ++k) {
    std::complex<double> acc(0.0, 0.0);
    for (int64_t m = 0; m < n; ++m) {
      const int64_t km = dft_turn(k, m, n);
      const double angle = sign * 2.0 * pi * static_cast<double>(km) / static_cast<double>(n);
      acc += s[static_cast<size_t>(m)] * std::complex<double>(std::cos(angle), std::sin(angle));
    }
    out[static_cast<size_t>(k)] = inverse ? acc / static_cast<double>(n) : acc;
  }
  return out;
}

// MelWeightMatrix's triangular filters (as in onnx's definition) from the spectrogram bins of its
// num_mel_bins + 2 edge points: filter i rises from bin[i] to bin[i + 1] (weight (j − left) /
// (center − left), or just 1 at the center when left == center) and falls to 0 at bin[i + 2]
// ((right − j) / (right − center) for center ≤ j < right). f(j, i, numerator, denominator) for each
// weight of row j, filter i, in the order the kernel writes them (a later one replaces an earlier);
// every other weight is 0. Read by the kernel and the enclosure (enclose/enclose_melweight.cpp).
template <class F>
void mel_triangles(const std::vector<int64_t>& bin, int64_t num_mel_bins, F f) {
  for (int64_t i = 0; i < num_mel_bins; ++i) {
    const int64_t left = bin[static_cast<size_t>(i)];
    const int64_t center = bin[static_cast<size_t>(i + 1)];
    const int64_t right = bin[static_cast<size_t>(i + 2)];
    if (center == left) {
      f(center, i, int64_t{1}, int64_t{1});
    } else {
      for (int64_t j = left; j <= center; ++j) f(j, i, j - left, center - left);
    }
    for (int64_t j = center; j < right; ++j) f(j, i, right - j, right - center);
  }
}

// The spectrogram bin of a mel edge point at `hz`, `floored` = floor((dft_length + 1)·hz /
// sample_rate); fail()s where it falls outside the `spectrogram_bins` of the one-sided spectrum.
inline int64_t mel_edge_bin(const AttrReader& r, double floored, double hz, int64_t spectrogram_bins) {
  if (!(floored >= 0 && floored < static_cast<double>(spectrogram_bins)))
    r.fail("the mel edge " + std::to_string(hz) + " Hz falls outside the " + std::to_string(spectrogram_bins) +
           " spectrogram bins (upper_edge_hertz above sample_rate/2?)");
  return static_cast<int64_t>(floored);
}

}  // namespace sonnx::support
