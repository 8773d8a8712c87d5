// C templates of the SONNX profile's other broadcasting elementwise operators (multidirectional
// broadcasting, support/elementwise.h), each mirroring its reference kernel:
//
//   Div-14 (Div.cpp)        floats: the division in the type (the reference's compute type);
//                           integers: truncating C division, lowest / -1 wraps to lowest (wrap_neg)
//   Pow-15 (Pow.cpp)        float X: pow((double)x, (double)y) rounded once to X's type; integer X,
//                           integer Y: exact power with wrapping overflow (square and multiply in
//                           emit_unsigned_of's type), a negative exponent giving 1, ±1 or 0 as int_pow;
//                           integer X, float Y: pow in double, saturating_cast back (NaN -> 0)
//   Mod-13 (Mod.cpp)        fmod = 1: C's remainder (sign of the dividend); fmod = 0: the sign of
//                           the divisor (Python), a zero remainder taking the divisor's sign; floats
//                           computed in the type (fmodf / fmod, the adjustment r + b in the type);
//                           x mod -1 = 0 for signed integers (no overflowing lowest % -1)
//   Max-13, Min-13          variadic (one or more inputs, all broadcast together), folded left to
//                           right as variadic_fold: acc = x0, then acc = step(acc, x_k); a NaN
//                           accumulator stays, a NaN operand replaces it, else the strictly
//                           greater (smaller) operand replaces it (ties keep the accumulator)
//   Equal-19, Greater-13, Less-13   compare_elementwise: bool (uint8_t 0/1) out; NaN compares false
//   Equal-19 on strings     Equal.cpp's x == y on std::string: the same size, then the same bytes
//                           (sonnx_string_equal: the sizes, then memcmp of the bytes)
//   Where-16 (Where.cpp)    condition (bool) ? X : Y, the three broadcast together, any C type
//
// Element types: float, double, float16, bfloat16, every integer type; bool too for
// Equal/Greater/Less (as visit_real_or_bool); string for Equal (Greater and Less take none); Where
// any type with a C storage type (it only moves elements: bool, the integers, the floating types,
// float16/bfloat16 and the float8/float4 types as their bits, the 4- and 2-bit integers one per
// byte, complex as { re, im }, string as its view). Exact mode is the reference's arithmetic as
// described (no accumulation: one operation per element in the reference's compute type, or the one
// libm call in double); fast mode writes the same code.
//
// float16 and bfloat16 (held as their bits, uint16_t; NodeEmitter::load / store) are computed in
// float, the reference's compute_t: each operand widened to float, and the float result rounded once
// to the half type with T(float) (to_storage<T>):
//   Div                     (float)a / (float)b, stored
//   Pow                     pow((double)(float)x, (double)y) rounded ONCE from double into the half
//                           type (round_from_double, never through float); a half exponent Y is
//                           widened the same way, for a float, double, half or integer X
//   Mod                     fmodf of the widened floats (fmod = 1), or float_mod<float> (fmod = 0:
//                           the r + b adjustment and copysignf in float), stored
//   Max, Min                the fold in float (variadic_fold's C = float), NaN as for float, the
//                           float accumulator stored (one input too: T((float)x), as the reference)
//   Equal, Greater, Less    the widened floats compared (NaN compares false)
//   Where                   the bits moved unchanged
//
// Integer division or remainder by zero (Div, Mod) and integer 0 raised to a negative power (Pow)
// trap in the reference. A constant divisor holding 0 is refused (every divisor element is used:
// the reference always traps); a divisor or exponent read at run time is checked per element, and
// one that would trap makes the node fail (NodeEmitter::may_fail: status 1, PREFIX_run stops).
// Refused: strings (but Equal's), complex and the other types without a C type (float8, float4, 4-
// and 2-bit integers; Where takes them all), by name; inputs of different element types (but
// Pow's exponent, whose type may differ), an output type other than the reference's.
#include <functional>

#include "c_half.h"
#include "emit_util.h"
#include "reference/ops/params/mod.h"

