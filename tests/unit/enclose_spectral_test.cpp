// Enclosures of DFT (17, 20) and STFT (17) (enclose/enclose_spectral.cpp). The expected values are
// computed here, independently of the code under test: the exact transform at 300 bits through
// MPFR (π from mpfr_const_pi, the angle 2π·k·m/n not reduced: MPFR reduces it), each signal read
// from the input tensor by the test's own strides (zero-padded or cut, the half spectrum of the
// inverse real transform extended by conjugation here); and float32 implementations written here:
// a direct sum (float angle, std::cos and std::sin in float, float accumulation) and an iterative
// radix-2 Cooley–Tukey FFT with float twiddles.
// Each real enclosure must hold the MPFR value and be narrow (within 2^-30 of the sum of the
// points' magnitudes S, and within an ulp of float where the value is at least S/1024); each
// admissible enclosure must hold the reference kernel's result and the float implementations'
// results — on large inputs too, where a float FFT misses an exactly-zero bin by about 1e-3 — and
// must not hold a value 10^-3·S away from the exact one (a wrong transform). Where the kernel traps
// the enclosure traps; an undefined point makes its own signal's bins undefined and no others.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "enclose_test_util.h"
#include "sonnx/errors.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_int;
using sonnx::testing::none;
using Attrs = std::vector<onnx::AttributeProto>;

// ---- Exact values (MPFR) ----

// A point of a signal (or a bin of a half spectrum): float values, held exactly.
struct Point {
  double re = 0, im = 0;
};

// Bin k of the transform of s: Σ_m s[m]·e^(∓2πi·k·m/n), ÷ n when inverse, at 300 bits.
void exact_bin(const std::vector<Point>& s, int64_t k, bool inverse, RealAt<300>& re, RealAt<300>& im) {
  const long n = static_cast<long>(s.size());
  RealAt<300> angle, c, sn, t;
  mpfr_set_zero(re.get(), 1);
  mpfr_set_zero(im.get(), 1);
  for (long m = 0; m < n; ++m) {
    mpfr_const_pi(angle.get(), MPFR_RNDN);
    mpfr_mul_si(angle.get(), angle.get(), 2 * static_cast<long>(k) * m, MPFR_RNDN);
    mpfr_div_si(angle.get(), angle.get(), inverse ? n : -n, MPFR_RNDN);
    mpfr_sin_cos(sn.get(), c.get(), angle.get(), MPFR_RNDN);
    const Point& p = s[static_cast<size_t>(m)];
    mpfr_mul_d(t.get(), c.get(), p.re, MPFR_RNDN);  // re += a·cos − b·sin, im += a·sin + b·cos
    mpfr_add(re.get(), re.get(), t.get(), MPFR_RNDN);
    mpfr_mul_d(t.get(), sn.get(), p.im, MPFR_RNDN);
    mpfr_sub(re.get(), re.get(), t.get(), MPFR_RNDN);
    mpfr_mul_d(t.get(), sn.get(), p.re, MPFR_RNDN);
    mpfr_add(im.get(), im.get(), t.get(), MPFR_RNDN);
    mpfr_mul_d(t.get(), c.get(), p.im, MPFR_RNDN);
    mpfr_add(im.get(), im.get(), t.get(), MPFR_RNDN);
  }
  if (inverse) {
    mpfr_div_si(re.get(), re.get(), n, MPFR_RNDN);
    mpfr_div_si(im.get(), im.get(), n, MPFR_RNDN);
  }
}

// Σ_m |re s_m| + |im s_m|, ÷ n when inverse: the scale of every bin.
double magnitude_sum(const std::vector<Point>& s, bool inverse) {
  double sum = 0;
  for (const Point& p : s) sum += std::fabs(p.re) + std::fabs(p.im);
  return inverse ? sum / static_cast<double>(s.size()) : sum;
}

// ---- Float32 implementations ----

struct FloatPoint {
  float re = 0, im = 0;
};

constexpr float kTwoPi = 2.0f * 3.14159265358979f;  // 2π in float

