// STFT (version 17): short-time Fourier transform of signal [batch, length, 1 (real) or 2
// (complex)]. Frames of frame_length samples start every frame_step samples; only whole frames
// are taken, so there are 1 + (length - frame_length) / frame_step of them (none when the signal
// is shorter than a frame). Each frame is multiplied by `window` (if given) and transformed:
//   out[b, f, k] = sum_m signal[b, f*frame_step + m] * window[m] * exp(-2*pi*i*k*m/frame_length)
// The DFT size is frame_length, or the window's length when frame_length is omitted; when both
// are given they must agree. onesided=1 (default) keeps bins 0..frame_length/2, which the schema
// says is not possible for a complex signal (trap). Output [batch, frames, bins, 2].
#include "op_params.h"
#include "support/dft_geometry.h"
#include "support/shape.h"
#include "support/spectral.h"

namespace sonnx {
using namespace support;
namespace {
// The geometry (dft_geometry.h: the checks, frame length, frames, bins), then each windowed frame
// transformed by the defining sum in double.
std::vector<Value> stft(OpContext& ctx) {
  const StftGeometry g = stft_geometry(ctx, spectral_inputs(ctx));
  const Tensor& x = ctx.input(0);
  const int64_t n = g.n;
  return visit_float(ctx, x.dtype(), [&]<class T>() {
    using C = compute_t<T>;
    Tensor out(dtype_of<T>(), g.out_shape());
    const T* in = x.data<T>();
    const T* win = g.has_window ? ctx.input(2).data<T>() : nullptr;
    T* o = out.data<T>();
    std::vector<std::complex<double>> s(static_cast<size_t>(n));
    for (int64_t b = 0; b < g.batch; ++b) {
      for (int64_t f = 0; f < g.frames; ++f) {
        for (int64_t m = 0; m < n; ++m) {
          const int64_t base = g.in_offset(b, f, m);
          const double re = static_cast<double>(static_cast<C>(in[base]));
          const double im = g.comps == 2 ? static_cast<double>(static_cast<C>(in[base + 1])) : 0.0;
          const double w = win ? static_cast<double>(static_cast<C>(win[m])) : 1.0;
          s[static_cast<size_t>(m)] = {re * w, im * w};
        }
        const auto X = dft_of(s, g.bins, false);
        for (int64_t k = 0; k < g.bins; ++k) {
          const int64_t base = g.out_offset(b, f, k);
          o[base] = to_storage<T>(X[static_cast<size_t>(k)].real());
          o[base + 1] = to_storage<T>(X[static_cast<size_t>(k)].imag());
        }
      }
    }
    return one(std::move(out));
  });
}
}  // namespace
SONNX_PARAMS("", "STFT", (17), StftParams);
SONNX_KERNEL("", "STFT", 17, stft, Accuracy::Rounding);
namespace {
// [batch, frames, bins, 2]: frames = (signal - frame_length) / frame_step + 1, bins = frame_length
// (halved + 1 when onesided); frame_length from input 3, else the window's (input 2) length.
void stft_shape(InferContext& ctx) {
  const StftParams p = StftParams::read(ctx, ctx.version());
  DType t = ctx.input_elem(0);
  const Dims* x = ctx.input_shape(0);
  if (x && x->size() == 3 && (*x)[2].value == 2 && p.onesided) ctx.fail("onesided output is not possible for a complex signal");
  Dim len;
  if (auto l = ctx.has_input(3) ? ctx.input_ints(3) : std::nullopt; l && l->size() == 1)
    len = size_dim(ctx, (*l)[0], "frame_length");
  else if (const Dims* w = ctx.has_input(2) ? ctx.input_shape(2) : nullptr; w && w->size() == 1) len = (*w)[0];
  auto step = ctx.input_ints(1);
  Dim frames;
  if (x && x->size() >= 2 && (*x)[1].value && len.value && step && step->size() == 1) {
    if ((*step)[0] < 1) ctx.fail("frame_step must be positive");
    // A signal shorter than a frame has no frames, as in the kernel.
    frames = known_dim(*len.value > *(*x)[1].value ? 0 : (*(*x)[1].value - *len.value) / (*step)[0] + 1);
  }
  Dim bins = len;
  if (p.onesided) bins = len.value ? known_dim(*len.value / 2 + 1) : Dim{};
  ctx.set_output(0, t, Dims{x && !x->empty() ? (*x)[0] : Dim{}, frames, bins, known_dim(2)});
}
}  // namespace
SONNX_SHAPE_RULE("", "STFT", (17), stft_shape);
}  // namespace sonnx
