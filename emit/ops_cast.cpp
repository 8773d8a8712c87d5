// C template of Cast-25 (reference/ops/Cast.cpp, support/cast.cpp convert_number), between every
// pair of numeric element types sonnx has: bool, int8..int64, uint8..uint64, float, double,
// float16, bfloat16, float8e4m3fn, float8e4m3fnuz, float8e5m2, float8e5m2fnuz, float8e8m0,
// float4e2m1, int4, uint4, int2, uint2 (each held as c_storage_type says). One element at a time,
// the reference's convert_number<To, From> step by step:
//   - the same type: a copy of the bits (cast_tensor returns the input);
//   - from a small float: its exact value as a double (emit_small_to_double), then as from double;
//     from int4/uint4/int2/uint2: the value as an int64, then as from int64; from float16/bfloat16:
//     the value as a float (c_half), then as from float;
//   - into a small float: small_from_double (emit_small_from_double, under `saturate` and, from the
//     options CastParams reads, ±inf -> ±max in the fnuz types and e8m0's `round_mode`) of the
//     exact value: bool 0/1, a 64-bit integer through integer_to_double_round_odd, a narrower one
//     or a float by the exact C conversion to double;
//   - into int4/uint4/int2/uint2: bool 0/1 and integers keep their low bits
//     (emit_small_int_from_integer); float/double round half to even and keep the low bits, NaN and
//     ±inf give 0 (emit_small_from_double);
//   - into bool: x != 0 (NaN is true);
//   - into float16/bfloat16: round_from_double of the value as a double (one rounding, c_half's
//     emit_half_from_double; an int64/uint64 beyond 2^53 is first rounded to double by the C
//     conversion, as the reference's static_cast<double>);
//   - float/double into a classic integer type: support::saturating_cast of the value as a double
//     (truncates toward zero, saturates, NaN -> 0; emit_saturating_cast);
//   - otherwise the C conversion, which is the reference's static_cast: integer into integer keeps
//     the low bits (two's complement), into float/double and double into float rounds once to
//     nearest even, bool gives 0/1.
// Exact mode: one conversion per element, the reference's; fast mode writes the same code.
// Refused by name: string and complex, as source or target; an undefined `to`; an output type
// other than `to`, or a shape other than the input's.
#include "c_half.h"
#include "c_small_types.h"
#include "emit_util.h"
#include "reference/ops/params/cast.h"

namespace sonnx::emit {
namespace {

bool emit_cast_is_float(DType t) { return t == DType::Float || t == DType::Double; }

bool emit_cast_is_small_float(DType t) {
  switch (t) {
    case DType::Float8E4M3FN:
    case DType::Float8E4M3FNUZ:
    case DType::Float8E5M2:
    case DType::Float8E5M2FNUZ:
    case DType::Float8E8M0:
    case DType::Float4E2M1: return true;
    default: return false;
  }
}

bool emit_cast_is_small_int(DType t) { return t == DType::Int4 || t == DType::UInt4 || t == DType::Int2 || t == DType::UInt2; }

bool emit_cast_is_numeric(DType t) {
  return t == DType::Bool || is_integer(t) || emit_cast_is_float(t) || is_half_type(t) || emit_cast_is_small_float(t) ||
         emit_cast_is_small_int(t);
}

// A source element as the reference's convert_number sees it after its first step: a C expression
// `value` of the classic type `type` (bool, an integer type, float or double).
struct EmitCastSource {
  std::string value;
  DType type;
};

EmitCastSource emit_cast_source(NodeEmitter& e, DType from, const std::string& x) {
  if (emit_cast_is_small_float(from)) return {emit_small_to_double(e, from) + "(" + x + ")", DType::Double};
  if (emit_cast_is_small_int(from)) return {"(int64_t)" + x, DType::Int64};
  if (is_half_type(from)) return {emit_half_to_float(e, from) + "(" + x + ")", DType::Float};
  return {x, from};
}

// The value of a classic number as a double, exactly as value_for_small_float (support/cast.cpp)
// makes it for one rounding into a small float.
std::string emit_cast_exact_double(NodeEmitter& e, const EmitCastSource& s) {
  if (s.type == DType::Bool) return "((" + s.value + " != 0u) ? 1.0 : 0.0)";
  if (s.type == DType::Int64 || s.type == DType::UInt64)
    return emit_integer_to_double_round_odd(e, s.type) + "(" + s.value + ")";
  if (s.type == DType::Double) return s.value;
  return "(double)" + s.value;  // float, and the integers of at most 32 bits: exact
}

// The C expression of y = convert_number<to>(source), of to's storage type.
std::string emit_cast_convert(NodeEmitter& e, const EmitCastSource& s, DType to, const NarrowOptions& o) {
  const std::string& v = s.value;
  if (s.type == to) return v;  // convert_number<T, T>: static_cast<T>, the identity
  if (emit_cast_is_small_float(to)) return emit_small_from_double(e, to, o) + "(" + emit_cast_exact_double(e, s) + ")";
  if (emit_cast_is_small_int(to)) {
    if (s.type == DType::Bool) return emit_small_int_from_integer(e, to) + "((" + v + " != 0u) ? UINT64_C(1) : UINT64_C(0))";
    if (is_integer(s.type)) return emit_small_int_from_integer(e, to) + "((uint64_t)" + v + ")";
    return emit_small_from_double(e, to, o) + "(" + (s.type == DType::Double ? v : "(double)" + v) + ")";
  }
  if (to == DType::Bool) return "(uint8_t)((" + v + " != " + c_literal(s.type, 0.0) + ") ? 1u : 0u)";
  if (is_half_type(to)) return emit_half_from_double(e, to) + "(" + (s.type == DType::Double ? v : "(double)" + v) + ")";
  if (emit_cast_is_float(s.type) && is_integer(to))
    return emit_saturating_cast(e, to) + "(" + (s.type == DType::Double ? v : "(double)" + v) + ")";
  return "(" + std::string(c_type(to)) + ")" + v;
}

void emit_cast(NodeEmitter& e) {
  const CastParams p = e.params<CastParams>();
  const DType from = e.input(0).dtype, to = p.to;
  if (to == DType::Undefined) e.refuse("attribute 'to' is not a data type sonnx casts to");
  if (!emit_cast_is_numeric(from)) e.refuse("input element type " + std::string(dtype_name(from)) + " (no C template for it)");
  if (!emit_cast_is_numeric(to)) e.refuse("target element type " + std::string(dtype_name(to)) + " (no C template for it)");
  if (e.output(0).dtype != to) e.refuse("output element type differs from 'to'");
  if (e.output(0).shape != e.input(0).shape) e.refuse("output shape differs from the input's");
  const LoopNest loops = open_loops(e, Shape{e.output(0).size()});
  const std::string x = "x0[" + loops.index[0] + "]", y = "y0[" + loops.index[0] + "]";
  if (from == to) e.line(y + " = " + x + ";");  // cast_tensor returns the input: its bits
  else e.line(y + " = " + emit_cast_convert(e, emit_cast_source(e, from, x), to, p.options) + ";");
  close_loops(e, loops);
}

}  // namespace

SONNX_EMIT_C("", "Cast", (25), emit_cast);

}  // namespace sonnx::emit