namespace sonnx::emit {
namespace {

bool emit_bin2_is_float(DType t) { return t == DType::Float || t == DType::Double; }
bool emit_bin2_is_signed(DType t) { return t == DType::Int8 || t == DType::Int16 || t == DType::Int32 || t == DType::Int64; }
bool emit_bin2_is_unsigned(DType t) {
  return t == DType::UInt8 || t == DType::UInt16 || t == DType::UInt32 || t == DType::UInt64;
}
bool emit_bin2_is_real(DType t) { return emit_bin2_is_float(t) || emit_bin2_is_signed(t) || emit_bin2_is_unsigned(t); }
// float, double, float16, bfloat16 (is_floating_v).
bool emit_bin2_is_floating(DType t) { return emit_bin2_is_float(t) || is_half_type(t); }
// The types visit_real visits: the real C types and the half ones.
bool emit_bin2_is_number(DType t) { return emit_bin2_is_real(t) || is_half_type(t); }
int emit_bin2_bits(DType t) { return static_cast<int>(8 * dtype_size(t)); }

[[noreturn]] void emit_bin2_refuse_type(NodeEmitter& e, DType t) {
  e.refuse("element type " + std::string(dtype_name(t)) + " (no C template for it)");
}

// Inputs [0, n) all of one element type (returned), which `ok` accepts.
DType emit_bin2_same_type(NodeEmitter& e, size_t n, bool (*ok)(DType)) {
  const DType t = e.input(0).dtype;
  for (size_t i = 1; i < n; ++i)
    if (e.input(i).dtype != t) e.refuse("inputs of different element types");
  if (!ok(t)) emit_bin2_refuse_type(e, t);
  return t;
}

// A loop nest over Y's shape; `body(x, y)` gets each input's element at the broadcast index
// ("x<i>[...]") and Y's element.
void emit_bin2_loop(NodeEmitter& e, size_t n,
                    const std::function<void(const std::vector<std::string>&, const std::string&)>& body) {
  const CValue& y = e.output(0);
  const LoopNest loops = open_loops(e, y.shape);
  std::vector<std::string> x;
  for (size_t i = 0; i < n; ++i) {
    const CValue& in = e.input(i);
    if (in.shape.size() > y.shape.size()) e.refuse("input " + std::to_string(i) + " has a higher rank than the output");
    x.push_back("x" + std::to_string(i) + "[" + offset_expr(loops, broadcast_strides(in.shape, y.shape)) + "]");
  }
  body(x, "y0[" + offset_expr(loops, row_major_strides(y.shape)) + "]");
  close_loops(e, loops);
}

// Whether a constant input holds an element equal to `v` (an integer tensor).
bool emit_bin2_constant_holds(const CValue& c, int64_t v) {
  if (!c.constant) return true;  // unknown: may hold anything
  for (int64_t i = 0; i < c.constant->size(); ++i) {
    if (c.dtype == DType::UInt64 ? c.constant->data<uint64_t>()[i] == static_cast<uint64_t>(v) : c.constant->as_int64(i) == v)
      return true;
  }
  return false;
}

// Integer division and remainder: a constant divisor with a 0 is refused (the reference traps on it).
void emit_bin2_check_divisor(NodeEmitter& e, const CValue& b, const char* what) {
  if (b.constant && e.output(0).size() > 0 && emit_bin2_constant_holds(b, 0))
    e.refuse(std::string("the constant divisor holds 0: the reference traps (integer ") + what + " by zero)");
}

void emit_div(NodeEmitter& e) {
  const DType t = emit_bin2_same_type(e, 2, emit_bin2_is_number);
  if (e.output(0).dtype != t) e.refuse("output element type differs from the inputs'");
  if (is_half_type(t)) {  // to_storage<T>((float)x / (float)y)
    emit_bin2_loop(e, 2, [&](const std::vector<std::string>& x, const std::string& y) {
      e.line(e.store(t, y, e.load(t, x[0]) + " / " + e.load(t, x[1]), false));
    });
    return;
  }
  const std::string ct = c_type(t);
  if (emit_bin2_is_float(t)) {
    emit_bin2_loop(e, 2, [&](const std::vector<std::string>& x, const std::string& y) {
      e.line(y + " = " + x[0] + " / " + x[1] + ";");
    });
    return;
  }
  const CValue& b = e.input(1);
  emit_bin2_check_divisor(e, b, "division");
  const bool zero = emit_bin2_constant_holds(b, 0);
  const bool minus_one = emit_bin2_is_signed(t) && emit_bin2_constant_holds(b, -1);
  if (zero) e.may_fail();
  emit_bin2_loop(e, 2, [&](const std::vector<std::string>& x, const std::string& y) {
    e.line("const " + ct + " b = " + x[1] + ";");
    std::string open = "if (";
    if (zero) {
      e.line("if (b == 0) {");
      e.line("status = 1; /* the reference traps: integer division by zero */");
      open = "} else if (";
    }
    if (minus_one) {
      e.line(open + "b == -1) {");
      e.line(y + " = (" + ct + ")(0u - (" + emit_unsigned_of(t) + ")" + x[0] + "); /* lowest / -1 wraps to lowest */");
      open = "} else if (";
    }
    if (open == "if (") {
      e.line(y + " = (" + ct + ")(" + x[0] + " / b);");
    } else {
      e.line("} else {");
      e.line(y + " = (" + ct + ")(" + x[0] + " / b);");
      e.line("}");
    }
  });
}

// int_pow (Pow.cpp) for integer X and Y: a file-level helper per (X, Y) pair.
std::string emit_bin2_int_pow(NodeEmitter& e, DType tx, DType ty) {
  const std::string cx = c_type(tx), cy = c_type(ty), ux = emit_unsigned_of(tx);
  const std::string name = "sonnx_pow_" + std::string(dtype_name(tx)) + "_" + std::string(dtype_name(ty));
  std::string d = "/* Pow.cpp int_pow: x^y with wrapping overflow; a negative exponent gives 1/x^|y| truncated toward\n"
                  "   zero (1 for x = 1, +-1 for x = -1, else 0; the reference traps for x = 0). */\n";
  d += "static " + cx + " " + name + "(" + cx + " x, " + cy + " y) {\n";
  d += "  " + ux + " r = 1u;\n  " + ux + " b = (" + ux + ")x;\n  uint64_t m;\n";
  if (emit_bin2_is_signed(ty)) {
    d += "  if (y < 0) {\n    if (x == 1) {\n      return 1;\n    }\n";
    if (emit_bin2_is_signed(tx)) d += "    if (x == -1) {\n      return (((uint64_t)y & 1u) == 0u) ? 1 : -1;\n    }\n";
    d += "    return 0;\n  }\n";
  }
  d += "  m = (uint64_t)y;\n";
  d += "  for (int k = 0; k < " + std::to_string(emit_bin2_bits(ty)) + "; ++k) {\n";
  d += "    if ((m & 1u) != 0u) {\n      r = r * b;\n    }\n    b = b * b;\n    m >>= 1;\n  }\n";
  d += "  return (" + cx + ")r;\n}\n";
  e.helper(name, d);
  return name;
}

void emit_pow(NodeEmitter& e) {
  const CValue &xv = e.input(0), &yv = e.input(1);
  const DType tx = xv.dtype, ty = yv.dtype;
  if (!emit_bin2_is_number(tx)) emit_bin2_refuse_type(e, tx);
  if (!emit_bin2_is_number(ty)) emit_bin2_refuse_type(e, ty);
  if (e.output(0).dtype != tx) e.refuse("output element type differs from X's");
  if (!emit_bin2_is_floating(tx) && !emit_bin2_is_floating(ty)) {
    const std::string f = emit_bin2_int_pow(e, tx, ty);
    const bool negative_exponent = emit_bin2_is_signed(ty);  // 0 to a negative power traps
    if (negative_exponent) e.may_fail();
    emit_bin2_loop(e, 2, [&](const std::vector<std::string>& x, const std::string& y) {
      if (negative_exponent) {
        e.line("if ((" + x[0] + " == 0) && (" + x[1] + " < 0)) {");
        e.line("status = 1; /* the reference traps: integer 0 to a negative power */");
        e.line("}");
      }
      e.line(y + " = " + f + "(" + x[0] + ", " + x[1] + ");");
    });
    return;
  }
  e.needs_math();
  // (double)(compute_t<T>)v: a half element widened to float first (exact either way).
  auto as_double = [&](DType t, const std::string& v) {
    return t == DType::Double ? v : "(double)" + (is_half_type(t) ? e.load(t, v) : v);
  };
  emit_bin2_loop(e, 2, [&](const std::vector<std::string>& x, const std::string& y) {
    const std::string r = "pow(" + as_double(tx, x[0]) + ", " + as_double(ty, x[1]) + ")";
    if (tx == DType::Double) e.line(y + " = " + r + ";");
    else if (tx == DType::Float) e.line(y + " = (float)" + r + ";");
    else if (is_half_type(tx)) e.line(e.store(tx, y, r, true));  // round_from_double: one rounding
    else e.line(y + " = " + emit_saturating_cast(e, tx) + "(" + r + ");");
  });
}

void emit_mod(NodeEmitter& e) {
  const DType t = emit_bin2_same_type(e, 2, emit_bin2_is_number);
  if (e.output(0).dtype != t) e.refuse("output element type differs from the inputs'");
  const bool c_fmod = e.params<ModParams>().fmod;
  const std::string ct = c_compute_type(t);
  if (emit_bin2_is_floating(t)) {
    // float_mod<compute_t<T>>: in float for float, float16 and bfloat16 (the operands widened,
    // NodeEmitter::load; the float remainder stored with T(float)), in double for double.
    e.needs_math();
    const DType ctype = t == DType::Double ? DType::Double : DType::Float;
    const std::string sfx = ctype == DType::Float ? "f" : "", zero = c_literal(ctype, 0.0);
    emit_bin2_loop(e, 2, [&](const std::vector<std::string>& x, const std::string& y) {
      if (c_fmod) {
        e.line(e.store(t, y, "fmod" + sfx + "(" + e.load(t, x[0]) + ", " + e.load(t, x[1]) + ")", false));
        return;
      }
      // float_mod: r = fmod(a, b) (exact); r ≠ 0 of the other sign than b: r + b; r = 0: ±0 with b's sign.
      e.line("const " + ct + " b = " + e.load(t, x[1]) + ";");
      e.line(ct + " r = fmod" + sfx + "(" + e.load(t, x[0]) + ", b);");
      e.line("if (r != " + zero + ") {");
      e.line("if ((r < " + zero + ") != (b < " + zero + ")) {");
      e.line("r += b;");
      e.line("}");
      e.line("} else {");
      e.line("r = copysign" + sfx + "(" + zero + ", b);");
      e.line("}");
      e.line(e.store(t, y, "r", false));
    });
    return;
  }
  const CValue& b = e.input(1);
  emit_bin2_check_divisor(e, b, "modulo");
  const bool zero = emit_bin2_constant_holds(b, 0);
  const bool is_signed = emit_bin2_is_signed(t);
  const bool minus_one = is_signed && emit_bin2_constant_holds(b, -1);
  if (zero) e.may_fail();
  emit_bin2_loop(e, 2, [&](const std::vector<std::string>& x, const std::string& y) {
    e.line("const " + ct + " b = " + x[1] + ";");
    const bool guarded = zero || minus_one;
    if (zero) {
      e.line("if (b == 0) {");
      e.line("status = 1; /* the reference traps: integer modulo by zero */");
      e.line(minus_one ? "} else if (b == -1) {" : "} else {");
    } else if (minus_one) {
      e.line("if (b == -1) {");
    }
    if (minus_one) {
      e.line(y + " = 0; /* x mod -1 = 0 (no overflowing lowest % -1) */");
      e.line("} else {");
    }
    if (is_signed && !c_fmod) {
      e.line(ct + " r = (" + ct + ")(" + x[0] + " % b); /* C: the sign of the dividend */");
      e.line("if (r != 0 && ((r < 0) != (b < 0))) {");
      e.line("r = (" + ct + ")(r + b);");
      e.line("}");
      e.line(y + " = r;");
    } else {
      e.line(y + " = (" + ct + ")(" + x[0] + " % b);");
    }
    if (guarded) e.line("}");
  });
}

// variadic_extreme (elementwise.h): the left fold of the inputs in their order.
void emit_bin2_extreme(NodeEmitter& e, bool want_max) {
  const size_t n = e.input_count();
  if (n == 0) e.refuse("no inputs");
  const DType t = emit_bin2_same_type(e, n, emit_bin2_is_number);
  if (e.output(0).dtype != t) e.refuse("output element type differs from the inputs'");
  const std::string ct = c_compute_type(t);
  const bool is_float = emit_bin2_is_floating(t);
  const bool is_half = is_half_type(t);
  if (is_float && n > 1) e.needs_math();
  const char* cmp = want_max ? " > " : " < ";
  // A half element widened to float (compute_t); the float accumulator stored with T(float).
  auto in = [&](const std::string& v) { return is_half ? e.load(t, v) : v; };
  auto out = [&](const std::string& y, const std::string& v) { return is_half ? e.store(t, y, v, false) : y + " = " + v + ";"; };
  emit_bin2_loop(e, n, [&](const std::vector<std::string>& x, const std::string& y) {
    if (n == 1) {
      e.line(out(y, in(x[0])));
      return;
    }
    e.line(ct + " acc = " + in(x[0]) + ";");
    for (size_t k = 1; k < n; ++k) {
      const std::string v = "v" + std::to_string(k);
      e.line("const " + ct + " " + v + " = " + in(x[k]) + ";");
      if (is_float) e.line("if (!isnan(acc) && (isnan(" + v + ") || " + v + cmp + "acc)) {");
      else e.line("if (" + v + cmp + "acc) {");
      e.line("acc = " + v + ";");
      e.line("}");
    }
    e.line(out(y, "acc"));
  });
}

void emit_max(NodeEmitter& e) { emit_bin2_extreme(e, true); }
void emit_min(NodeEmitter& e) { emit_bin2_extreme(e, false); }

bool emit_bin2_is_number_or_bool(DType t) { return emit_bin2_is_number(t) || t == DType::Bool; }

// compare_elementwise (elementwise.h): the comparison in the compute type (a half widened to
// float), a bool out.
void emit_bin2_compare(NodeEmitter& e, const char* op) {
  const DType t = emit_bin2_same_type(e, 2, emit_bin2_is_number_or_bool);
  if (e.output(0).dtype != DType::Bool) e.refuse("output element type is not bool");
  const bool is_half = is_half_type(t);
  emit_bin2_loop(e, 2, [&](const std::vector<std::string>& x, const std::string& y) {
    const std::string a = is_half ? e.load(t, x[0]) : x[0], b = is_half ? e.load(t, x[1]) : x[1];
    e.line(y + " = (uint8_t)(" + a + " " + op + " " + b + ");");
  });
}

// Equal-19 on strings (Equal.cpp: x == y on std::string): equal sizes, then equal bytes. The loop
// is bounded by the views' size, a value known only at run time (no literal bound can be given to
// it); it reads the bytes, never writes them.
void emit_bin2_equal_strings(NodeEmitter& e) {
  if (e.input(1).dtype != DType::String) e.refuse("inputs of different element types");
  if (e.output(0).dtype != DType::Bool) e.refuse("output element type is not bool");
  // The bytes compared by memcmp, as unsigned char (MISRA C 2012 rule 21.16; the cast from a
  // pointer to char is rule 11.3's exception): a loop over `size` would have no literal bound.
  e.helper("sonnx_string_equal",
           "/* Equal-19 on strings: 1 when a and b have the same size and the same bytes, else 0. */\n"
           "static uint8_t sonnx_string_equal(sonnx_string a, sonnx_string b) {\n"
           "  uint8_t same = 0u;\n"
           "  if ((a.size == b.size) && ((a.size == 0u) || (memcmp((const unsigned char*)a.data,\n"
           "                                                      (const unsigned char*)b.data, a.size) == 0))) {\n"
           "    same = 1u;\n"
           "  }\n"
           "  return same;\n"
           "}\n");
  emit_bin2_loop(e, 2, [&](const std::vector<std::string>& x, const std::string& y) {
    e.line(y + " = sonnx_string_equal(" + x[0] + ", " + x[1] + ");");
  });
}

void emit_equal(NodeEmitter& e) {
  if (e.input(0).dtype == DType::String) {
    emit_bin2_equal_strings(e);
    return;
  }
  emit_bin2_compare(e, "==");
}
void emit_greater(NodeEmitter& e) { emit_bin2_compare(e, ">"); }
void emit_less(NodeEmitter& e) { emit_bin2_compare(e, "<"); }

// Where.cpp: a selection, any element type with a C storage type (its bits moved unchanged, as the
// reference's move_element).
void emit_where(NodeEmitter& e) {
  if (e.input(0).dtype != DType::Bool) e.refuse("the condition is not bool");
  const DType t = e.input(1).dtype;
  if (e.input(2).dtype != t) e.refuse("X and Y have different element types");
  if (!has_c_storage_type(t)) emit_bin2_refuse_type(e, t);
  if (e.output(0).dtype != t) e.refuse("output element type differs from X's");
  emit_bin2_loop(e, 3, [&](const std::vector<std::string>& x, const std::string& y) {
    e.line(y + " = " + x[0] + " != 0u ? " + x[1] + " : " + x[2] + ";");
  });
}

}  // namespace

SONNX_EMIT_C("", "Div", (14), emit_div);
SONNX_EMIT_C("", "Pow", (15), emit_pow);
SONNX_EMIT_C("", "Mod", (13), emit_mod);
SONNX_EMIT_C("", "Max", (13), emit_max);
SONNX_EMIT_C("", "Min", (13), emit_min);
SONNX_EMIT_C("", "Equal", (19), emit_equal);
SONNX_EMIT_C("", "Greater", (13), emit_greater);
SONNX_EMIT_C("", "Less", (13), emit_less);
SONNX_EMIT_C("", "Where", (16), emit_where);

}  // namespace sonnx::emit
