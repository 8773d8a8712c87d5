// Enclosures of DFT (17, 20) and STFT (17). Their geometry (the checks and traps, the axis, the
// transform length, the points read, the bins written, the output shape, the addressing, the
// hermitian extension of the inverse real transform, STFT's frames) is the reference kernels' own
// (reference/ops/support/dft_geometry.h).
//
// Real: X[k] = Σ_m s[m]·e^(∓2πi·j/n), j = k·m mod n (support::dft_turn), divided by n when inverse.
// Each twiddle's angle 2π·j/n is an interval from MPFR's π rounded down and up, its cosine and sine
// are elementary.h's; the real and imaginary part of each bin are sums of products in
// midpoint-radius form (dot.h): re = Σ re(s)·cos θ − im(s)·sin θ, im = Σ re(s)·sin θ + im(s)·cos θ
// with sin θ = ∓sin(2π·j/n). STFT's points are the signal times the window (interval products).
// The inverse real transform extends the half spectrum's bounds by conjugation (the imaginary
// interval negated) and keeps the real part.
//
// Admissible (Allowance::own(); spec/accuracy.md, "Admissible results", DFT and STFT): any float
// implementation, a direct sum or a fast transform, with every twiddle within μ = (6π + 3k + 1)·u
// of the true one (its angle in at most three roundings, its cosine and sine within
// k = kElementaryUlps ulps). The larger of a direct sum's bound (the twiddles' radii widened by μ,
// γ_(N+9) over the N products of a part, γ_(N+10) with the window's product) and an FFT's (Higham,
// Theorem 24.2, per element ⌈log₂ n⌉·η/(1 − ⌈log₂ n⌉·η)·√n·Σ|s_m|, η = μ + γ₄·(√2 + μ)); the
// encloser rounds it outward to the type.
#include <mpfr.h>

#include <cmath>
#include <limits>
#include <vector>

#include "elementary.h"
#include "enclose_sums.h"
#include "reference/ops/support/dft_geometry.h"
#include "reference/ops/support/spectral.h"

namespace sonnx::enclose {

namespace {

using support::DftGeometry;
using support::SpectralInputs;
using support::StftGeometry;

// The node's inputs as the shared geometry reads them: each one's type, and its value (an integer
// input) or its lower bounds (a float input: their shape).
SpectralInputs spectral_inputs(const OpCall& c) {
  SpectralInputs in(c.in.size());
  for (size_t i = 0; i < c.in.size(); ++i)
    if (c.in[i]) in[i] = {c.in[i]->type, &c.in[i]->lo};
  return in;
}

// 2π·j/n for 0 ≤ j < n as an interval: π rounded down and up, and every step after it rounded the
// same way (all are positive, so each end moves the way it is rounded).
Interval turn_angle(int64_t j, int64_t n) {
  if (j == 0) return Interval::point(0);
  mpfr_t a;
  mpfr_init2(a, 128);
  double ends[2];
  for (int side = 0; side < 2; ++side) {
    mpfr_rnd_t rnd = side == 0 ? MPFR_RNDD : MPFR_RNDU;
    mpfr_const_pi(a, rnd);
    mpfr_mul_2ui(a, a, 1, rnd);  // exact
    mpfr_mul_ui(a, a, static_cast<unsigned long>(j), rnd);
    mpfr_div_ui(a, a, static_cast<unsigned long>(n), rnd);
    ends[side] = mpfr_get_d(a, rnd);
  }
  mpfr_clear(a);
  return {ends[0], ends[1]};
}

// cos(2π·j/n) and sin(2π·j/n) for j = 0..n−1, in midpoint-radius form.
struct Twiddles {
  std::vector<MidRad> cosines, sines;
  explicit Twiddles(int64_t n) : cosines(static_cast<size_t>(n)), sines(static_cast<size_t>(n)) {
    for (int64_t j = 0; j < n; ++j) {
      Interval a = turn_angle(j, n);
      cosines[static_cast<size_t>(j)] = MidRad::of(cos(a));
      sines[static_cast<size_t>(j)] = MidRad::of(sin(a));
    }
  }
};

// A complex point or bin, each part in midpoint-radius form.
struct ComplexMidRad {
  MidRad re, im;
};

inline bool is_zero(MidRad v) { return v.m == 0 && v.r == 0; }
// MidRad::of, but an exact 0 (radius 0, so is_zero) for the point 0.
inline MidRad mid_rad_of(Interval v) { return v.lo == 0 && v.hi == 0 ? MidRad{} : MidRad::of(v); }
inline MidRad negated(MidRad v) { return {-v.m, v.r}; }
inline MidRad widened(MidRad v, double by) { return by > 0 ? MidRad{v.m, up(v.r + by)} : v; }
// An upper bound of |v| over the interval v holds.
inline double magnitude(MidRad v) { return up(std::fabs(v.m) + v.r); }

// What the admissible semantics grants a transform in the element type (spec/accuracy.md); all
// zero under the real semantics.
struct SpectralAllowance {
  bool admissible = false;
  double u = 0;     // the type's unit roundoff
  double tiny = 0;  // its smallest subnormal
  double mu = 0;    // how far each twiddle (its cosine, its sine, the complex number) may lie from the true one
  TypeSum ts;       // a sum of products in any order (dot.h)
  // `windowed`: every point is a product (STFT's signal times window), rounded once more before the
  // transform.
  bool windowed = false;

