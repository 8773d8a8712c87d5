// QuantizeLinear and DequantizeLinear from opset 19 on (spec: Changelog.md QuantizeLinear-19..25,
// DequantizeLinear-19..25): per-tensor, per-axis and blocked scales; float8, float4 and 2/4/16-bit
// quantized types; arithmetic in the precision a type names.
#pragma once
#include <cstdint>
#include <vector>

#include "kernel.h"

namespace sonnx::support {

// For every element of x (row-major), the index of its scale (and zero point): per tensor (the
// scale has one element), per axis (1-D of length x.shape[axis]) or blocked (the rank of x, equal
// dims except along `axis`, where it has ceil(D / block_size) with block_size > 0). Traps on a
// scale shape that is none of these. `what` names the scale input in messages.
std::vector<int64_t> scale_index_map(const OpContext& ctx, const Shape& x, const Shape& scale, int64_t axis, int64_t block_size,
                                     const char* what);

// v rounded to nearest even into the precision of a floating type (float, float16, bfloat16,
// double), as a double; other types leave v as it is.
double round_to_precision(double v, DType precision);

// Whether `t` is a quantized integer type (int8, uint8, int16, uint16, int4, uint4, int2, uint2),
// and its range.
bool is_quantized_integer(DType t);
std::pair<double, double> quantized_range(DType t);

}  // namespace sonnx::support
