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
#include "support/shape.h"
#include "support/spectral.h"

namespace sonnx {
using namespace support;
namespace {

struct DftParams {
  int64_t axis = 1;       // version 17: the attribute (checked against the rank later); from 20 the optional input axis
  bool inverse = false;   // any nonzero value
  bool onesided = false;  // any nonzero value; version 17 refuses it with inverse, from 20 that is the inverse real transform
  static DftParams read(const AttrReader& r, int64_t version) {
    DftParams p;
    if (version < 20) p.axis = r.attr_int("axis", 1);
    p.inverse = r.attr_int("inverse", 0) != 0;
    p.onesided = r.attr_int("onesided", 0) != 0;
    if (version < 20 && p.onesided && p.inverse) r.fail("onesided with inverse is not defined");
    return p;
  }
  // The inverse real transform (IRFFT): onesided with inverse, from version 20.
  bool irfft() const { return onesided && inverse; }
  // "" when a signal with `comps` components (1 real, 2 complex) can be transformed, else why not:
  // the forward one-sided transform takes real input, the inverse one complex input.
  std::string components(int64_t comps) const {
    if (onesided && !inverse && comps == 2) return "onesided output is not possible for complex input";
    if (irfft() && comps != 2) return "the inverse one-sided transform needs complex input";
    return "";
  }
};

// One transform: the attributes, the normalized axis and the length.
struct DftSpec {
  DftParams p;
  int64_t axis = 1;  // normalized
  int64_t n = 0;     // the transform length
};

// The signal along the axis at (outer a, inner b), zero-padded or cut to `len` points.
template <class T>
void read_signal(const Tensor& x, int64_t a, int64_t b, int64_t n_in, int64_t inner, int64_t comps,
                 std::vector<std::complex<double>>& s) {
  const T* in = x.data<T>();
  for (size_t m = 0; m < s.size(); ++m) {
    auto mi = static_cast<int64_t>(m);
    if (mi >= n_in) {
      s[m] = 0.0;
      continue;
    }
    const int64_t base = ((a * n_in + mi) * inner + b) * comps;
    const double re = static_cast<double>(static_cast<compute_t<T>>(in[base]));
    const double im = comps == 2 ? static_cast<double>(static_cast<compute_t<T>>(in[base + 1])) : 0.0;
    s[m] = {re, im};
  }
}

// The full n-point spectrum from its first floor(n/2) + 1 bins: X[n - k] = conj(X[k]).
std::vector<std::complex<double>> hermitian_extension(const std::vector<std::complex<double>>& half, int64_t n) {
  std::vector<std::complex<double>> full(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k)
    full[static_cast<size_t>(k)] = k <= n / 2 ? half[static_cast<size_t>(k)] : std::conj(half[static_cast<size_t>(n - k)]);
  return full;
}

Tensor transform(const OpContext& ctx, const Tensor& x, const DftSpec& d) {
  const int64_t rank = x.rank();
  const int64_t comps = x.dim(rank - 1);
  const bool irfft = d.p.irfft();
  if (std::string why = d.p.components(comps); !why.empty()) ctx.fail(why);
  if (d.n < 1) ctx.fail("the DFT length must be positive, is " + std::to_string(d.n));
  const int64_t n_in = x.dim(d.axis);
  // Points read from the input, and bins written.
  const int64_t points = irfft ? d.n / 2 + 1 : d.n;
  const int64_t bins = d.p.onesided && !d.p.inverse ? d.n / 2 + 1 : d.n;
  const int64_t out_comps = irfft ? 1 : 2;

  Shape out_shape = x.shape();
  out_shape[static_cast<size_t>(d.axis)] = bins;
  out_shape.back() = out_comps;
  // Elements are addressed as [outer][axis][inner][component].
  const int64_t outer = element_count(x.shape(), 0, static_cast<size_t>(d.axis));
  const int64_t inner = element_count(x.shape(), static_cast<size_t>(d.axis) + 1, static_cast<size_t>(rank - 1));

  return visit_float(ctx, x.dtype(), [&]<class T>() {
    Tensor out(dtype_of<T>(), out_shape);
    T* o = out.data<T>();
    std::vector<std::complex<double>> s(static_cast<size_t>(points));
    for (int64_t a = 0; a < outer; ++a) {
      for (int64_t b = 0; b < inner; ++b) {
        read_signal<T>(x, a, b, n_in, inner, comps, s);
        const auto X = irfft ? dft_of(hermitian_extension(s, d.n), bins, true) : dft_of(s, bins, d.p.inverse);
        for (int64_t k = 0; k < bins; ++k) {
          const int64_t base = ((a * bins + k) * inner + b) * out_comps;
          o[base] = to_storage<T>(X[static_cast<size_t>(k)].real());
          if (!irfft) o[base + 1] = to_storage<T>(X[static_cast<size_t>(k)].imag());
        }
      }
    }
    return out;
  });
}

// The input's shape checks shared by every version.
void check_signal(const OpContext& ctx, const Tensor& x) {
  if (x.rank() < 2) ctx.fail("input must have rank 2 or more ([batch, signal..., 1 or 2]), has shape " + shape_str(x.shape()));
  const int64_t comps = x.dim(x.rank() - 1);
  if (comps != 1 && comps != 2)
    ctx.fail("the last dimension of the input must be 1 (real) or 2 (complex), is " + std::to_string(comps));
}

// The optional scalar dft_length input, or `def`.
int64_t dft_length(const OpContext& ctx, int64_t def) {
  if (!ctx.has_input(1)) return def;
  const Tensor& len = ctx.input(1);
  if (len.dtype() != DType::Int32 && len.dtype() != DType::Int64) ctx.fail("dft_length must be int32 or int64");
  if (len.size() != 1) ctx.fail("dft_length must be a scalar");
  return len.as_int64(0);
}

std::vector<Value> dft_v17(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  check_signal(ctx, x);
  DftSpec d;
  d.p = DftParams::read(ctx, ctx.version());
  d.axis = normalize_axis(ctx, d.p.axis, x.rank());
  if (d.axis == x.rank() - 1) ctx.fail("axis cannot be the last dimension (the real/imaginary components)");
  d.n = dft_length(ctx, x.dim(d.axis));
  return one(transform(ctx, x, d));
}

std::vector<Value> dft_v20(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  check_signal(ctx, x);
  DftSpec d;
  d.p = DftParams::read(ctx, ctx.version());
  int64_t axis = -2;
  if (ctx.has_input(2)) {
    const Tensor& t = ctx.input(2);
    if (t.dtype() != DType::Int64 || t.size() != 1) ctx.fail("axis must be an int64 scalar");
    axis = t.as_int64(0);
  }
  d.axis = normalize_axis(ctx, axis, x.rank());
  if (d.axis == x.rank() - 1) ctx.fail("axis cannot be the last dimension (the real/imaginary components)");
  const int64_t n_in = x.dim(d.axis);
  d.n = dft_length(ctx, d.p.irfft() ? 2 * (n_in - 1) : n_in);
  return one(transform(ctx, x, d));
}
}  // namespace
SONNX_PARAMS("", "DFT", (17, 20), DftParams);
SONNX_KERNEL("", "DFT", 17, dft_v17, Accuracy::Rounding);
SONNX_KERNEL("", "DFT", 20, dft_v20, Accuracy::Rounding);
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
