// The enclosure of MelWeightMatrix-17 (enclose/enclose_melweight.cpp; spec/accuracy.md, "Admissible
// results"): on the suite's inputs and on others, the bins of the edge points computed in MPFR at 256
// bits (every argument of a floor at least 0.05 from an integer there), and from them the triangles
// as ONNX's definition writes them: each exact weight num/den lies in the real enclosure (checked by
// exact products), the reference's result and the chain computed in float lie in the admissible
// one, which holds the real one, and a value 1000 ulps from the reference's lies outside it; the
// suite's own expected matrix (0s and 1s, from the ONNX documents) is the real enclosure's points; an
// integer output type is exact; an edge point whose bin argument is an integer is Undetermined.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "enclose_test_util.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_int;

struct MelCase {
  int32_t num_mel_bins, dft_length, sample_rate;
  float lower, upper;
};

OneNodeModel melweight_model(const MelCase& mc, int64_t output_datatype = 1) {
  std::vector<onnx::AttributeProto> attrs;
  if (output_datatype != 1) attrs.push_back(attr_int("output_datatype", output_datatype));
  return one_node_model("MelWeightMatrix", 17,
                        {Value(Tensor::scalar<int32_t>(mc.num_mel_bins)), Value(Tensor::scalar<int32_t>(mc.dft_length)),
                         Value(Tensor::scalar<int32_t>(mc.sample_rate)), Value(Tensor::scalar<float>(mc.lower)),
                         Value(Tensor::scalar<float>(mc.upper))},
                        attrs);
}

// The bins of the num_mel_bins + 2 edge points in MPFR at 256 bits; each argument of the floor is
// required to lie at least 0.05 from an integer, so that the 256-bit floor is the exact one.
std::vector<int64_t> melweight_exact_bins(const MelCase& mc) {
  mpfr_t lo, hi, step, v;
  for (mpfr_ptr x : {lo, hi, step, v}) mpfr_init2(x, 256);
  auto mel = [](mpfr_ptr out, double hz) {  // 2595·log10(1 + hz/700)
    mpfr_set_d(out, hz, MPFR_RNDN);
    mpfr_div_ui(out, out, 700, MPFR_RNDN);
    mpfr_add_ui(out, out, 1, MPFR_RNDN);
    mpfr_log10(out, out, MPFR_RNDN);
    mpfr_mul_ui(out, out, 2595, MPFR_RNDN);
  };
  mel(lo, mc.lower);
  mel(hi, mc.upper);
  const int64_t points = mc.num_mel_bins + 2;
  mpfr_sub(step, hi, lo, MPFR_RNDN);
  mpfr_div_ui(step, step, static_cast<unsigned long>(points), MPFR_RNDN);
  std::vector<int64_t> bins;
  for (int64_t p = 0; p < points; ++p) {
    mpfr_mul_ui(v, step, static_cast<unsigned long>(p), MPFR_RNDN);
    mpfr_add(v, v, lo, MPFR_RNDN);
    mpfr_div_ui(v, v, 2595, MPFR_RNDN);
    mpfr_exp10(v, v, MPFR_RNDN);
    mpfr_sub_ui(v, v, 1, MPFR_RNDN);
    mpfr_mul_ui(v, v, 700, MPFR_RNDN);
    mpfr_mul_ui(v, v, static_cast<unsigned long>(mc.dft_length + 1), MPFR_RNDN);
    mpfr_div_ui(v, v, static_cast<unsigned long>(mc.sample_rate), MPFR_RNDN);
    double a = mpfr_get_d(v, MPFR_RNDN);
    // A lower edge of 0 Hz is bin 0 exactly (log10 1 = 0 and 10^0 = 1 are exact in IEEE 754).
    if (!(p == 0 && mc.lower == 0)) {
      EXPECT_GT(std::fabs(a - std::round(a)), 0.05) << "edge point " << p << " too near an integer for this test: " << a;
    }
    bins.push_back(static_cast<int64_t>(std::floor(a)));
  }
  for (mpfr_ptr x : {lo, hi, step, v}) mpfr_clear(x);
  return bins;
}

// The same chain in float, as a float implementation computes it.
std::vector<int64_t> melweight_float_bins(const MelCase& mc) {
  auto mel = [](float hz) { return 2595.0f * std::log10(1.0f + hz / 700.0f); };
  const float low = mel(mc.lower), step = (mel(mc.upper) - low) / static_cast<float>(mc.num_mel_bins + 2);
  std::vector<int64_t> bins;
  for (int64_t p = 0; p < mc.num_mel_bins + 2; ++p) {
    float hz = 700.0f * (std::pow(10.0f, (static_cast<float>(p) * step + low) / 2595.0f) - 1.0f);
    bins.push_back(
        static_cast<int64_t>(std::floor(static_cast<float>(mc.dft_length + 1) * hz / static_cast<float>(mc.sample_rate))));
  }
  return bins;
}

// The filters as ONNX's definition writes them: weights num/den at [row, filter], others 0.
struct MelWeight {
  int64_t num = 0, den = 1;
};
std::vector<MelWeight> melweight_triangles(const std::vector<int64_t>& bin, int64_t nb, int64_t rows) {
  std::vector<MelWeight> w(static_cast<size_t>(rows * nb));
  for (int64_t i = 0; i < nb; ++i) {
    int64_t l = bin[static_cast<size_t>(i)], c = bin[static_cast<size_t>(i + 1)], r = bin[static_cast<size_t>(i + 2)];
    if (c == l) w[static_cast<size_t>(c * nb + i)] = {1, 1};
    else
      for (int64_t j = l; j <= c; ++j) w[static_cast<size_t>(j * nb + i)] = {j - l, c - l};
    for (int64_t j = c; j < r; ++j) w[static_cast<size_t>(j * nb + i)] = {r - j, r - c};
  }
  return w;
}

