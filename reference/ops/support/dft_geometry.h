// The geometry of DFT (17, 20) and STFT (17), in one place for their reference kernels
// (reference/ops/DFT.cpp, STFT.cpp) and their enclosures (enclose/enclose_spectral.cpp): the
// parameter structs, the checks of the inputs (each a trap through the node's OpContext, so the
// kernel and the enclosure refuse alike), the normalized axis, the transform length, the points
// read and the bins written, the output shape and the addressing of elements, the hermitian
// extension of the inverse real transform, and STFT's frames.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernel.h"
#include "reference/model/attr_reader.h"

namespace sonnx {

// DFT's attributes (reference/ops/op_params.h).
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

// STFT's attributes (reference/ops/op_params.h).
struct StftParams {
  bool onesided = true;  // any nonzero value: bins 0..frame_length/2 only (refused for a complex signal)
  static StftParams read(const AttrReader& r, int64_t /*version*/) { return {r.attr_int("onesided", 1) != 0}; }
};

namespace support {

// An input as the kernel and the enclosure both see it: its element type and a tensor of its shape
// (the kernel's value; for the enclosure an integer input's exact value, a float input's lower
// bounds), null when omitted. A scalar is read from the tensor only once its type is checked.
struct SpectralInput {
  DType type = DType::Undefined;
  const Tensor* value = nullptr;
  bool given() const { return value != nullptr; }
};
using SpectralInputs = std::vector<SpectralInput>;

// A kernel's inputs as SpectralInputs.
inline SpectralInputs spectral_inputs(const OpContext& ctx) {
  SpectralInputs in(ctx.num_inputs());
  for (size_t i = 0; i < in.size(); ++i)
    if (ctx.has_input(i)) in[i] = {ctx.input(i).dtype(), &ctx.input(i)};
  return in;
}

// Input i, which the operator requires (a trap as OpContext::input's when it is omitted).
inline const SpectralInput& required_input(const OpContext& ctx, const SpectralInputs& in, size_t i) {
  if (i >= in.size() || !in[i].given()) ctx.fail("input " + std::to_string(i) + " is required but missing");
  return in[i];
}

// Input i if given.
inline const SpectralInput* optional_input(const SpectralInputs& in, size_t i) {
  return i < in.size() && in[i].given() ? &in[i] : nullptr;
}

// The value of an int32 or int64 scalar input (dft_length, frame_step, frame_length).
inline int64_t integer_scalar(const OpContext& ctx, const SpectralInput& t, const std::string& name) {
  if (t.type != DType::Int32 && t.type != DType::Int64) ctx.fail(name + " must be int32 or int64");
  if (t.value->size() != 1) ctx.fail(name + " must be a scalar");
  return t.value->as_int64(0);
}

// The kernels compute in float, double, float16 and bfloat16 (visit_float's types).
inline void require_float_signal(const OpContext& ctx, DType type) {
  if (type != DType::Float && type != DType::Double && type != DType::Float16 && type != DType::BFloat16)
    ctx.fail("element type " + std::string(dtype_name(type)) + " is not a floating type");
}

// ---- DFT ----

// One DFT node on its inputs: X[k] = Σ_m s[m]·exp(∓2πi·k·m/n) (÷ n when inverse) for every signal
// along `axis`, s the n_in points of the input zero-padded or cut to n. The inverse real transform
// reads the bins 0..n/2 (zero-padded or cut) of a half spectrum, extends them by hermitian
// symmetry (hermitian_extension) and keeps the real part of their inverse transform.
struct DftGeometry {
  DftParams p;
  int64_t axis = 1;              // normalized
  int64_t n = 0;                 // the transform length (dft_length)
  int64_t n_in = 0;              // the input's size along the axis
  int64_t comps = 1;             // components of an input element: 1 real, 2 complex
  int64_t points = 0;            // points read of each signal: n, or n/2 + 1 bins of the half spectrum (irfft)
  int64_t bins = 0;              // bins written: n, or n/2 + 1 (forward one-sided)
  int64_t out_comps = 2;         // components of an output element: 2, or 1 (irfft: the real part)
  int64_t outer = 1, inner = 1;  // elements are addressed as [outer][axis][inner][component]
  Shape out_shape;
  bool irfft() const { return p.irfft(); }
  // The offset of point m (< n_in) of signal (a, b) in the input, and of bin k in the output.
  int64_t in_offset(int64_t a, int64_t m, int64_t b) const { return ((a * n_in + m) * inner + b) * comps; }
  int64_t out_offset(int64_t a, int64_t k, int64_t b) const { return ((a * bins + k) * inner + b) * out_comps; }
};

// The geometry of DFT-17 or DFT-20 (ctx.version()) on inputs input, dft_length and (20) axis, with
// the kernel's traps in the kernel's order.
inline DftGeometry dft_geometry(const OpContext& ctx, const SpectralInputs& in) {
  const SpectralInput& x = required_input(ctx, in, 0);
  const Shape& xs = x.value->shape();
  const int64_t rank = static_cast<int64_t>(xs.size());
  if (rank < 2) ctx.fail("input must have rank 2 or more ([batch, signal..., 1 or 2]), has shape " + shape_str(xs));
  DftGeometry g;
  g.comps = xs.back();
  if (g.comps != 1 && g.comps != 2)
    ctx.fail("the last dimension of the input must be 1 (real) or 2 (complex), is " + std::to_string(g.comps));
  const int64_t version = ctx.version();
  g.p = DftParams::read(ctx, version);
  int64_t axis = g.p.axis;
  if (version >= 20) {
    axis = -2;
    if (const SpectralInput* t = optional_input(in, 2)) {
      if (t->type != DType::Int64 || t->value->size() != 1) ctx.fail("axis must be an int64 scalar");
      axis = t->value->as_int64(0);
    }
  }
  g.axis = normalize_axis(ctx, axis, rank);
  if (g.axis == rank - 1) ctx.fail("axis cannot be the last dimension (the real/imaginary components)");
  g.n_in = xs[static_cast<size_t>(g.axis)];
  const bool irfft = g.irfft();  // only from 20: DftParams::read refuses it before
  g.n = g.n_in;
  if (irfft) g.n = 2 * (g.n_in - 1);
  if (const SpectralInput* len = optional_input(in, 1)) g.n = integer_scalar(ctx, *len, "dft_length");
  if (std::string why = g.p.components(g.comps); !why.empty()) ctx.fail(why);
  if (g.n < 1) ctx.fail("the DFT length must be positive, is " + std::to_string(g.n));
  require_float_signal(ctx, x.type);
  g.points = irfft ? g.n / 2 + 1 : g.n;
  g.bins = g.p.onesided && !g.p.inverse ? g.n / 2 + 1 : g.n;
  g.out_comps = irfft ? 1 : 2;
  g.out_shape = xs;
  g.out_shape[static_cast<size_t>(g.axis)] = g.bins;
  g.out_shape.back() = g.out_comps;
  g.outer = element_count(xs, 0, static_cast<size_t>(g.axis));
  g.inner = element_count(xs, static_cast<size_t>(g.axis) + 1, static_cast<size_t>(rank - 1));
  return g;
}

// The full n-point spectrum from its bins 0..n/2 (`half`): X[k] = half[k] up to n/2, and
// X[k] = conj(half[n − k]) beyond. `conj` conjugates one value of C.
template <class C, class Conj>
std::vector<C> hermitian_extension(const std::vector<C>& half, int64_t n, Conj conj) {
  std::vector<C> full(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k)
    full[static_cast<size_t>(k)] = k <= n / 2 ? half[static_cast<size_t>(k)] : conj(half[static_cast<size_t>(n - k)]);
  return full;
}

// ---- STFT ----

// One STFT node on its inputs: frames of n points start every `step` points of each signal
// [batch, length, comps] (only whole frames), each multiplied by the window (if given) and
// transformed: out[b, f, k] = Σ_m signal[b, f·step + m]·window[m]·exp(−2πi·k·m/n), k < bins.
struct StftGeometry {
  StftParams p;
  int64_t batch = 0, length = 0, comps = 1;
  int64_t step = 1;         // frame_step
  int64_t n = 0;            // the frame length, the DFT size
  bool has_window = false;  // input 2, n points of the signal's type
  int64_t bins = 0;         // n, or n/2 + 1 (onesided)
  int64_t frames = 0;       // 1 + (length − n) / step, none when the signal is shorter than a frame
  Shape out_shape() const { return {batch, frames, bins, 2}; }
  // The offset of point m of frame f of signal b in the input, and of bin k of that frame in the output.
  int64_t in_offset(int64_t b, int64_t f, int64_t m) const { return (b * length + f * step + m) * comps; }
  int64_t out_offset(int64_t b, int64_t f, int64_t k) const { return ((b * frames + f) * bins + k) * 2; }
};

// The geometry of STFT-17 on inputs signal, frame_step, window and frame_length, with the kernel's
// traps in the kernel's order.
inline StftGeometry stft_geometry(const OpContext& ctx, const SpectralInputs& in) {
  StftGeometry g;
  g.p = StftParams::read(ctx, ctx.version());
  const SpectralInput& x = required_input(ctx, in, 0);
  const Shape& xs = x.value->shape();
  if (xs.size() != 3) ctx.fail("signal must have shape [batch, length, 1 or 2], has " + shape_str(xs));
  g.batch = xs[0];
  g.length = xs[1];
  g.comps = xs[2];
  if (g.comps != 1 && g.comps != 2) ctx.fail("the last dimension of the signal must be 1 (real) or 2 (complex)");
  g.step = integer_scalar(ctx, required_input(ctx, in, 1), "frame_step");
  if (g.step < 1) ctx.fail("frame_step must be positive, is " + std::to_string(g.step));
  const SpectralInput* w = optional_input(in, 2);
  g.has_window = w != nullptr;
  if (w) {
    if (w->type != x.type) ctx.fail("window must have the element type of the signal");
    if (w->value->rank() != 1) ctx.fail("window must have rank 1");
  }
  if (const SpectralInput* len = optional_input(in, 3)) {
    g.n = integer_scalar(ctx, *len, "frame_length");
    if (w && w->value->dim(0) != g.n)
      ctx.fail("window length " + std::to_string(w->value->dim(0)) + " differs from frame_length " + std::to_string(g.n));
  } else if (w) {
    g.n = w->value->dim(0);
  } else {
    ctx.fail("either window or frame_length is required");
  }
  if (g.n < 1) ctx.fail("the frame length must be positive, is " + std::to_string(g.n));
  if (g.p.onesided && g.comps == 2) ctx.fail("onesided output is not possible for a complex signal");
  require_float_signal(ctx, x.type);
  g.bins = g.p.onesided ? g.n / 2 + 1 : g.n;
  g.frames = g.length >= g.n ? 1 + (g.length - g.n) / g.step : 0;
  return g;
}

}  // namespace support
}  // namespace sonnx
