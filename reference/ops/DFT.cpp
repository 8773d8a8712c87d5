// DFT (version 17): discrete Fourier transform along one axis of a real ([..., 1]) or complex
// ([..., 2], real and imaginary parts) signal; the output is always complex ([..., 2]).
// - axis (default 1, the first dimension after the batch) indexes the input's dimensions; the
//   last dimension (the components) cannot be transformed. Negative axes count from the back.
// - dft_length (optional scalar input): the signal is zero-padded or cut to this length first.
// - inverse=1: sign +, scaled by 1/n (numpy.fft.ifft).
// - onesided=1: only bins 0..floor(n/2) (the rest follow by conjugate symmetry). The schema says
//   this is not possible for complex input, and defines no inverse of a one-sided spectrum; both
//   combinations trap.
// Version 20: axis becomes an optional scalar int64 input (default -2, the last signal axis;
//   accepted range [-r, -2] and [0, r-2]), and onesided=1 with inverse=1 is the inverse real
//   transform (IRFFT, numpy.fft.irfft): complex input holding bins 0..floor(n/2) (zero-padded or
//   cut), extended by conjugate symmetry, inverse transformed; the output is real ([..., 1]) of
//   length n = dft_length, by default 2 * (signal_dim_axis - 1).
#include "op_params.h"
#include "support/dft_geometry.h"
#include "support/shape.h"
#include "support/spectral.h"

namespace sonnx {
using namespace support;
namespace {

// The signal (a, b) along the axis: its first min(n_in, s.size()) points, zero beyond (padded).
template <class T>
void read_signal(const Tensor& x, const DftGeometry& g, int64_t a, int64_t b, std::vector<std::complex<double>>& s) {
  const T* in = x.data<T>();
  for (size_t m = 0; m < s.size(); ++m) {
    auto mi = static_cast<int64_t>(m);
    if (mi >= g.n_in) {
      s[m] = 0.0;
      continue;
    }
    const int64_t base = g.in_offset(a, mi, b);
    const double re = static_cast<double>(static_cast<compute_t<T>>(in[base]));
    const double im = g.comps == 2 ? static_cast<double>(static_cast<compute_t<T>>(in[base + 1])) : 0.0;
    s[m] = {re, im};
  }
}

// Both versions: the geometry (dft_geometry.h: the checks, axis, length, points, bins), then each
// signal transformed by the defining sum in double.
std::vector<Value> dft(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const DftGeometry g = dft_geometry(ctx, spectral_inputs(ctx));
  const bool irfft = g.irfft();
  return one(visit_float(ctx, x.dtype(), [&]<class T>() {
    Tensor out(dtype_of<T>(), g.out_shape);
    T* o = out.data<T>();
    std::vector<std::complex<double>> s(static_cast<size_t>(g.points));
    auto conj = [](const std::complex<double>& v) { return std::conj(v); };
    for (int64_t a = 0; a < g.outer; ++a) {
      for (int64_t b = 0; b < g.inner; ++b) {
        read_signal<T>(x, g, a, b, s);
        const auto X = irfft ? dft_of(hermitian_extension(s, g.n, conj), g.bins, true) : dft_of(s, g.bins, g.p.inverse);
        for (int64_t k = 0; k < g.bins; ++k) {
          const int64_t base = g.out_offset(a, k, b);
          o[base] = to_storage<T>(X[static_cast<size_t>(k)].real());
          if (!irfft) o[base + 1] = to_storage<T>(X[static_cast<size_t>(k)].imag());
        }
      }
    }
    return out;
  }));
}
}  // namespace
SONNX_PARAMS("", "DFT", (17, 20), DftParams);
SONNX_KERNEL("", "DFT", 17, dft, Accuracy::Rounding);
SONNX_KERNEL("", "DFT", 20, dft, Accuracy::Rounding);
namespace {
// The signal [batch, n..., 1 or 2] becomes complex (last dim 2; real, 1, for the inverse real
// transform from 20); the transformed axis has dft_length (input 1) or its size, halved + 1 when
// onesided. The axis is an attribute until 20, an input (2) from 20.
void dft_shape(InferContext& ctx) {
  const DftParams p = DftParams::read(ctx, ctx.version());
  DType t = ctx.input_elem(0);
  const Dims* x = ctx.input_shape(0);
  if (!x) return ctx.set_output(0, t, std::nullopt);
  int64_t r = static_cast<int64_t>(x->size());
  if (r < 2) ctx.fail("the signal must have rank at least 2");
  if (const Dim& comps = x->back(); comps.value) {
    if (*comps.value != 1 && *comps.value != 2)
      ctx.fail("the last dimension of the input must be 1 (real) or 2 (complex), is " + std::to_string(*comps.value));
    if (std::string why = p.components(*comps.value); !why.empty()) ctx.fail(why);
  }
  std::optional<int64_t> axis_v;
  if (ctx.version() < 20) axis_v = p.axis;
  else if (!ctx.has_input(2)) axis_v = -2;
  else if (auto a = ctx.input_ints(2); a && a->size() == 1) axis_v = (*a)[0];
  // From 20, onesided with inverse is the inverse real transform: a real output ([..., 1]) of
  // dft_length points, by default 2 * (signal_dim_axis - 1).
  const bool irfft = p.irfft();
  Dims o = *x;
  o.back() = known_dim(irfft ? 1 : 2);
  if (!axis_v) {
    for (int64_t i = 0; i + 1 < r; ++i) o[static_cast<size_t>(i)] = Dim{};
    return ctx.set_output(0, t, o);
  }
  int64_t axis = infer_axis(ctx, *axis_v, r);
  if (axis == r - 1) ctx.fail("axis cannot be the last dimension (the real/imaginary components)");
  Dim n = o[static_cast<size_t>(axis)];
  if (irfft) {
    n = n.value ? size_dim(ctx, 2 * (*n.value - 1), "dft_length") : Dim{};
  }
  if (ctx.has_input(1)) {
    auto len = ctx.input_ints(1);
    n = len && len->size() == 1 ? size_dim(ctx, (*len)[0], "dft_length") : Dim{};
  }
  if (p.onesided && !irfft) n = n.value ? known_dim(*n.value / 2 + 1) : Dim{};
  o[static_cast<size_t>(axis)] = n;
  ctx.set_output(0, t, o);
}
}  // namespace
SONNX_SHAPE_RULE("", "DFT", (17, 20), dft_shape);
}  // namespace sonnx
