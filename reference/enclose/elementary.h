// Guaranteed bounds of elementary functions on intervals, through MPFR: each function is evaluated
// at 53 bits with MPFR's correct rounding toward −∞ for the lower bound and toward +∞ for the upper
// bound, at the end of the interval where the monotone function takes its minimum or maximum.
#pragma once
#include "interval.h"

namespace sonnx::enclose {

Interval exp(Interval x);
Interval log(Interval x);   // whole where x may be ≤ 0 (no real logarithm there)
Interval sqrt(Interval x);  // whole where x may be < 0
Interval tanh(Interval x);
Interval erf(Interval x);
Interval sigmoid(Interval x);  // 1 / (1 + e^(−x)), increasing

}  // namespace sonnx::enclose
