// C helpers for the float16 and bfloat16 element types (held as their uint16_t bits): conversions
// to and from float, written as the reference does them (include/sonnx/float16.h; numeric.h
// round_from_double). Each function registers its C definition once through e.helper() and
// returns the C function's name.
#pragma once
#include <string>

#include "emit_op.h"

namespace sonnx::emit {

bool is_half_type(DType t);  // float16 or bfloat16

// `static float NAME(uint16_t)`: the exact value of the bits.
std::string emit_half_to_float(NodeEmitter& e, DType half);
// `static uint16_t NAME(float)`: rounded to nearest even (float16_t(float) / bfloat16_t(float)).
std::string emit_half_from_float(NodeEmitter& e, DType half);
// `static uint16_t NAME(double)`: rounded once (round_from_double: float rounded to odd, then to
// the half type), never double -> float -> half.
std::string emit_half_from_double(NodeEmitter& e, DType half);

}  // namespace sonnx::emit
