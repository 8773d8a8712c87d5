// Round half to even, independent of the FPU rounding mode: what ONNX prescribes for Round,
// quantization and the casts into narrow formats.
#pragma once
#include <cmath>

namespace sonnx {

inline double round_half_even(double x) {
  if (!std::isfinite(x)) return x;
  double f = std::floor(x);
  double diff = x - f;  // exact: the fraction of a double is a double
  double r = diff < 0.5 ? f : diff > 0.5 ? f + 1.0 : std::fmod(f, 2.0) == 0.0 ? f : f + 1.0;
  return std::copysign(r, x);  // keeps -0 for inputs in [-0.5, -0]
}

}  // namespace sonnx
