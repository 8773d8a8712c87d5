// Fast mode's e^x for float and the half types (docs/emit-c.md, "Modes"): the linear executor's
// exp_poly (optimized/kernels/unary.cpp) written in C, in the loop body itself (a function called
// from many nodes is not inlined, and a call stops the vectoriser), with no library call, so that
// the loop vectorises (compiled with -fno-trapping-math, which lets the compiler turn its clamp
// into vector selects). Within a
// few double ulps of e^x, so a float result rounded from it is within 1 ulp of the exact one:
// inside the 4-ulp allowance of Exp and Sigmoid (spec/accuracy.md).
#pragma once
#include <string>

#include "emit_op.h"

namespace sonnx::emit {

// Writes the lines that declare `const double RESULT` = e^X (X a double C expression without side
// effects), with locals named RESULT_*.
void emit_exp_poly(NodeEmitter& e, const std::string& x, const std::string& result);

}  // namespace sonnx::emit