void check_melweight(const MelCase& mc) {
  SCOPED_TRACE(std::to_string(mc.num_mel_bins) + " bins, dft " + std::to_string(mc.dft_length) + ", rate " +
               std::to_string(mc.sample_rate) + ", edges " + std::to_string(mc.lower) + " " + std::to_string(mc.upper));
  OneNodeModel m = melweight_model(mc);
  Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
  Tensor ref = reference_output(m);
  const int64_t rows = mc.dft_length / 2 + 1, nb = mc.num_mel_bins;
  ASSERT_EQ(real.lo.shape(), (Shape{rows, nb}));
  std::vector<int64_t> bins = melweight_exact_bins(mc);
  ASSERT_EQ(melweight_float_bins(mc), bins);  // the float chain floors to the same bins here
  std::vector<MelWeight> exact = melweight_triangles(bins, nb, rows);
  for (int64_t e = 0; e < rows * nb; ++e) {
    SCOPED_TRACE("element " + std::to_string(e));
    const MelWeight& w = exact[static_cast<size_t>(e)];
    Interval r = bound_at(real, e), a = bound_at(adm, e);
    // lo·den ≤ num ≤ hi·den, exactly.
    Exact lo_den(r.lo), hi_den(r.hi);
    mpfr_mul_si(lo_den.get(), lo_den.get(), w.den, MPFR_RNDN);
    mpfr_mul_si(hi_den.get(), hi_den.get(), w.den, MPFR_RNDN);
    EXPECT_LE(mpfr_cmp_si(lo_den.get(), w.num), 0);
    EXPECT_GE(mpfr_cmp_si(hi_den.get(), w.num), 0);
    double y = ref.as_double(e);
    float in_float = static_cast<float>(w.num) / static_cast<float>(w.den);
    for (double v : {y, static_cast<double>(in_float)})
      EXPECT_TRUE(a.contains(v)) << v << " outside [" << a.lo << ", " << a.hi << "]";
    EXPECT_LE(a.lo, r.lo);
    EXPECT_GE(a.hi, r.hi);
    // A float ulp at y; below the normal floats (a zero weight) 2^(max(ilogb y, −149) − 23), far
    // less than float_ulp's 2^-149 there, so a zero weight's enclosure must be narrower still.
    const double ulp = std::fabs(y) >= 0x1p-126 ? float_ulp(y) : std::ldexp(1.0, std::max(std::ilogb(y), -149) - 23);
    EXPECT_FALSE(a.contains(y + 1000 * ulp));
    EXPECT_FALSE(a.contains(y - 1000 * ulp));
  }
}

TEST(EncloseMelWeightMatrix, HoldsTheFiltersOfTheExactBins) {
  check_melweight({8, 16, 8192, 0.0f, 4096.0f});  // the suite's test_melweightmatrix
  check_melweight({10, 64, 16000, 100.0f, 7000.0f});
  check_melweight({5, 128, 22050, 300.0f, 7500.0f});
}

// The suite's expected output (ONNX's documents, a 9×8 matrix of 0s and 1s) is the real enclosure,
// point for point.
TEST(EncloseMelWeightMatrix, SuiteMatrixIsExact) {
  Bounds real = enclose_output(melweight_model({8, 16, 8192, 0.0f, 4096.0f}), Semantics::Real);
  std::vector<double> want(72, 0.0);
  for (auto [row, col] : {std::pair{0, 0}, {0, 1}, {1, 2}, {1, 3}, {2, 4}, {3, 5}, {4, 6}, {5, 7}}) want[row * 8 + col] = 1;
  for (int64_t e = 0; e < 72; ++e) {
    EXPECT_EQ(bound_at(real, e).lo, want[static_cast<size_t>(e)]) << e;
    EXPECT_EQ(bound_at(real, e).hi, want[static_cast<size_t>(e)]) << e;
  }
}

// output_datatype int32: the weights truncated, exactly the reference's.
TEST(EncloseMelWeightMatrix, IntegerOutputIsExact) {
  OneNodeModel m = melweight_model({10, 64, 16000, 100.0f, 7000.0f}, 6);
  Bounds adm = enclose_output(m, Semantics::Admissible);
  Tensor ref = reference_output(m);
  ASSERT_EQ(adm.type, DType::Int32);
  ASSERT_EQ(adm.lo.shape(), ref.shape());
  for (int64_t e = 0; e < ref.size(); ++e) EXPECT_EQ(adm.lo.as_int64(e), ref.as_int64(e)) << e;
}

// lower_edge_hertz = 500 with dft_length 15 and sample_rate 8000: the first edge point's bin
// argument is 16·500/8000 = 1 exactly, and no enclosure of the logarithm and power it goes through
// can decide its floor.
TEST(EncloseMelWeightMatrix, BinOnAnIntegerIsUndetermined) {
  OneNodeModel m = melweight_model({4, 15, 8000, 500.0f, 4000.0f});
  EXPECT_THROW(enclose_output(m, Semantics::Real), Undetermined);
  EXPECT_THROW(enclose_output(m, Semantics::Admissible), Undetermined);
}

}  // namespace
}  // namespace sonnx::enclose