// The direct sum in float: the angle 2π·(k·m mod n)/n in float, its cosine and sine in float, the
// products and the sums rounded to float in order; ÷ n in float when inverse.
std::vector<FloatPoint> float_direct(const std::vector<FloatPoint>& s, int64_t bins, bool inverse) {
  const int64_t n = static_cast<int64_t>(s.size());
  std::vector<FloatPoint> out(static_cast<size_t>(bins));
  for (int64_t k = 0; k < bins; ++k) {
    float re = 0, im = 0;
    for (int64_t m = 0; m < n; ++m) {
      float angle = (inverse ? kTwoPi : -kTwoPi) * static_cast<float>((k * m) % n) / static_cast<float>(n);
      float c = std::cos(angle), sn = std::sin(angle);
      const FloatPoint& p = s[static_cast<size_t>(m)];
      re += p.re * c - p.im * sn;
      im += p.re * sn + p.im * c;
    }
    if (inverse) {
      re /= static_cast<float>(n);
      im /= static_cast<float>(n);
    }
    out[static_cast<size_t>(k)] = {re, im};
  }
  return out;
}

// The iterative radix-2 Cooley–Tukey FFT in float (n a power of two): bit-reversed order, then
// log₂ n stages of butterflies a ± w·b with the twiddle w = e^(∓2πi·j/len) computed in float.
std::vector<FloatPoint> float_fft(std::vector<FloatPoint> a, bool inverse) {
  const size_t n = a.size();
  for (size_t i = 1, j = 0; i < n; ++i) {
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  for (size_t len = 2; len <= n; len <<= 1)
    for (size_t i = 0; i < n; i += len)
      for (size_t j = 0; j < len / 2; ++j) {
        float angle = (inverse ? kTwoPi : -kTwoPi) * static_cast<float>(j) / static_cast<float>(len);
        float c = std::cos(angle), sn = std::sin(angle);
        FloatPoint u = a[i + j], v = a[i + j + len / 2];
        FloatPoint t{v.re * c - v.im * sn, v.re * sn + v.im * c};
        a[i + j] = {u.re + t.re, u.im + t.im};
        a[i + j + len / 2] = {u.re - t.re, u.im - t.im};
      }
  if (inverse)
    for (FloatPoint& p : a) {
      p.re /= static_cast<float>(n);
      p.im /= static_cast<float>(n);
    }
  return a;
}

bool power_of_two(size_t n) { return n > 0 && (n & (n - 1)) == 0; }

std::vector<FloatPoint> as_float(const std::vector<Point>& s) {
  std::vector<FloatPoint> f;
  for (const Point& p : s) f.push_back({static_cast<float>(p.re), static_cast<float>(p.im)});  // exact: they are floats
  return f;
}

// ---- Cases: the signals as the test reads them ----

// One transform of a case: its points and where its bins go in the output (element
// base + k·stride, its imaginary part next to it when the output is complex).
struct Signal {
  std::vector<Point> points;
  int64_t base = 0, stride = 1;
};

// The transforms of a case and the layout of its output.
struct Expected {
  std::vector<Signal> signals;
  int64_t bins = 0;
  bool complex_out = true;
  bool inverse = false;
  int64_t n = 0;
};

Shape row_major_strides(const Shape& shape) {
  Shape s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * shape[d];
  return s;
}

// Every index over `dims` (row-major).
std::vector<Shape> all_indices(const Shape& dims) {
  std::vector<Shape> out{Shape(dims.size(), 0)};
  for (size_t d = dims.size(); d-- > 0;) {
    std::vector<Shape> next;
    for (const Shape& idx : out)
      for (int64_t i = 0; i < dims[d]; ++i) {
        Shape v = idx;
        v[d] = i;
        next.push_back(v);
      }
    out = std::move(next);
  }
  return out;
}

struct DftCase {
  std::string what;
  int64_t version = 17;
  Shape shape;  // [..., 1 or 2]
  std::vector<double> x;
  DType type = DType::Float;
  std::optional<int64_t> axis;    // before 20 the attribute (default 1), from 20 the input (default −2)
  std::optional<int64_t> length;  // dft_length
  bool inverse = false, onesided = false;
};

Value tensor_of(const Shape& shape, const std::vector<double>& x, DType type) {
  if (type == DType::Double) return Value(Tensor::from_vector<double>(shape, x));
  std::vector<float> f(x.begin(), x.end());
  Value v = floats(shape, f);
  if (type == DType::Float16) return sonnx::testing::retyped<float16_t>(v);
  return v;
}

OneNodeModel spectral_model_of(const DftCase& c) {
  std::vector<Value> in{tensor_of(c.shape, c.x, c.type), c.length ? Value(Tensor::scalar<int64_t>(*c.length)) : none()};
  Attrs attrs{attr_int("inverse", c.inverse ? 1 : 0), attr_int("onesided", c.onesided ? 1 : 0)};
  if (c.version < 20 && c.axis) attrs.push_back(attr_int("axis", *c.axis));
  if (c.version >= 20 && c.axis) in.push_back(Value(Tensor::scalar<int64_t>(*c.axis)));
  if (in.back().kind == Value::Kind::None) in.pop_back();
  return one_node_model("DFT", c.version, in, attrs);
}

// The case's transforms, read from its input as the ONNX definition says.
Expected expected_of(const DftCase& c) {
  const int64_t r = static_cast<int64_t>(c.shape.size());
  int64_t axis = c.axis.value_or(c.version < 20 ? 1 : -2);
  if (axis < 0) axis += r;
  const int64_t comps = c.shape.back(), n_in = c.shape[static_cast<size_t>(axis)];
  const bool irfft = c.version >= 20 && c.onesided && c.inverse;
  Expected e;
  e.inverse = c.inverse;
  e.n = c.length.value_or(irfft ? 2 * (n_in - 1) : n_in);
  const int64_t read = irfft ? e.n / 2 + 1 : e.n;
  e.bins = c.onesided && !c.inverse ? e.n / 2 + 1 : e.n;
  e.complex_out = !irfft;
  Shape out_shape = c.shape;
  out_shape[static_cast<size_t>(axis)] = e.bins;
  out_shape.back() = e.complex_out ? 2 : 1;
  const Shape in_strides = row_major_strides(c.shape), out_strides = row_major_strides(out_shape);
  Shape positions(c.shape.begin(), c.shape.end() - 1);
  positions[static_cast<size_t>(axis)] = 1;
  for (const Shape& idx : all_indices(positions)) {
    int64_t in_base = 0;
    Signal s;
    for (size_t d = 0; d < idx.size(); ++d) {
      in_base += idx[d] * in_strides[d];
      s.base += idx[d] * out_strides[d];
    }
    s.stride = out_strides[static_cast<size_t>(axis)];
    std::vector<Point> p(static_cast<size_t>(read));
    for (int64_t m = 0; m < read && m < n_in; ++m) {
      int64_t at = in_base + m * in_strides[static_cast<size_t>(axis)];
      p[static_cast<size_t>(m)] = {c.x[static_cast<size_t>(at)], comps == 2 ? c.x[static_cast<size_t>(at + 1)] : 0.0};
    }
    if (irfft) {  // X[k] for k ≤ n/2, conj(X[n − k]) beyond
      s.points.resize(static_cast<size_t>(e.n));
      for (int64_t k = 0; k < e.n; ++k) {
        const Point& h = p[static_cast<size_t>(k <= e.n / 2 ? k : e.n - k)];
        s.points[static_cast<size_t>(k)] = k <= e.n / 2 ? h : Point{h.re, -h.im};
      }
    } else {
      s.points = p;
    }
    e.signals.push_back(std::move(s));
  }
  return e;
}

// The real enclosure holds every exact element and is narrow; the admissible one holds it, holds
// the reference's output, and (float) holds no value 10^-3·S from it.
void check_enclosures(const Expected& e, const Bounds& real, const Bounds& admissible, const Tensor& reference,
                      DType type = DType::Float) {
  RealAt<300> re, im;
  for (const Signal& s : e.signals) {
    const double S = magnitude_sum(s.points, e.inverse);
    for (int64_t k = 0; k < e.bins; ++k) {
      exact_bin(s.points, k, e.inverse, re, im);
      const int64_t at = s.base + k * s.stride;
      for (int part = 0; part < (e.complex_out ? 2 : 1); ++part) {
        const RealAt<300>& exact = part == 0 ? re : im;
        const int64_t i = at + part;
        const Interval r = bound_at(real, i), a = bound_at(admissible, i);
        SCOPED_TRACE("bin " + std::to_string(k) + (part ? " im" : " re") + " at element " + std::to_string(i));
        EXPECT_TRUE(!r.has_nan() && exact.inside(r))
            << exact.to_double() << " outside the real [" << r.lo << ", " << r.hi << "]";
        EXPECT_LE(r.hi - r.lo, std::ldexp(S, -30)) << "real [" << r.lo << ", " << r.hi << "], S = " << S;
        if (std::fabs(exact.to_double()) >= S / 1024) {
          EXPECT_LE(width_in_ulps(r.lo, r.hi, DType::Float), 1.0) << "real [" << r.lo << ", " << r.hi << "]";
        }
        EXPECT_TRUE(!a.has_nan() && exact.inside(a))
            << exact.to_double() << " outside the admissible [" << a.lo << ", " << a.hi << "]";
        EXPECT_TRUE(a.contains(reference.as_double(i)))
            << "the reference's " << reference.as_double(i) << " outside the admissible [" << a.lo << ", " << a.hi << "]";
        if (type == DType::Float && S > 0) {
          EXPECT_FALSE(a.contains(exact.to_double() + 1e-3 * S)) << "admissible [" << a.lo << ", " << a.hi << "], S = " << S;
          EXPECT_FALSE(a.contains(exact.to_double() - 1e-3 * S)) << "admissible [" << a.lo << ", " << a.hi << "], S = " << S;
        }
      }
    }
  }
}

// A case's real and admissible enclosures (a DftCase or an StftCase) against the exact values and
// the reference; returns the exact values and the admissible enclosure.
template <class Case>
std::pair<Expected, Bounds> check_case_enclosures(const Case& c) {
  OneNodeModel m = spectral_model_of(c);
  Expected e = expected_of(c);
  Bounds real = enclose_output(m, Semantics::Real), admissible = enclose_output(m, Semantics::Admissible);
  Tensor reference = reference_output(m);
  if (real.lo.shape() != reference.shape() || admissible.lo.shape() != reference.shape()) {
    ADD_FAILURE() << "the enclosures' shapes are not the reference's";
    return {e, admissible};
  }
  if constexpr (requires { c.type; }) {
    EXPECT_EQ(real.type, c.type);
    check_enclosures(e, real, admissible, reference, c.type);
  } else {
    check_enclosures(e, real, admissible, reference);
  }
  return {e, admissible};
}

void check_case(const DftCase& c) {
  SCOPED_TRACE("DFT-" + std::to_string(c.version) + ": " + c.what);
  check_case_enclosures(c);
}

std::vector<double> random_values(size_t count, std::mt19937& rng, double lo = -1, double hi = 1) {
  std::vector<double> v;
  for (float f : uniform_floats(count, rng, static_cast<float>(lo), static_cast<float>(hi))) v.push_back(f);
  return v;
}

// ---- DFT ----

// Real and complex signals of every length, forward, inverse and one-sided, in both versions.
TEST(EncloseSpectral, DftEnclosuresHoldTheExactTransformAndTheReference) {
  std::mt19937 rng(17);
  for (int64_t version : {17, 20})
    for (int64_t n : {1, 5, 8, 16, 31})
      for (int64_t comps : {1, 2})
        for (bool inverse : {false, true})
          for (bool onesided : {false, true}) {
            if (onesided && (inverse || comps == 2)) continue;  // refused (17), or the inverse real transform (20, below)
            DftCase c;
            c.what = "n " + std::to_string(n) + (comps == 2 ? " complex" : " real") + (inverse ? " inverse" : "") +
                     (onesided ? " one-sided" : "");
            c.version = version;
            c.shape = {1, n, comps};
            c.x = random_values(static_cast<size_t>(n * comps), rng);
            c.inverse = inverse;
            c.onesided = onesided;
            check_case(c);
          }
}

TEST(EncloseSpectral, DftLengthPadsOrCutsAndTheAxisSelectsTheSignals) {
  std::mt19937 rng(18);
  for (int64_t version : {17, 20}) {
    for (int64_t length : {12, 5, 8})
      for (bool inverse : {false, true}) {
        DftCase c;
        c.what = "dft_length " + std::to_string(length) + " of 8" + (inverse ? " inverse" : "");
        c.version = version;
        c.shape = {2, 8, 2};
        c.x = random_values(32, rng);
        c.length = length;
        c.inverse = inverse;
        check_case(c);
      }
    // [2, 3, 4, 2]: the signals along each axis but the components'.
    for (int64_t axis : version < 20 ? std::vector<int64_t>{1, 2, -2} : std::vector<int64_t>{0, 1, -2, -3}) {
      DftCase c;
      c.what = "axis " + std::to_string(axis);
      c.version = version;
      c.shape = {2, 3, 4, 2};
      c.x = random_values(48, rng);
      c.axis = axis;
      c.length = axis == 1 ? std::optional<int64_t>(5) : std::nullopt;
      check_case(c);
    }
  }
  DftCase wide;  // magnitudes from 2^-20 to 2^20 in one signal
  wide.what = "wide magnitudes";
  wide.shape = {1, 16, 2};
  for (float f : wide_floats(32, rng)) wide.x.push_back(f);
  check_case(wide);
}

// DFT-20 with onesided and inverse: the inverse real transform of a half spectrum, its default
// length 2·(bins − 1), an odd length, a length that cuts it and one that pads it, along an inner axis.
TEST(EncloseSpectral, InverseRealTransformHoldsTheExactValue) {
  std::mt19937 rng(19);
  for (std::optional<int64_t> length :
       {std::optional<int64_t>{}, std::optional<int64_t>(9), std::optional<int64_t>(6), std::optional<int64_t>(12)}) {
    DftCase c;
    c.what = "irfft of 5 bins, length " + (length ? std::to_string(*length) : std::string("default"));
    c.version = 20;
    c.shape = {2, 5, 2};
    c.x = random_values(20, rng);
    c.length = length;
    c.inverse = c.onesided = true;
    check_case(c);
  }
  DftCase c;
  c.what = "irfft along axis 1 of [2, 4, 3, 2]";
  c.version = 20;
  c.shape = {2, 4, 3, 2};
  c.x = random_values(48, rng);
  c.axis = 1;
  c.inverse = c.onesided = true;
  check_case(c);
}

TEST(EncloseSpectral, DoubleAndFloat16Signals) {
  std::mt19937 rng(20);
  DftCase d;
  d.what = "double";
  d.type = DType::Double;
  d.shape = {1, 12, 2};
  std::uniform_real_distribution<double> u(-1, 1);
  for (int i = 0; i < 24; ++i) d.x.push_back(u(rng));
  check_case(d);
  // float16: the signal rounded to float16 first (the exact values are the rounded ones).
  DftCase h;
  h.what = "float16";
  h.type = DType::Float16;
  h.shape = {1, 8, 2};
  for (float f :
       sonnx::testing::floats_of<float16_t>(sonnx::testing::retyped<float16_t>(floats({16}, uniform_floats(16, rng, -1, 1)))))
    h.x.push_back(f);
  check_case(h);
}

// The admissible enclosure holds what float implementations compute: the direct sum and, for
// powers of two, the radix-2 FFT (all bins, then the one-sided ones kept).
void check_float_implementations(const DftCase& c) {
  SCOPED_TRACE("DFT-" + std::to_string(c.version) + ": " + c.what);
  Bounds a = enclose_output(spectral_model_of(c), Semantics::Admissible);
  Expected e = expected_of(c);
  for (const Signal& s : e.signals) {
    std::vector<FloatPoint> f = as_float(s.points);
    std::vector<std::vector<FloatPoint>> results{float_direct(f, e.bins, e.inverse)};
    if (power_of_two(f.size())) results.push_back(float_fft(f, e.inverse));
    for (size_t r = 0; r < results.size(); ++r)
      for (int64_t k = 0; k < e.bins; ++k) {
        const FloatPoint& y = results[r][static_cast<size_t>(k)];
        const int64_t i = s.base + k * s.stride;
        SCOPED_TRACE(std::string(r == 0 ? "direct sum" : "FFT") + ", bin " + std::to_string(k));
        EXPECT_TRUE(bound_at(a, i).contains(y.re))
            << y.re << " outside [" << bound_at(a, i).lo << ", " << bound_at(a, i).hi << "]";
        if (e.complex_out) {
          EXPECT_TRUE(bound_at(a, i + 1).contains(y.im))
              << y.im << " outside [" << bound_at(a, i + 1).lo << ", " << bound_at(a, i + 1).hi << "]";
        }
      }
  }
}

TEST(EncloseSpectral, AdmissibleHoldsAFloatDirectSumAndAFloatFft) {
  std::mt19937 rng(21);
  for (int64_t version : {17, 20})
    for (int64_t n : {1, 5, 8, 16, 31, 64})
      for (int64_t comps : {1, 2})
        for (bool inverse : {false, true}) {
          DftCase c;
          c.what = "n " + std::to_string(n) + (comps == 2 ? " complex" : " real") + (inverse ? " inverse" : "");
          c.version = version;
          c.shape = {1, n, comps};
          c.x = random_values(static_cast<size_t>(n * comps), rng, -1e4, 1e4);
          c.inverse = inverse;
          c.onesided = comps == 1 && !inverse && n % 2 == 0;
          check_float_implementations(c);
        }
  DftCase c;
  c.what = "irfft";
  c.version = 20;
  c.shape = {1, 9, 2};
  c.x = random_values(18, rng, -1e3, 1e3);
  c.inverse = c.onesided = true;
  check_float_implementations(c);
}

// A pure cosine at an integer frequency plus an offset, of magnitude 10^3..10^4, symmetric
// (x[m] = x[n − m], each sample the same float): the imaginary part of every bin is exactly 0, and
// so is every real part but those of bin 0 and ±f up to the samples' rounding. A float FFT misses
// those zeros by about 10^-3; its results lie in the admissible enclosure, which stays far
// narrower than 10^-3·S.
TEST(EncloseSpectral, AdmissibleHoldsAFloatFftsErrorAtAnExactlyZeroBin) {
  std::mt19937 rng(22);
  std::uniform_real_distribution<double> big(1e3, 1e4);
  bool some_missed = false;
  for (int64_t n : {16, 32, 64})
    for (bool inverse : {false, true}) {
      DftCase c;
      c.what = "cosine, n " + std::to_string(n) + (inverse ? " inverse" : "");
      c.shape = {1, n, 1};
      const double amplitude = big(rng), offset = big(rng), two_pi = 2 * std::acos(-1.0);
      for (int64_t m = 0; m < n; ++m) {
        const double turns = 3.0 * static_cast<double>(std::min(m, n - m)) / static_cast<double>(n);  // frequency 3
        c.x.push_back(static_cast<float>(offset + amplitude * std::cos(two_pi * turns)));
      }
      c.inverse = inverse;
      check_case(c);
      check_float_implementations(c);
      Expected e = expected_of(c);
      std::vector<FloatPoint> y = float_fft(as_float(e.signals[0].points), inverse);
      RealAt<300> re, im;
      for (int64_t k = 0; k < n; ++k) {
        exact_bin(e.signals[0].points, k, inverse, re, im);
        EXPECT_LT(std::fabs(im.to_double()), 1e-60) << "the imaginary part of bin " << k << " is 0";
        some_missed = some_missed || y[static_cast<size_t>(k)].im != 0;
      }
    }
  EXPECT_TRUE(some_missed) << "the float FFT computed every zero exactly: the case shows nothing";
}

// An undefined (NaN) or unbounded (infinite) point: its signal's bins are undefined, as a sum
// with such a term is (dot.h), and the other signals' are not.
TEST(EncloseSpectral, AnUndefinedPointMakesOnlyItsSignalsBinsUndefined) {
  DftCase c;
  c.what = "NaN and ∞";
  c.shape = {3, 4, 1};
  c.x = {1, std::nan(""), 2, 3, 1, INFINITY, 2, 3, 1, 4, 2, 3};
  for (Semantics s : {Semantics::Real, Semantics::Admissible}) {
    Bounds b = enclose_output(spectral_model_of(c), s);
    ASSERT_EQ(b.lo.shape(), (Shape{3, 4, 2}));
    for (int64_t i = 0; i < 16; ++i) EXPECT_TRUE(bound_at(b, i).has_nan()) << "element " << i;
    for (int64_t i = 16; i < 24; ++i) EXPECT_FALSE(bound_at(b, i).has_nan()) << "element " << i;
  }
  Expected e = expected_of(c);
  Bounds real = enclose_output(spectral_model_of(c), Semantics::Real);
  RealAt<300> re, im;
  for (int64_t k = 0; k < 4; ++k) {
    exact_bin(e.signals[2].points, k, false, re, im);
    const Interval r = bound_at(real, 16 + 2 * k), i = bound_at(real, 17 + 2 * k);
    EXPECT_TRUE(!r.has_nan() && re.inside(r));
    EXPECT_TRUE(!i.has_nan() && im.inside(i));
  }
}

// ---- STFT ----

struct StftCase {
  std::string what;
  Shape shape;  // [batch, length, 1 or 2]
  std::vector<double> x;
  int64_t step = 1;
  std::optional<std::vector<double>> window;
  std::optional<int64_t> frame_length;
  bool onesided = true;
};

OneNodeModel spectral_model_of(const StftCase& c) {
  auto as_floats = [](const std::vector<double>& v) { return std::vector<float>(v.begin(), v.end()); };
  std::vector<Value> in{floats(c.shape, as_floats(c.x)), Value(Tensor::scalar<int64_t>(c.step)),
                        c.window ? floats({static_cast<int64_t>(c.window->size())}, as_floats(*c.window)) : none(),
                        c.frame_length ? Value(Tensor::scalar<int64_t>(*c.frame_length)) : none()};
  while (in.back().kind == Value::Kind::None) in.pop_back();
  return one_node_model("STFT", 17, in, {attr_int("onesided", c.onesided ? 1 : 0)});
}

// The frames, each point the signal's times the window's (exact in double: a product of floats).
Expected expected_of(const StftCase& c) {
  const int64_t batch = c.shape[0], length = c.shape[1], comps = c.shape[2];
  Expected e;
  e.n = c.frame_length.value_or(c.window ? static_cast<int64_t>(c.window->size()) : 0);
  e.bins = c.onesided ? e.n / 2 + 1 : e.n;
  const int64_t frames = length < e.n ? 0 : (length - e.n) / c.step + 1;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t f = 0; f < frames; ++f) {
      Signal s;
      s.base = (b * frames + f) * e.bins * 2;
      s.stride = 2;
      for (int64_t m = 0; m < e.n; ++m) {
        const double w = c.window ? (*c.window)[static_cast<size_t>(m)] : 1.0;
        const size_t at = static_cast<size_t>((b * length + f * c.step + m) * comps);
        s.points.push_back({c.x[at] * w, comps == 2 ? c.x[at + 1] * w : 0.0});
      }
      e.signals.push_back(std::move(s));
    }
  return e;
}

