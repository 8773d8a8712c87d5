// One softmax line as the fast Softmax kernel computes it (softmax.cpp), for kernels that compute
// a softmax inside a larger step (attention.cpp).
#pragma once
#include <cstdint>

namespace sonnx::fast {

// y[k] = exp(x[k] − m) / Σ exp(x[j] − m) over a contiguous line of n floats, m the line's maximum
// (a NaN makes the whole line NaN): the exponentials and their sum in double, each result rounded
// once, within 1 ULP of the reference (softmax.cpp says why). `e` holds n doubles; y may be x.
void softmax_line(const float* x, float* y, int64_t n, double* e);

}  // namespace sonnx::fast
