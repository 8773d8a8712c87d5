// C helpers for the small element types (include/sonnx/small_types.h, spec/element_types.md):
// the float8 kinds (e4m3fn, e4m3fnuz, e5m2, e5m2fnuz, e8m0) and float4e2m1, held as their bit
// pattern in a uint8_t (float4 in bits 0-3), and int4/uint4/int2/uint2, held one per byte (int4
// and int2 sign-extended in an int8_t). Each function registers its C definition once through
// e.helper() (with <math.h> asked for where it needs it) and returns the C function's name; the C
// computes as reference/model/small_types.cpp does (decode, encode, to_float8e8m0,
// small_int_residue), with the same exact libm functions (ldexp, ilogb, floor, fmod, copysign), so
// the bits are the reference's. float16/bfloat16 are c_half.h's.
#pragma once
#include <string>

#include "emit_op.h"
#include "sonnx/small_types.h"

namespace sonnx::emit {

// `static double NAME(STORAGE)`: small_to_double, the exact value (a NaN keeps its sign and, for
// e5m2, its payload in the double's top mantissa bits, as the reference's decode). For the 2- and
// 4-bit integers, the integer's value.
std::string emit_small_to_double(NodeEmitter& e, DType small);

// `static STORAGE NAME(double)`: small_from_double<T>(d, o). A small float: rounded once to nearest
// even at the type's precision, then Cast's tables for NaN, ±inf and overflow under o.saturate and
// o.fnuz_inf_to_max (float4e2m1 always saturates); e8m0 as o.e8m0_rounding says. A small integer:
// rounded to the nearest integer, ties to even, its low bits (NaN and ±inf give 0). The options
// are part of the function's name (one function per combination a model uses).
std::string emit_small_from_double(NodeEmitter& e, DType small, const NarrowOptions& o);

// `static STORAGE NAME(uint64_t)`: small_int_from_integer, the low 4 or 2 bits of an integer's two's
// complement (pass any C integer converted to uint64_t, which keeps those bits).
std::string emit_small_int_from_integer(NodeEmitter& e, DType small);

// `static double NAME(int64_t)` (Int64) or `NAME(uint64_t)` (UInt64): support::
// integer_to_double_round_odd (numeric.h), the integer truncated to 53 significant bits, the last
// set when bits were lost, so that one more rounding into a narrow format is the integer's correct
// rounding. (Narrower integers convert exactly with a C cast.)
std::string emit_integer_to_double_round_odd(NodeEmitter& e, DType integer);

}  // namespace sonnx::emit
