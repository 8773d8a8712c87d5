// The enclosure of Det-11 and Det-22 (enclose/enclose_det.cpp; spec/accuracy.md, "Admissible
// results"): for matrices of order 1 to 4, alone and batched, the exact determinant (a Laplace
// expansion in MPFR at 2200 bits, exact for these products of floats) lies in the real enclosure, a
// point for point inputs where the determinant is a double; the reference's result, Gaussian
// elimination with partial pivoting in float and (2×2) ad − bc in float lie in the admissible one,
// which holds the real one; a value 1000 float ulps of Hadamard's bound Π‖a_j‖ away from the
// reference's lies outside it (10⁴ at order 4, where the a priori growth factor is 8).
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "enclose_test_util.h"

namespace sonnx::enclose {
namespace {

// det of the n×n matrix `a` (row-major) by Laplace expansion along the first row, into `out`.
void det_laplace(const std::vector<double>& a, int64_t n, mpfr_ptr out) {
  if (n == 0) {
    mpfr_set_d(out, 1, MPFR_RNDN);
    return;
  }
  mpfr_set_d(out, 0, MPFR_RNDN);
  for (int64_t j = 0; j < n; ++j) {
    std::vector<double> minor;
    for (int64_t r = 1; r < n; ++r)
      for (int64_t c = 0; c < n; ++c)
        if (c != j) minor.push_back(a[static_cast<size_t>(r * n + c)]);
    Exact sub(0);
    det_laplace(minor, n - 1, sub.get());
    mpfr_mul_d(sub.get(), sub.get(), a[static_cast<size_t>(j)], MPFR_RNDN);  // exact at 2200 bits
    if (j % 2) mpfr_sub(out, out, sub.get(), MPFR_RNDN);
    else mpfr_add(out, out, sub.get(), MPFR_RNDN);
  }
}

// Gaussian elimination with partial pivoting in float: what a float implementation computes.
float det_float_gepp(std::vector<float> a, int64_t n) {
  auto el = [&](int64_t r, int64_t c) -> float& { return a[static_cast<size_t>(r * n + c)]; };
  float det = 1;
  for (int64_t k = 0; k < n; ++k) {
    int64_t p = k;
    for (int64_t r = k + 1; r < n; ++r)
      if (std::fabs(el(r, k)) > std::fabs(el(p, k))) p = r;
    if (el(p, k) == 0) return 0;
    if (p != k) {
      for (int64_t c = 0; c < n; ++c) std::swap(el(k, c), el(p, c));
      det = -det;
    }
    det *= el(k, k);
    for (int64_t r = k + 1; r < n; ++r) {
      float f = el(r, k) / el(k, k);
      for (int64_t c = k; c < n; ++c) el(r, c) -= f * el(k, c);
    }
  }
  return det;
}

void check_det(const Shape& xs, const std::vector<float>& x, int64_t opset) {
  const int64_t n = xs.back(), batch = static_cast<int64_t>(x.size()) / std::max<int64_t>(1, n * n);
  OneNodeModel m = one_node_model("Det", opset, {floats(xs, x)});
  Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
  Tensor ref = reference_output(m);
  ASSERT_EQ(real.lo.size(), batch);
  for (int64_t b = 0; b < batch; ++b) {
    SCOPED_TRACE("matrix " + std::to_string(b) + " of order " + std::to_string(n));
    std::vector<float> af(x.begin() + b * n * n, x.begin() + (b + 1) * n * n);
    std::vector<double> a(af.begin(), af.end());
    Exact exact(0);
    det_laplace(a, n, exact.get());
    Interval r = bound_at(real, b), ad = bound_at(adm, b);
    EXPECT_TRUE(exact.inside(r)) << "[" << r.lo << ", " << r.hi << "]";
    std::vector<double> implementations = {ref.as_double(b), det_float_gepp(af, n)};
    if (n == 2) implementations.push_back(af[0] * af[3] - af[1] * af[2]);
    for (double v : implementations) EXPECT_TRUE(ad.contains(v)) << v << " outside [" << ad.lo << ", " << ad.hi << "]";
    EXPECT_LE(ad.lo, r.lo);
    EXPECT_GE(ad.hi, r.hi);
    double hadamard = 1;
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t i = 0; i < n; ++i) s += a[static_cast<size_t>(i * n + j)] * a[static_cast<size_t>(i * n + j)];
      hadamard *= std::sqrt(s);
    }
    double y = ref.as_double(b), far = (n < 4 ? 1000 : 10000) * float_ulp(std::max(hadamard, std::fabs(y)));
    EXPECT_FALSE(ad.contains(y + far));
    EXPECT_FALSE(ad.contains(y - far));
  }
}

TEST(EncloseDet, HoldsTheDeterminantAndEveryPivotedElimination) {
  std::mt19937 rng(1122);
  for (int64_t opset : {11, 22})
    for (int64_t n = 1; n <= 4; ++n)
      for (int round = 0; round < 4; ++round) {
        SCOPED_TRACE("opset " + std::to_string(opset) + " round " + std::to_string(round));
        size_t count = static_cast<size_t>(3 * n * n);
        std::vector<float> x = round % 2 == 0 ? uniform_floats(count, rng, -1.0f, 1.0f) : wide_floats(count, rng);
        check_det({3, n, n}, x, opset);
      }
}

// Rank 2 (one matrix: a scalar output) and rank 4 (a [2, 2] batch of 3×3 matrices).
TEST(EncloseDet, BatchShapes) {
  std::mt19937 rng(2211);
  check_det({3, 3}, uniform_floats(9, rng, -2.0f, 2.0f), 22);
  check_det({2, 2, 3, 3}, uniform_floats(36, rng, -1.0f, 1.0f), 22);
}

// Determinants a double holds: points under `real`, by hand; a singular matrix's is exactly 0.
TEST(EncloseDet, ExactDeterminantsArePoints) {
  OneNodeModel m = one_node_model("Det", 22, {floats({3, 2, 2}, {2, 0, 0, 3, 1, 2, 2, 4, 0.5f, 1, -1, 4})});
  Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
  const double want[] = {6, 0, 0.5 * 4 + 1};  // 2·3; 1·4 − 2·2; 0.5·4 − 1·(−1)
  for (int64_t b = 0; b < 3; ++b) {
    SCOPED_TRACE("matrix " + std::to_string(b));
    EXPECT_EQ(bound_at(real, b).lo, want[b]);
    EXPECT_EQ(bound_at(real, b).hi, want[b]);
    EXPECT_TRUE(bound_at(adm, b).contains(want[b]));
  }
  // A 4×4 permutation matrix of an odd permutation (one swap): −1 exactly.
  OneNodeModel p = one_node_model("Det", 22, {floats({4, 4}, {0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1})});
  Bounds pr = enclose_output(p, Semantics::Real);
  EXPECT_EQ(bound_at(pr, 0).lo, -1.0);
  EXPECT_EQ(bound_at(pr, 0).hi, -1.0);
}

}  // namespace
}  // namespace sonnx::enclose