  static SpectralAllowance of(const OpCall& c, DType type, bool windowed) {
    SpectralAllowance a;
    if (c.semantics != Semantics::Admissible) return a;
    FloatFormat f = float_format(type);
    a.admissible = true;
    a.u = f.unit_roundoff();
    a.tiny = f.smallest_subnormal();
    // μ = (6π + 3k + 1)·u: the angle 2π·j/n (|θ| < 2π) computed in at most three roundings is off by
    // at most 2π·γ₃ ≤ (6π + 1)·u, which moves cos θ, sin θ and e^(iθ) by no more (each is
    // 1-Lipschitz); a cosine or sine within k ulps of that of the computed angle is off by at most
    // k·2u (|value| ≤ 1, whose ulp is at most 2u), the complex twiddle by √2·2k·u ≤ 3k·u.
    const double pi_up = up(3.14159265358979323846);
    a.mu = up(up(up(6 * pi_up) + 3 * kElementaryUlps + 1) * a.u);
    a.ts = TypeSum::of(f);
    a.windowed = windowed;
    return a;
  }

  // How far any fast transform of the n points `s` may err at each element, before an inverse's
  // division by n: Higham (Accuracy and Stability of Numerical Algorithms, Theorem 24.2) bounds a
  // radix-2 FFT's ‖ŷ − y‖₂ by ℓ·η/(1 − ℓ·η)·‖y‖₂, ℓ = log₂ n, η = μ + γ₄·(√2 + μ), and
  // ‖y‖₂ = √n·‖s‖₂ ≤ √n·S, S = Σ_m (|re s_m| + |im s_m|), bounds every element's error; ℓ = ⌈log₂ n⌉
  // for any n. Windowed points were rounded first: the transform of the rounded points (S·(1 + u))
  // plus that of the rounding errors (u·S). Underflow: 24·n smallest subnormals.
  double fft_error(const std::vector<ComplexMidRad>& s, bool inverse) const {
    const int64_t n = static_cast<int64_t>(s.size());
    double S = 0;
    for (const ComplexMidRad& v : s) S = up(S + up(magnitude(v.re) + magnitude(v.im)));
    if (S == 0) return 0;  // all points exactly 0: so is every bin, in any arithmetic
    if (!std::isfinite(S)) return std::numeric_limits<double>::infinity();
    int ell = 0;
    while ((int64_t{1} << ell) < n) ++ell;
    double e = 0;
    if (ell > 0) {
      double eta = up(mu + up(gamma(4, u) * up(up(std::sqrt(2.0)) + mu)));
      double le = up(ell * eta);
      if (!(le < 1)) return std::numeric_limits<double>::infinity();
      double rel = up(le / down(1 - le));
      double points = windowed ? up(S * up(1 + u)) : S;
      e = up(up(rel * up(std::sqrt(static_cast<double>(n)))) * points);
    }
    if (windowed) e = up(e + up(u * S));
    e = up(e + up(24 * static_cast<double>(n) * tiny));
    if (inverse) {  // ŷ/n in two roundings (or ŷ·fl(1/n)): relative γ₂ of |ŷ| ≤ S + e
      double g2 = gamma(2, u);
      e = up(up(e + up(g2 * up(S + e))) / static_cast<double>(n));
    }
    return e;
  }
};

// Bin k of the transform of the n points s (÷ n when inverse): its real part and, when `want_im`,
// its imaginary part. Exactly zero parts of points (padding, a real signal's imaginary parts) add
// nothing in any arithmetic and are left out of the sums. Admissible: the larger of a direct sum's
// bound and `fft_error` (SpectralAllowance::fft_error of these points) around the exact sum.
struct Bin {
  Interval re, im;
};
Bin transform_bin(const std::vector<ComplexMidRad>& s, int64_t k, const Twiddles& w, bool inverse, bool want_im,
                  const SpectralAllowance& a, double fft_error) {
  const int64_t n = static_cast<int64_t>(s.size());
  DotBound re, im;                // the exact sums
  DotBound re_direct, im_direct;  // admissible: a direct sum in the type with twiddles within μ
  for (int64_t m = 0; m < n; ++m) {
    const ComplexMidRad& p = s[static_cast<size_t>(m)];
    int64_t j = support::dft_turn(k, m, n);
    MidRad cos_t = w.cosines[static_cast<size_t>(j)], sin_t = w.sines[static_cast<size_t>(j)];
    if (!inverse) sin_t = negated(sin_t);  // sin θ for θ = ∓2π·j/n
    auto add = [&](DotBound& r, DotBound& i, MidRad ct, MidRad st) {
      if (!is_zero(p.re)) {
        r.add(p.re, ct);
        if (want_im) i.add(p.re, st);
      }
      if (!is_zero(p.im)) {
        r.add(p.im, negated(st));
        if (want_im) i.add(p.im, ct);
      }
    };
    add(re, im, cos_t, sin_t);
    if (a.admissible) add(re_direct, im_direct, widened(cos_t, a.mu), widened(sin_t, a.mu));
  }
  const double divisor = inverse ? static_cast<double>(n) : 1.0;
  if (!a.admissible) return {re.result(divisor), want_im ? im.result(divisor) : Interval{}};
  if (a.windowed) {  // the window's product: one more rounding on every term, one more in the count (γ_(N+10))
    re_direct.add(MidRad{}, MidRad{1, 0});
    im_direct.add(MidRad{}, MidRad{1, 0});
  }
  auto larger = [&](const DotBound& exact, const DotBound& direct) {
    Interval x = exact.result(divisor), d = direct.result(divisor, a.ts);
    if (x.has_nan() || d.has_nan()) return Interval::undefined();
    return hull(d, {down(x.lo - fft_error), up(x.hi + fft_error)});
  };
  return {larger(re, re_direct), want_im ? larger(im, im_direct) : Interval{}};
}

// ---- DFT ----

std::vector<Bounds> dft(const OpCall& c) {
  const DftGeometry g = support::dft_geometry(c.ctx, spectral_inputs(c));
  const Bounds& x = float_input(c, 0);
  const bool irfft = g.irfft();
  const SpectralAllowance a = SpectralAllowance::of(c, x.type, false);
  Bounds y = float_bounds(x.type, g.out_shape);
  if (g.outer == 0 || g.inner == 0) return {y};  // no signal: no twiddle to compute
  const Twiddles w(g.n);
  std::vector<ComplexMidRad> s(static_cast<size_t>(g.points));
  auto conj = [](const ComplexMidRad& v) { return ComplexMidRad{v.re, negated(v.im)}; };
  for (int64_t o = 0; o < g.outer; ++o)
    for (int64_t i = 0; i < g.inner; ++i) {
      for (int64_t m = 0; m < g.points; ++m) {  // zero-padded or cut to the points read
        ComplexMidRad& v = s[static_cast<size_t>(m)];
        v = {};
        if (m >= g.n_in) continue;
        int64_t off = g.in_offset(o, m, i);
        v.re = mid_rad_of(at(x, off));
        if (g.comps == 2) v.im = mid_rad_of(at(x, off + 1));
      }
      const std::vector<ComplexMidRad> points = irfft ? support::hermitian_extension(s, g.n, conj) : s;
      const double e = a.admissible ? a.fft_error(points, g.p.inverse) : 0;
      for (int64_t k = 0; k < g.bins; ++k) {
        Bin b = transform_bin(points, k, w, g.p.inverse, !irfft, a, e);
        int64_t off = g.out_offset(o, k, i);
        set(y, off, b.re);
        if (!irfft) set(y, off + 1, b.im);
      }
    }
  return {y};
}

// ---- STFT ----

std::vector<Bounds> stft(const OpCall& c) {
  const StftGeometry g = support::stft_geometry(c.ctx, spectral_inputs(c));
  const Bounds& x = float_input(c, 0);
  const Bounds* window = g.has_window ? &float_input(c, 2) : nullptr;
  const SpectralAllowance a = SpectralAllowance::of(c, x.type, window != nullptr);
  Bounds y = float_bounds(x.type, g.out_shape());
  if (g.batch == 0 || g.frames == 0) return {y};  // no frame: no twiddle to compute
  const Twiddles w(g.n);
  std::vector<ComplexMidRad> s(static_cast<size_t>(g.n));
  // A windowed point: the product's interval; under admissible it is rounded, which may also
  // underflow by a smallest subnormal (its relative rounding is in the count of the sum's terms).
  auto point = [&](Interval v, int64_t m) {
    if (!window) return mid_rad_of(v);
    MidRad p = mid_rad_of(v * at(*window, m));
    return is_zero(p) ? p : widened(p, a.tiny);
  };
  for (int64_t b = 0; b < g.batch; ++b)
    for (int64_t f = 0; f < g.frames; ++f) {
      for (int64_t m = 0; m < g.n; ++m) {
        int64_t off = g.in_offset(b, f, m);
        ComplexMidRad& v = s[static_cast<size_t>(m)];
        v.re = point(at(x, off), m);
        v.im = g.comps == 2 ? point(at(x, off + 1), m) : MidRad{};
      }
      const double e = a.admissible ? a.fft_error(s, false) : 0;
      for (int64_t k = 0; k < g.bins; ++k) {
        Bin bin = transform_bin(s, k, w, false, true, a, e);
        int64_t off = g.out_offset(b, f, k);
        set(y, off, bin.re);
        set(y, off + 1, bin.im);
      }
    }
  return {y};
}

}  // namespace

SONNX_ENCLOSURE("DFT", (17, 20), Allowance::own(), dft);
SONNX_ENCLOSURE("STFT", (17), Allowance::own(), stft);

}  // namespace sonnx::enclose
