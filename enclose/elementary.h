// Guaranteed bounds of elementary functions on intervals, through MPFR: each function is evaluated
// at 53 bits with MPFR's correct rounding toward −∞ for the lower bound and toward +∞ for the upper
// bound, at the end of the interval where the monotone function takes its minimum or maximum (or,
// for sin, cos, cosh and pow, at every point where it may: the ends of monotone pieces and the
// extrema).
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
// The standard normal quantile Φ⁻¹, increasing on [0, 1] (∓∞ at 0 and 1), undefined where the
// interval may leave [0, 1]; its bounds are certified against Φ at 200 bits, not MPFR-rounded.
Interval probit(Interval p);

// Not monotone: the ends' values, and ±1 where the interval may hold a maximum or minimum
// (decided against a rigorous enclosure of π); undefined for an interval without finite ends (it
// may hold ±∞, where neither has a limit).
Interval sin(Interval x);
Interval cos(Interval x);

// The inverse trigonometric and the hyperbolic functions and their inverses. asin, acos and atanh
// are defined on [−1, 1], acosh on [1, +∞): undefined where the interval may leave that domain
// (acos 2 has no real value, as the reference's NaN says); atanh ±1 = ±∞, the limits. acos is
// decreasing, cosh decreasing up to 0 and increasing from there (its minimum 1 at 0), the others
// increasing; atan ±∞ = ±π/2.
Interval asin(Interval x);
Interval acos(Interval x);
Interval atan(Interval x);
Interval sinh(Interval x);
Interval cosh(Interval x);
Interval asinh(Interval x);
Interval acosh(Interval x);
Interval atanh(Interval x);

// Increasing between its poles, the odd multiples of π/2: undefined where the interval may hold one
// (tan has no value there, and no real number bounds it near one; as a quotient by an interval
// holding 0 is undefined), or has an infinite end (tan ∞ has no limit).
Interval tan(Interval x);

// x^y as a real number: for y a point with an integer value, x^y by the sign of x and the parity
// of y (undefined where y < 0 and x may be 0); otherwise where x > 0 (or x ≥ 0 and y > 0);
// undefined where x may be < 0 (no real power at a non-integer exponent).
Interval pow(Interval x, Interval y);

}  // namespace sonnx::enclose
