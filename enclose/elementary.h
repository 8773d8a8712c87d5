// Guaranteed bounds of elementary functions on intervals, through MPFR: each function is evaluated
// at 53 bits with MPFR's correct rounding toward −∞ for the lower bound and toward +∞ for the upper
// bound, at the end of the interval where the monotone function takes its minimum or maximum (or,
// for sin, cos and pow, at every point where it may: the ends of monotone pieces and the extrema).
#pragma once
#include "interval.h"

namespace sonnx::enclose {

Interval exp(Interval x);
Interval log(Interval x);   // undefined where x may be < 0 (no real logarithm there); log 0 = −∞
Interval sqrt(Interval x);  // undefined where x may be < 0
Interval tanh(Interval x);
Interval erf(Interval x);
Interval sigmoid(Interval x);   // 1 / (1 + e^(−x)), increasing
Interval softplus(Interval x);  // ln(1 + e^x), increasing

// Not monotone: the ends' values, and ±1 where the interval may hold a maximum or minimum
// (decided against a rigorous enclosure of π); undefined for an interval without finite ends (it
// may hold ±∞, where neither has a limit).
Interval sin(Interval x);
Interval cos(Interval x);

// x^y as a real number: for y a point with an integer value, x^y by the sign of x and the parity
// of y (undefined where y < 0 and x may be 0); otherwise where x > 0 (or x ≥ 0 and y > 0);
// undefined where x may be < 0 (no real power at a non-integer exponent).
Interval pow(Interval x, Interval y);

}  // namespace sonnx::enclose
