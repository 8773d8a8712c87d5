#include "window_function.h"

#include <string>

namespace sonnx {

DType read_output_datatype(const AttrReader& r) {
  const DType t = r.attr_dtype("output_datatype").value_or(DType::Float);
  switch (t) {
    case DType::UInt8:
    case DType::UInt16:
    case DType::UInt32:
    case DType::UInt64:
    case DType::Int8:
    case DType::Int16:
    case DType::Int32:
    case DType::Int64:
    case DType::Float16:
    case DType::Float:
    case DType::Double:
    case DType::BFloat16: return t;
    default: break;
  }
  r.fail("output_datatype " + std::to_string(static_cast<int>(t)) + " is not allowed");
  return DType::Float;  // not reached: GCC does not see fail() as noreturn through the virtual call
}

WindowFunctionParams WindowFunctionParams::read(const AttrReader& r, int64_t /*version*/) {
  WindowFunctionParams p;
  const int64_t periodic = r.attr_int("periodic", 1);
  if (periodic != 0 && periodic != 1) r.fail("periodic must be 0 or 1, got " + std::to_string(periodic));
  p.periodic = periodic == 1;
  p.output_datatype = read_output_datatype(r);
  return p;
}

}  // namespace sonnx