TEST(EncloseSpectral, StftEnclosuresHoldTheExactFramesTransformsAndFloatResults) {
  std::mt19937 rng(23);
  std::vector<StftCase> cases;
  auto add = [&](std::string what, Shape shape, int64_t step, std::optional<int64_t> window, std::optional<int64_t> length,
                 bool onesided) {
    StftCase c;
    c.what = std::move(what);
    c.shape = shape;
    c.x = random_values(static_cast<size_t>(shape_size(shape)), rng, -1e3, 1e3);
    c.step = step;
    if (window) c.window = random_values(static_cast<size_t>(*window), rng, 0, 1);
    c.frame_length = length;
    c.onesided = onesided;
    cases.push_back(std::move(c));
  };
  add("real, frame 8 every 3, no window", {2, 20, 1}, 3, std::nullopt, 8, true);
  add("real, frame 8 every 3, window", {2, 20, 1}, 3, 8, 8, true);
  add("real, frame 7 every 2, window, two-sided", {1, 15, 1}, 2, 7, std::nullopt, false);
  add("complex, frame 6 every 4, window, two-sided", {1, 17, 2}, 4, 6, std::nullopt, false);
  add("complex, frame 16 every 5, no window, two-sided", {1, 40, 2}, 5, std::nullopt, 16, false);
  add("shorter than a frame", {1, 4, 1}, 1, std::nullopt, 6, true);
  for (const StftCase& c : cases) {
    SCOPED_TRACE("STFT-17: " + c.what);
    auto [e, admissible] = check_case_enclosures(c);
    // In float: the window's products rounded, then the direct sum, and the FFT where n is a power of two.
    for (const Signal& s : e.signals) {
      std::vector<FloatPoint> f;
      for (const Point& p : s.points) f.push_back({static_cast<float>(p.re), static_cast<float>(p.im)});  // fl(x·w)
      std::vector<std::vector<FloatPoint>> results{float_direct(f, e.bins, false)};
      if (power_of_two(f.size())) results.push_back(float_fft(f, false));
      for (const auto& y : results)
        for (int64_t k = 0; k < e.bins; ++k) {
          const int64_t i = s.base + 2 * k;
          EXPECT_TRUE(bound_at(admissible, i).contains(y[static_cast<size_t>(k)].re)) << "bin " << k;
          EXPECT_TRUE(bound_at(admissible, i + 1).contains(y[static_cast<size_t>(k)].im)) << "bin " << k;
        }
    }
  }
}

