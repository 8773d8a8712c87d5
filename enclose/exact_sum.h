// Sums of products tighter than DotBound's a-priori γ_n·Σ|terms| (dot.h), for the enclosures whose
// sums are short and whose weights are often simple (Resize's interpolation, enclose_resize.cpp):
// ExactSum recognises a sum that every summation order computes exactly, in double or in a type, so
// its enclosure is a point in either semantics; accurate_dot sums products of intervals by Dot2 in
// midpoint-radius form, about one ulp of the result where the a-priori bound is n/2 ulps of the
// magnitudes.
#pragma once
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "interval.h"
#include "type_rounding.h"

namespace sonnx::enclose {

// Σ w_i·x_i where it is exact: every w_i and x_i a point, each product exact in double (and a value
// of the type `f`, under the admissible semantics), and all of them multiples of one power of two 2^e
// with Σ|w_i·x_i| < 2^(e+p), p the precision (53, or the type's): then every partial sum, in any
// order, is a multiple of 2^e below 2^(e+p) in magnitude, a value of the type, so every summation
// order computes the exact sum (the reference's, and an implementation's in the type). Simple
// weights (0.5, 0.25, Keys' weights at quarter offsets) on small values are so.
class ExactSum {
 public:
  explicit ExactSum(const FloatFormat* f) : f_(f) {}  // f null: in double
  void add(Interval w, Interval x);
  // The exact sum, or nothing where the terms are not as above.
  std::optional<double> result() const;

 private:
  void fail() { ok_ = false; }
  const FloatFormat* f_;
  bool ok_ = true;
  double sum_ = 0, abs_ = 0;
  int low_ = std::numeric_limits<int>::max();
};

// Σ a_i·b_i over intervals in midpoint-radius form, the midpoints' products summed by Dot2 (Ogita,
// Rump and Oishi, "Accurate sum and dot product", SIAM J. Sci. Comput. 26(6), 2005, Proposition 5.5:
// |res − Σ| ≤ u·|Σ| + γ_n²·Σ|m_a·m_b| without underflow, u = 2^-53), about one ulp of the result
// where DotBound's a priori γ_n·Σ|terms| is n/2 ulps of the magnitudes; plus the radii
// Σ |m_a|·r_b + r_a·(|m_b| + r_b), rounded up, and 4·2^-1074 a term for underflow.
Interval accurate_dot(const std::vector<std::pair<Interval, Interval>>& terms);

}  // namespace sonnx::enclose
