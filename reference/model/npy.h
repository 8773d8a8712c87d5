// numpy .npy files (format version 1.0–3.0, little-endian, C order) for `sonnx run`.
#pragma once
#include <filesystem>

#include "tensor.h"

namespace sonnx {

Tensor read_npy(const std::filesystem::path& file);  // LoadError on anything it cannot read
void write_npy(const std::filesystem::path& file, const Tensor& t);

}  // namespace sonnx
