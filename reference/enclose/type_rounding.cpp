#include "type_rounding.h"

#include "reference/model/errors.h"

namespace sonnx::enclose {

FloatFormat float_format(DType type) {
  switch (type) {
    case DType::Double: return {};
    case DType::Float: return {24, -126, 0x1.fffffep127};
    case DType::Float16: return {11, -14, 65504.0};
    case DType::BFloat16: return {8, -126, 0x1.fep127};
    default: throw Unsupported("no admissible enclosure for " + std::string(dtype_name(type)) + " values");
  }
}

}  // namespace sonnx::enclose
