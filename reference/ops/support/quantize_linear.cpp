#include "quantize_linear.h"

#include <cmath>

#include "numeric.h"

namespace sonnx::support {

std::vector<int64_t> scale_index_map(const OpContext& ctx, const Shape& x, const Shape& scale, int64_t axis, int64_t block_size,
                                     const char* what) {
  const int64_t n = shape_size(x), rank = static_cast<int64_t>(x.size());
  const int64_t count = shape_size(scale);
  if (count == 1 && scale.size() <= 1 && block_size <= 0) return std::vector<int64_t>(static_cast<size_t>(n), 0);
  if (rank == 0) ctx.fail(std::string(what) + " " + shape_str(scale) + " does not fit a scalar input");
  if (axis < -rank || axis >= rank)
    ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  if (axis < 0) axis += rank;
  int64_t inner = 1;
  for (int64_t d = axis + 1; d < rank; ++d) inner *= x[static_cast<size_t>(d)];
  const int64_t dim = x[static_cast<size_t>(axis)];
  std::vector<int64_t> map(static_cast<size_t>(n));
  if (block_size <= 0) {
    if (scale.size() != 1 || scale[0] != dim)
      ctx.fail(std::string(what) + " " + shape_str(scale) + " is neither one value nor one per index of axis " +
               std::to_string(axis) + " (" + std::to_string(dim) + ")");
    for (int64_t i = 0; i < n; ++i) map[static_cast<size_t>(i)] = (i / inner) % dim;
    return map;
  }
  // Blocked: the scale has x's shape with ceil(dim / block_size) along the axis.
  const int64_t blocks = (dim + block_size - 1) / block_size;
  bool fits = static_cast<int64_t>(scale.size()) == rank;
  for (int64_t d = 0; fits && d < rank; ++d)
    fits = scale[static_cast<size_t>(d)] == (d == axis ? blocks : x[static_cast<size_t>(d)]);
  if (!fits)
    ctx.fail(std::string(what) + " " + shape_str(scale) + " does not block " + shape_str(x) + " along axis " +
             std::to_string(axis) + " in blocks of " + std::to_string(block_size));
  for (int64_t i = 0; i < n; ++i) {
    int64_t outer = i / (inner * dim), along = (i / inner) % dim, in = i % inner;
    map[static_cast<size_t>(i)] = (outer * blocks + along / block_size) * inner + in;
  }
  return map;
}

double round_to_precision(double v, DType precision) {
  switch (precision) {
    case DType::Float: return static_cast<double>(static_cast<float>(v));
    case DType::Float16: return static_cast<double>(static_cast<float>(round_from_double<float16_t>(v)));
    case DType::BFloat16: return static_cast<double>(static_cast<float>(round_from_double<bfloat16_t>(v)));
    default: return v;
  }
}

bool is_quantized_integer(DType t) {
  switch (t) {
    case DType::Int8:
    case DType::UInt8:
    case DType::Int16:
    case DType::UInt16:
    case DType::Int4:
    case DType::UInt4:
    case DType::Int2:
    case DType::UInt2: return true;
    default: return false;
  }
}

std::pair<double, double> quantized_range(DType t) {
  switch (t) {
    case DType::Int8: return {-128, 127};
    case DType::UInt8: return {0, 255};
    case DType::Int16: return {-32768, 32767};
    case DType::UInt16: return {0, 65535};
    case DType::Int4: return {-8, 7};
    case DType::UInt4: return {0, 15};
    case DType::Int2: return {-2, 1};
    case DType::UInt2: return {0, 3};
    default: return {0, 0};
  }
}

}  // namespace sonnx::support
