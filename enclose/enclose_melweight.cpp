// The enclosure of MelWeightMatrix-17 (reference/ops/MelWeightMatrix.cpp): from the integers
// num_mel_bins, dft_length, sample_rate and the float edges, num_mel_bins + 2 points spaced evenly
// in mel, mel(f) = 2595·log10(1 + f/700), each mapped back to hertz and floored to a spectrogram
// bin, floor((dft_length + 1)·hz / sample_rate); the filters' weights are quotients of bin
// differences (support::mel_triangles, shared with the kernel).
//
// Real: the chain in exact real arithmetic on the edges' bounds (interval arithmetic, log and pow
// through MPFR). Admissible: the chain as the definition writes it, in the edges' type or wider,
// each arithmetic step correctly rounded (within ½ ulp) and log10 and the power of 10 library
// functions within kElementaryUlps, exact where IEEE 754 specifies them so (log10 1 = 0, 10^0 = 1);
// each step's exact value on the previous step's enclosure, then widened and rounded outward to the
// type. A bin is decided where the enclosure of its argument floors to one integer; where it holds
// an integer boundary the model does not decide the matrix (Undetermined). The weights, from decided
// bins, are quotients of integers: real, the exact quotient; admissible, correctly rounded to the
// output type (Allowance::within(½)); an integer output type is the reference's cast of them.
#include <cmath>
#include <string>
#include <vector>

#include "elementary.h"
#include "enclose_ops.h"
#include "reference/ops/params/window_function.h"
#include "reference/ops/support/cast.h"
#include "reference/ops/support/spectral.h"
#include "sonnx/errors.h"

namespace sonnx::enclose::melweight_detail {

// An integer scalar input (int32 or int64), as the kernel reads it.
int64_t melweight_int(const OpCall& c, size_t k, const char* name) {
  const Bounds& b = c.input(k);
  if (b.type != DType::Int32 && b.type != DType::Int64) c.ctx.fail(std::string(name) + " must be int32 or int64");
  if (b.lo.size() != 1) c.ctx.fail(std::string(name) + " must be a scalar");
  return b.lo.as_int64(0);
}

// A float scalar input's enclosure.
Interval melweight_edge(const OpCall& c, size_t k, const char* name) {
  const Bounds& b = c.input(k);
  if (b.exact()) c.ctx.fail(std::string(name) + " must be a floating-point tensor");
  if (b.lo.size() != 1) c.ctx.fail(std::string(name) + " must be a scalar");
  return at(b, 0);
}

// The steps of the chain under the call's semantics: exact, or rounded in the type `f`.
struct MelChain {
  const FloatFormat* f;  // null: the real semantics
  Interval arith(Interval exact) const { return f ? f->round_out(exact) : exact; }
  Interval number(double v) const { return arith(Interval::point(v)); }  // an integer converted to the type
  // An elementary function's value, exact where `exact_point` (IEEE 754's exact cases).
  Interval elementary(Interval exact, bool exact_point) const {
    if (!f) return exact;
    return exact_point ? f->round_out(exact) : widen_ulps(exact, kElementaryUlps, *f);
  }
  Interval log10(Interval x) const { return elementary(log(x) / log(Interval::point(10)), x.lo == 1 && x.hi == 1); }
  Interval pow10(Interval x) const { return elementary(pow(Interval::point(10), x), x.lo == 0 && x.hi == 0); }
  // 2595·log10(1 + hz/700)
  Interval mel(Interval hz) const { return arith(number(2595) * log10(arith(Interval::point(1) + arith(hz / number(700))))); }
};

std::vector<Bounds> enclose_melweight(const OpCall& c) {
  const MelWeightMatrixParams p = MelWeightMatrixParams::read(c.ctx, c.version);
  const int64_t num_mel_bins = melweight_int(c, 0, "num_mel_bins");
  const int64_t dft_length = melweight_int(c, 1, "dft_length");
  const int64_t sample_rate = melweight_int(c, 2, "sample_rate");
  const Interval lower = melweight_edge(c, 3, "lower_edge_hertz"), upper = melweight_edge(c, 4, "upper_edge_hertz");
  if (num_mel_bins < 0) c.ctx.fail("num_mel_bins must not be negative");
  if (dft_length < 1) c.ctx.fail("dft_length must be positive");
  if (sample_rate < 1) c.ctx.fail("sample_rate must be positive");
  auto undetermined = [&](const std::string& what) {
    throw Undetermined(c.node.label() + ": the enclosures do not decide " + what);
  };
  if (lower.has_nan() || upper.has_nan()) undetermined("the edges (undefined)");
  if (lower.hi < 0 || lower.lo > upper.hi) c.ctx.fail("the edges must satisfy 0 <= lower_edge_hertz <= upper_edge_hertz");
  if (lower.lo < 0 || lower.hi > upper.lo) undetermined("whether 0 <= lower_edge_hertz <= upper_edge_hertz");

  std::optional<FloatFormat> type;
  if (c.semantics == Semantics::Admissible) type = float_format(c.input(3).type);
  const MelChain ch{type ? &*type : nullptr};
  const int64_t spectrogram_bins = dft_length / 2 + 1, points = num_mel_bins + 2;
  const Interval low_mel = ch.mel(lower);
  const Interval step = ch.arith(ch.arith(ch.mel(upper) - low_mel) / ch.number(static_cast<double>(points)));
  const Interval dft1 = ch.number(static_cast<double>(dft_length + 1)), rate = ch.number(static_cast<double>(sample_rate));
  std::vector<int64_t> bin(static_cast<size_t>(points));
  for (int64_t k = 0; k < points; ++k) {
    Interval m = ch.arith(ch.arith(ch.number(static_cast<double>(k)) * step) + low_mel);
    Interval hz = ch.arith(ch.arith(ch.pow10(ch.arith(m / ch.number(2595))) - Interval::point(1)) * ch.number(700));
    Interval arg = ch.arith(ch.arith(dft1 * hz) / rate);
    if (arg.has_nan() || !std::isfinite(arg.lo) || !std::isfinite(arg.hi) || std::floor(arg.lo) != std::floor(arg.hi))
      undetermined("the spectrogram bin of mel edge point " + std::to_string(k) + " (floor of [" + std::to_string(arg.lo) +
                   ", " + std::to_string(arg.hi) + "])");
    bin[static_cast<size_t>(k)] = support::mel_edge_bin(c.ctx, std::floor(arg.lo), hz.lo, spectrogram_bins);
  }

  const Shape shape{spectrogram_bins, num_mel_bins};
  if (!is_float(p.output_datatype) && !is_small_float(p.output_datatype)) {  // the reference's cast of the quotients
    Tensor w(DType::Double, shape);
    double* o = w.data<double>();
    support::mel_triangles(bin, num_mel_bins, [&](int64_t j, int64_t i, int64_t num, int64_t den) {
      o[j * num_mel_bins + i] = static_cast<double>(num) / static_cast<double>(den);
    });
    return {Bounds::of(support::cast_tensor(c.ctx, w, p.output_datatype))};
  }
  Bounds y = float_bounds(p.output_datatype, shape);
  support::mel_triangles(bin, num_mel_bins, [&](int64_t j, int64_t i, int64_t num, int64_t den) {
    set(y, j * num_mel_bins + i, Interval::point(static_cast<double>(num)) / Interval::point(static_cast<double>(den)));
  });
  return {y};
}

}  // namespace sonnx::enclose::melweight_detail

namespace sonnx::enclose {
SONNX_ENCLOSURE("MelWeightMatrix", (17), Allowance::within(0.5), melweight_detail::enclose_melweight);
}  // namespace sonnx::enclose
