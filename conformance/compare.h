// Comparing an output against the expected one (docs/design.md §4.1): shape and element type exactly,
// numbers within |actual − expected| ≤ atol + rtol·|expected| (NaN equals NaN), with the error
// figures a report needs (max absolute, relative and ULP error).
#pragma once
#include <string>

#include "sonnx/value.h"

namespace sonnx {

struct Tolerance {
  double rtol = 1e-3;
  double atol = 1e-7;
};

struct Comparison {
  bool ok = true;
  std::string message;  // why it failed (first difference)
  double max_abs = 0, max_rel = 0, max_ulp = 0;
  int64_t mismatches = 0;
  void merge(const Comparison& o);
};

Comparison compare_values(const Value& actual, const Value& expected, const Tolerance& tol);

// For operators whose results are samples (Accuracy::Random): same shape and type, and the two
// samples agree in distribution to the extent a small test can tell — means within 5 standard
// errors, and values confined to {0,1} when the expected ones are.
Comparison compare_statistically(const Value& actual, const Value& expected);

// Distance in units in the last place between two floats of the same type (as double).
double ulp_distance(double a, double b, DType type);

}  // namespace sonnx
