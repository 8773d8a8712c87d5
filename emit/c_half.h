// C helpers for the float16 and bfloat16 element types (held as their uint16_t bits): conversions
// to and from float, written as the reference does them (include/sonnx/float16.h; numeric.h
// round_from_double). Each function registers its C definition once through e.helper() and
// returns the C function's name.
#pragma once
#include <string>

#include "emit_op.h"

namespace sonnx::emit {

bool is_half_type(DType t);  // float16 or bfloat16

// `static uint32_t sonnx_float_bits(float)` / `static uint64_t sonnx_double_bits(double)`: the
// bits of a float or double (`floating`), and the other way round (`sonnx_bits_float`,
// `sonnx_bits_double`); returns the name. A union is C99's defined way to reinterpret (C99 TC3
// 6.5.2.3 note 82); each is registered only where it is called (an unused static function is a
// -Wunused-function warning).
std::string emit_bits_of(NodeEmitter& e, DType floating);
std::string emit_from_bits(NodeEmitter& e, DType floating);

// `static float NAME(uint16_t)`: the exact value of the bits.
std::string emit_half_to_float(NodeEmitter& e, DType half);
// `static uint16_t NAME(float)`: rounded to nearest even (float16_t(float) / bfloat16_t(float)).
std::string emit_half_from_float(NodeEmitter& e, DType half);
// `static uint16_t NAME(double)`: rounded once (round_from_double: float rounded to odd, then to
// the half type), never double -> float -> half.
std::string emit_half_from_double(NodeEmitter& e, DType half);

}  // namespace sonnx::emit
