// numpy .npy files (format version 1.0–3.0, little-endian, C order) for `sonnx run`.
// The types numpy lacks (float8 kinds, float8e8m0, float4e2m1, int4/uint4, int2/uint2) are stored
// one byte per element (unpacked, as in memory) under a one-field structured descr naming the ONNX
// type: [('float8e4m3fn', '|u1')], [('int4', '|i1')] (int4/int2 "|i1", the others "|u1"). A "|V1"
// descr (how numpy saves ml_dtypes arrays) names no type and is refused with a LoadError.
#pragma once
#include <filesystem>

#include "sonnx/tensor.h"

namespace sonnx {

Tensor read_npy(const std::filesystem::path& file);  // LoadError on anything it cannot read
void write_npy(const std::filesystem::path& file, const Tensor& t);

}  // namespace sonnx
