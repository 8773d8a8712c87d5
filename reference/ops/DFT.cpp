// DFT (version 17): discrete Fourier transform along one axis of a real ([..., 1]) or complex
// ([..., 2], real and imaginary parts) signal; the output is always complex ([..., 2]).
// - axis (default 1, the first dimension after the batch) indexes the input's dimensions; the
//   last dimension (the components) cannot be transformed. Negative axes count from the back.
// - dft_length (optional scalar input): the signal is zero-padded or cut to this length first.
// - inverse=1: sign +, scaled by 1/n (numpy.fft.ifft).
// - onesided=1: only bins 0..floor(n/2) (the rest follow by conjugate symmetry). The schema says
//   this is not possible for complex input, and defines no inverse of a one-sided spectrum; both
//   combinations trap.
#include "support/shape.h"
#include "support/spectral.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> dft(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const int64_t rank = x.rank();
  if (rank < 2) ctx.fail("input must have rank 2 or more ([batch, signal..., 1 or 2]), has shape " + shape_str(x.shape()));
  const int64_t comps = x.dim(rank - 1);
  if (comps != 1 && comps != 2) ctx.fail("the last dimension of the input must be 1 (real) or 2 (complex), is " + std::to_string(comps));
  const int64_t axis = normalize_axis(ctx, ctx.attr_int("axis", 1), rank);
  if (axis == rank - 1) ctx.fail("axis cannot be the last dimension (the real/imaginary components)");
  const bool inverse = ctx.attr_int("inverse", 0) != 0;
  const bool onesided = ctx.attr_int("onesided", 0) != 0;
  if (onesided && comps == 2) ctx.fail("onesided output is not possible for complex input");
  if (onesided && inverse) ctx.fail("onesided with inverse is not defined");

  const int64_t n_in = x.dim(axis);
  int64_t n = n_in;
  if (ctx.has_input(1)) {
    const Tensor& len = ctx.input(1);
    if (len.dtype() != DType::Int32 && len.dtype() != DType::Int64) ctx.fail("dft_length must be int32 or int64");
    if (len.size() != 1) ctx.fail("dft_length must be a scalar");
    n = len.as_int64(0);
  }
  if (n < 1) ctx.fail("the DFT length must be positive, is " + std::to_string(n));
  const int64_t bins = onesided ? n / 2 + 1 : n;

  Shape out_shape = x.shape();
  out_shape[static_cast<size_t>(axis)] = bins;
  out_shape.back() = 2;
  // Elements are addressed as [outer][axis][inner][component].
  const int64_t outer = element_count(x.shape(), 0, static_cast<size_t>(axis));
  const int64_t inner = element_count(x.shape(), static_cast<size_t>(axis) + 1, static_cast<size_t>(rank - 1));

  return visit_float(ctx, x.dtype(), [&]<class T>() {
    Tensor out(dtype_of<T>(), out_shape);
    const T* in = x.data<T>();
    T* o = out.data<T>();
    std::vector<std::complex<double>> s(static_cast<size_t>(n));
    for (int64_t a = 0; a < outer; ++a) {
      for (int64_t b = 0; b < inner; ++b) {
        for (int64_t m = 0; m < n; ++m) {
          if (m >= n_in) {
            s[static_cast<size_t>(m)] = 0.0;
            continue;
          }
          const int64_t base = ((a * n_in + m) * inner + b) * comps;
          const double re = static_cast<double>(static_cast<compute_t<T>>(in[base]));
          const double im = comps == 2 ? static_cast<double>(static_cast<compute_t<T>>(in[base + 1])) : 0.0;
          s[static_cast<size_t>(m)] = {re, im};
        }
        const auto X = dft_of(s, bins, inverse);
        for (int64_t k = 0; k < bins; ++k) {
          const int64_t base = ((a * bins + k) * inner + b) * 2;
          o[base] = to_storage<T>(X[static_cast<size_t>(k)].real());
          o[base + 1] = to_storage<T>(X[static_cast<size_t>(k)].imag());
        }
      }
    }
    return one(std::move(out));
  });
}
}  // namespace
SONNX_KERNEL("", "DFT", 17, dft, Accuracy::Rounding);
namespace {
// The signal [batch, n..., 1 or 2] becomes complex (last dim 2); the transformed axis has
// dft_length (input 1) or its size, halved + 1 when onesided. The axis is an attribute until 20, an
// input (2) from 20.
void dft_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  const Dims* x = ctx.input_shape(0);
  if (!x) return ctx.set_output(0, t, std::nullopt);
  int64_t r = static_cast<int64_t>(x->size());
  if (r < 2) ctx.fail("the signal must have rank at least 2");
  std::optional<int64_t> axis_v;
  if (ctx.version() < 20) axis_v = ctx.attr_int("axis", 1);
  else if (!ctx.has_input(2)) axis_v = -2;
  else if (auto a = ctx.input_ints(2); a && a->size() == 1) axis_v = (*a)[0];
  Dims o = *x;
  o.back() = known_dim(2);
  if (!axis_v) {
    for (int64_t i = 1; i + 1 < r; ++i) o[static_cast<size_t>(i)] = Dim{};
    return ctx.set_output(0, t, o);
  }
  int64_t axis = infer_axis(ctx, *axis_v, r);
  if (axis == 0 || axis == r - 1) ctx.fail("the DFT axis cannot be the batch or the complex axis");
  Dim n = o[static_cast<size_t>(axis)];
  if (ctx.has_input(1)) {
    auto len = ctx.input_ints(1);
    n = len && len->size() == 1 ? size_dim(ctx, (*len)[0], "dft_length") : Dim{};
  }
  if (ctx.attr_int("onesided", 0) != 0 && n.value) n = known_dim(*n.value / 2 + 1);
  else if (ctx.attr_int("onesided", 0) != 0) n = Dim{};
  o[static_cast<size_t>(axis)] = n;
  ctx.set_output(0, t, o);
}
}  // namespace
SONNX_SHAPE_RULE("", "DFT", (17, 20), dft_shape);
}  // namespace sonnx
