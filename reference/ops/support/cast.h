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
//
// The small types (small_types.h; Cast-19..25, spec/element_types.md):
// - From a small type: its exact value (a double, or the integer for int4/uint4/int2/uint2), then
//   the rules above (float8 → int32 truncates and saturates, int4 → int8 is exact, ...).
// - Into float8 e4m3fn/e4m3fnuz/e5m2/e5m2fnuz and float4e2m1: the exact value (an int64/uint64
//   rounded to odd, see integer_to_double_round_odd) rounded once to nearest even, then Cast's
//   tables for NaN, ±inf and out-of-range values under `saturate` (NarrowOptions); e8m0 rounds
//   as `round_mode` says. Bool gives 0 or 1.
// - Into int4/uint4/int2/uint2: integers and bool keep their low bits; floats are rounded to the
//   nearest integer (ties to even) and keep its low bits (NaN and ±inf give 0).
// - To and from string: small floats print their exact value as a double prints (448 → "448.0",
//   2^-9 → "0.001953125"); small integers in decimal; strings convert as to double, then as above.
// Cast into and out of the small types needs no `to` check here: Cast's kernels refuse the types
// their version does not have.

// With the options of the latest Cast (saturate, round up, fnuz ±inf → ±max).
Tensor cast_tensor(const OpContext& ctx, const Tensor& t, DType to);
Tensor cast_tensor(const OpContext& ctx, const Tensor& t, DType to, const NarrowOptions& options);

// Traps unless `type` is in the type constraints of this Cast/CastLike version (float8 from 19,
// int4/uint4 21, float4e2m1 23, float8e8m0 24, int2/uint2 25).
void require_cast_type(const OpContext& ctx, DType type, const char* what);

}  // namespace sonnx::support
