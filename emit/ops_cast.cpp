// C template of Cast-25 (reference/ops/Cast.cpp, support/cast.cpp convert_number), between the
// element types with a C type: float, double, int8..int64, uint8..uint64, bool.
//   - the same type: a copy (cast_tensor returns the input);
//   - into bool: x != 0 (NaN is true);
//   - from bool: 0 or 1 (bool is held as uint8_t 0/1);
//   - float/double into an integer type: support::saturating_cast (truncates toward zero, saturates
//     at the limits, NaN -> 0), the float widened to double first (exact), through the helper
//     sonnx_saturating_cast_<type> (emit_util.h);
//   - integer into integer: the C conversion, which keeps the low bits (two's complement) as the
//     reference's static_cast; into float/double and double into float: the C conversion, rounded
//     once to nearest even as the reference's static_cast.
// `saturate` (read with CastParams) and round_mode only concern the float8 types: nothing to do here.
// Exact mode: one conversion per element, the reference's; fast mode writes the same code.
// Refused by name: float16, bfloat16, the float8 and float4 types, int4/uint4/int2/uint2, string
// and complex, as source or target; an output type other than `to`.
#include "emit_util.h"
#include "reference/ops/params/cast.h"

namespace sonnx::emit {
namespace {

bool emit_cast_is_float(DType t) { return t == DType::Float || t == DType::Double; }

void emit_cast(NodeEmitter& e) {
  const CastParams p = e.params<CastParams>();
  const DType from = e.input(0).dtype, to = p.to;
  if (to == DType::Undefined) e.refuse("attribute 'to' is not a data type sonnx casts to");
  if (!has_c_type(from)) e.refuse("input element type " + std::string(dtype_name(from)) + " (no C template for it)");
  if (!has_c_type(to)) e.refuse("target element type " + std::string(dtype_name(to)) + " (no C template for it)");
  if (e.output(0).dtype != to) e.refuse("output element type differs from 'to'");
  if (e.output(0).shape != e.input(0).shape) e.refuse("output shape differs from the input's");
  const std::string ct = c_type(to);
  const LoopNest loops = open_loops(e, Shape{e.output(0).size()});
  const std::string x = "x0[" + loops.index[0] + "]", y = "y0[" + loops.index[0] + "]";
  if (from == to) e.line(y + " = " + x + ";");
  else if (to == DType::Bool) e.line(y + " = (uint8_t)(" + x + " != " + c_literal(from, 0.0) + ");");
  else if (emit_cast_is_float(from) && !emit_cast_is_float(to))
    e.line(y + " = " + emit_saturating_cast(e, to) + "(" + (from == DType::Double ? x : "(double)" + x) + ");");
  else e.line(y + " = (" + ct + ")" + x + ";");
  close_loops(e, loops);
}

}  // namespace

SONNX_EMIT_C("", "Cast", (25), emit_cast);

}  // namespace sonnx::emit
