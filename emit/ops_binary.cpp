// C templates of the SONNX profile's arithmetic binary operators with multidirectional broadcasting:
// Add-14, Sub-14, Mul-14 (reference/ops/Add.cpp, Sub.cpp, Mul.cpp). Element types: float, double,
// float16, bfloat16 and every 8- to 64-bit integer type.
//
// float, double: one operation in the type, which is the reference's (its double result rounded
// once to float is the float operation's result: 53 ≥ 2·24 + 2). float16, bfloat16 (held as their
// bits, uint16_t): as the reference's to_storage<T>((float)a op (float)b), both operands widened
// to float (NodeEmitter::load), the operation in float, the float rounded once to the half type
// (NodeEmitter::store: T(float)). Integer types wrap on overflow as the reference does: the
// operation in an unsigned type at least as wide as `unsigned int` (emit_unsigned_of, emit_util.h;
// the reference's wide_unsigned_t), converted back. Fast mode writes the same code.
// Refused: inputs of different element types, an output type other than the inputs', the other
// element types (bool, strings, ...), by name.
#include "c_half.h"
#include "emit_util.h"

namespace sonnx::emit {
namespace {

void emit_binary(NodeEmitter& e, const char* op) {
  const CValue &a = e.input(0), &b = e.input(1), &y = e.output(0);
  if (a.dtype != b.dtype) e.refuse("inputs of different element types");
  if (y.dtype != a.dtype) e.refuse("output element type differs from the inputs'");
  const bool is_half = is_half_type(y.dtype);
  const std::string t = is_half ? "" : c_type(y.dtype);
  const LoopNest loops = open_loops(e, y.shape);
  const std::string ia = offset_expr(loops, broadcast_strides(a.shape, y.shape));
  const std::string ib = offset_expr(loops, broadcast_strides(b.shape, y.shape));
  const std::string iy = offset_expr(loops, row_major_strides(y.shape));
  if (is_half) {  // to_storage<T>((float)a op (float)b)
    const std::string value = e.load(y.dtype, "x0[" + ia + "]") + " " + op + " " + e.load(y.dtype, "x1[" + ib + "]");
    e.line(e.store(y.dtype, "y0[" + iy + "]", value, false));
    close_loops(e, loops);
    return;
  }
  std::string value;
  if (const char* u = emit_unsigned_of(y.dtype))
    value = "(" + t + ")((" + u + ")x0[" + ia + "] " + op + " (" + u + ")x1[" + ib + "])";
  else if (y.dtype == DType::Float || y.dtype == DType::Double) value = "x0[" + ia + "] " + op + " x1[" + ib + "]";
  else if (y.dtype == DType::UInt64 || y.dtype == DType::UInt32) value = "x0[" + ia + "] " + op + " x1[" + ib + "]";
  else e.refuse("element type " + std::string(dtype_name(y.dtype)));
  e.line("y0[" + iy + "] = " + value + ";");
  close_loops(e, loops);
}

void emit_add(NodeEmitter& e) { emit_binary(e, "+"); }
void emit_sub(NodeEmitter& e) { emit_binary(e, "-"); }
void emit_mul(NodeEmitter& e) { emit_binary(e, "*"); }

}  // namespace

SONNX_EMIT_C("", "Add", (14), emit_add);
SONNX_EMIT_C("", "Sub", (14), emit_sub);
SONNX_EMIT_C("", "Mul", (14), emit_mul);

}  // namespace sonnx::emit
