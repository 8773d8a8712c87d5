// Float16 <-> float32 conversion of contiguous runs, for the fast kernels that compute float16
// tensors in float32 (unary.cpp, elementwise.cpp). Widening is exact; narrowing rounds to nearest,
// ties to even, as float16_t(float) does (include/sonnx/float16.h): overflow gives ±inf,
// subnormal halves are kept, NaN stays NaN (its payload may differ from float16_t's).
#pragma once
#include <cstdint>

#include "sonnx/float16.h"

namespace sonnx::fast {

// y[i] = float(x[i]) for i < n.
void half_to_float(const float16_t* x, float* y, int64_t n);
// y[i] = float16(x[i]) for i < n, rounded once to nearest-even.
void float_to_half(const float* x, float16_t* y, int64_t n);

}  // namespace sonnx::fast
