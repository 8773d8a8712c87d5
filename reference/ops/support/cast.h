// Cast: conversion of a tensor to another element type (Cast, CastLike, and every kernel that
// needs a type conversion).
#pragma once
#include "kernel.h"

namespace sonnx::support {

// Numbers → numbers: integer → integer keeps the low bits (two's complement), float → integer
// truncates toward zero and saturates (NaN → 0), anything → bool is "≠ 0", bool → number is 0/1,
// and conversions into a floating type round to nearest even with a single rounding (into
// float16/bfloat16 from the exact double, see round_from_double in numeric.h; int64/uint64
// values beyond 2^53 are first rounded to double).
// Numbers → string: integers in decimal; bool as "1"/"0"; floats as the shortest decimal that
// reads back to the same value, plain ("314.15926", "1.0") for 1e-4 <= |x| < 1e16 and scientific
// ("1e-05", "1.5e+16") outside, as Python prints floats; NaN, +inf and -inf as "NaN", "INF", "-INF".
// String → numbers: leading and trailing blanks are ignored, an initial '+' is accepted; floats
// read plain and scientific notation and, case-insensitively, "INF", "+INF", "-INF", "NaN" (and
// "infinity"); integers read a decimal integer (kept modulo 2^bits like an int64 → int cast) or
// else a float truncated toward zero and saturated ("100.5" → 100); bool reads "true"/"false"
// (any case) or a number (≠ 0 is true). Any other string traps.

Tensor cast_tensor(const OpContext& ctx, const Tensor& t, DType to);

}  // namespace sonnx::support
