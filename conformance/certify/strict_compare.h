// The certification comparison (docs/design.md §4.3, stricter than `conform`): a backend's output against
// the reference interpreter's. Exact operators: bitwise (NaN equals NaN). Rounding operators: an
// element passes when it is within 2 ULP, or within abs + rel·|reference| with float32 abs 1e-6 /
// rel 1e-5, float64 abs 1e-12 / rel 1e-12, float16/bfloat16 abs 1e-3 / rel 1e-3; integers exactly.
// Random operators: by distribution (compare_statistically). Shapes and element types exactly.
#pragma once
#include "conformance/compare.h"
#include "reference/ops/registry.h"

namespace sonnx {

struct StrictTolerance {
  double abs = 0, rel = 0, ulp = 0;
};
StrictTolerance strict_tolerance(DType t);

Comparison strict_compare(const Value& actual, const Value& reference, Accuracy accuracy);

}  // namespace sonnx