// ---- Traps ----

TEST(EncloseSpectral, TrapsWhereTheKernelTraps) {
  struct TrapCase {
    std::string what;
    OneNodeModel model;
    std::string fragment;
  };
  Value x = floats({1, 4, 1}, {1, 2, 3, 4}), xc = floats({1, 2, 2}, {1, 0, 1, 0});
  Value zero = Value(Tensor::scalar<int64_t>(0));
  std::vector<TrapCase> cases = {
      {"DFT-17 dft_length 0", one_node_model("DFT", 17, {x, zero}), "positive"},
      {"DFT-20 dft_length 0", one_node_model("DFT", 20, {x, zero}), "positive"},
      {"DFT-20 along the components", one_node_model("DFT", 20, {x, none(), Value(Tensor::scalar<int64_t>(-1))}), "axis"},
      {"DFT-17 one-sided complex", one_node_model("DFT", 17, {xc}, {attr_int("onesided", 1)}), "complex"},
      {"DFT-17 one-sided inverse", one_node_model("DFT", 17, {x}, {attr_int("onesided", 1), attr_int("inverse", 1)}),
       "onesided"},
      {"STFT frame_step 0", one_node_model("STFT", 17, {x, zero, none(), Value(Tensor::scalar<int64_t>(2))}), "frame_step"},
      {"STFT without window or frame_length", one_node_model("STFT", 17, {x, Value(Tensor::scalar<int64_t>(1))}),
       "window or frame_length"},
      {"STFT window and frame_length differ",
       one_node_model("STFT", 17,
                      {x, Value(Tensor::scalar<int64_t>(1)), floats({3}, {1, 1, 1}), Value(Tensor::scalar<int64_t>(2))}),
       "differs"},
  };
  for (const TrapCase& c : cases) {
    SCOPED_TRACE(c.what);
    sonnx::testing::expect_trap([&] { reference_output(c.model); }, c.fragment);
    sonnx::testing::expect_trap([&] { enclose_output(c.model, Semantics::Real); }, c.fragment);
    sonnx::testing::expect_trap([&] { enclose_output(c.model, Semantics::Admissible); }, c.fragment);
  }
}

}  // namespace
}  // namespace sonnx::enclose
