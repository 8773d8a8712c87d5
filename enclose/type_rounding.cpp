#include "type_rounding.h"

#include "sonnx/errors.h"

namespace sonnx::enclose {

FloatFormat float_format(DType type) {
  switch (type) {
    case DType::Double: return {};
    case DType::Float: return {24, -126, 0x1.fffffep127};
    case DType::Float16: return {11, -14, 65504.0};
    case DType::BFloat16: return {8, -126, 0x1.fep127};
    // The small floats of Cast (IR.md; e8m0 holds only the powers of two 2^-127 .. 2^127).
    case DType::Float8E4M3FN: return {4, -6, 448.0};
    case DType::Float8E4M3FNUZ: return {4, -7, 240.0};
    case DType::Float8E5M2: return {3, -14, 57344.0};
    case DType::Float8E5M2FNUZ: return {3, -15, 57344.0};
    case DType::Float4E2M1: return {2, 0, 6.0};
    case DType::Float8E8M0: return {1, -127, 0x1p127};
    default: throw Unsupported("no admissible enclosure for " + std::string(dtype_name(type)) + " values");
  }
}

}  // namespace sonnx::enclose
