// C templates of the SONNX profile's unary elementwise operators, each mirroring its reference
// kernel (reference/ops/<Op>.cpp, support/elementwise.h float_unary, support/numeric.h):
//
//   Abs-13, Neg-13, Relu-14        every integer type (signed ones wrap as the reference's wrap_neg:
//                                  the negation in emit_unsigned_of's type), float, double, float16,
//                                  bfloat16
//   Erf-13                         float, double, float16, bfloat16; integer types as erf((double)x)
//                                  converted toward zero (saturating_cast: the value is in [-1, 1],
//                                  so a plain cast)
//   Ceil-13, Floor-13, Exp-13, Log-13, Sigmoid-13, Sqrt-13, Tanh-13, Cos-22, Sin-22, Softplus-22,
//   HardSwish-22, LeakyRelu-16     float, double, float16, bfloat16 (float_unary: the function of the
//                                  exact double, the result rounded once; the C evaluates the same
//                                  double expression with the same libm function and casts it to
//                                  float, or rounds it once into the half type)
//   Not-1                          bool
//   Clip-13                        every integer type, float, double, float16, bfloat16; min and max
//                                  are optional scalar inputs of X's type (a constant is written as
//                                  a literal, a computed one read as x1[0] / x2[0]); an omitted bound
//                                  is the type's lowest / largest finite value, as clip_v11.
//
// float16 and bfloat16 are held as their bits (uint16_t) and computed in float, the reference's
// compute_t (NodeEmitter::load / store, emit/c_half.h): float_unary's operators widen the element
// to float then double, evaluate the double function and round the double ONCE into the half type
// (round_from_double); Abs and Neg compute fabsf(x) / -x in float and store it with T(float) (so a
// NaN comes out as the conversion makes it, as in the reference); Relu compares the widened float
// with 0 and writes +0 or the input's bits unchanged (as the reference returns v itself); Clip
// compares the widened float with the float bounds (the half bound widened; an omitted one ±65504
// for float16, ±0x1.fep+127 for bfloat16) and stores the float with T(float), as clip_v11.
//
// Exact mode: float_unary's evaluation (the double function of the input, one rounding to float);
// Abs/Neg/Relu/Clip compute in the element type as the reference does (no rounding at all). Where the
// float function of the float equals the rounded double one bit for bit (ceilf, floorf, sqrtf: 53 ≥
// 2·24 + 2 for the square root, and ceil/floor of a float are floats) the float function is used.
// Fast mode writes the same code (admissible: it is the exact result), but for Exp and Sigmoid of
// float and the half types: e^x by the exp polynomial (c_exp_poly.h), within 1 ulp once rounded.
// Refused: the types without a C type or a half one (by name), a type the reference kernel refuses
// (e.g. Exp of int32), an input/output type mismatch, a Clip bound that is not a scalar of X's type.
#include <bit>
#include <cmath>
#include <functional>
#include <limits>

#include "c_exp_poly.h"
#include "c_half.h"
#include "emit_util.h"
#include "reference/ops/params/activation.h"

namespace sonnx::emit {
namespace {

bool emit_unary_is_float(DType t) { return t == DType::Float || t == DType::Double; }
// float, double, float16, bfloat16: the types float_unary visits.
bool emit_unary_is_floating(DType t) { return emit_unary_is_float(t) || is_half_type(t); }
bool emit_unary_is_signed(DType t) { return t == DType::Int8 || t == DType::Int16 || t == DType::Int32 || t == DType::Int64; }
bool emit_unary_is_unsigned(DType t) {
  return t == DType::UInt8 || t == DType::UInt16 || t == DType::UInt32 || t == DType::UInt64;
}

// The element type of X (= Y's), checked against the kinds the reference kernel visits.
enum class EmitUnaryKinds { Float, Real, Bool };
DType emit_unary_type(NodeEmitter& e, EmitUnaryKinds kinds) {
  const DType t = e.input(0).dtype;
  if (e.output(0).dtype != t) e.refuse("output element type differs from the input's");
  if (e.input(0).shape != e.output(0).shape) e.refuse("output shape differs from the input's");
  bool ok = false;
  switch (kinds) {
    case EmitUnaryKinds::Float: ok = emit_unary_is_floating(t); break;
    case EmitUnaryKinds::Real: ok = emit_unary_is_floating(t) || emit_unary_is_signed(t) || emit_unary_is_unsigned(t); break;
    case EmitUnaryKinds::Bool: ok = t == DType::Bool; break;
  }
  if (!ok) e.refuse("element type " + std::string(dtype_name(t)) + " (no C template for it)");
  return t;
}

// One flat loop over the elements; `body(x, y)` writes the lines computing y from x (C lvalues).
void emit_unary_loop(NodeEmitter& e, const std::function<void(const std::string&, const std::string&)>& body) {
  const LoopNest loops = open_loops(e, Shape{e.output(0).size()});
  const std::string i = loops.index[0];
  body("x0[" + i + "]", "y0[" + i + "]");
  close_loops(e, loops);
}

// float_unary (elementwise.h): y = round_from_double<T>(f((double)(compute_t<T>)x)). `f(v)` is the C
// expression of the double function of the double `v`; with `local` v is a local variable (else
// "(double)x"). A half element is widened to float, then double (load); the double result is
// rounded once into float (a cast) or into the half type (store from double: never through float).
void emit_unary_float(NodeEmitter& e, const std::function<std::string(const std::string&)>& f, bool local = false) {
  const DType t = emit_unary_type(e, EmitUnaryKinds::Float);
  e.needs_math();
  emit_unary_loop(e, [&](const std::string& x, const std::string& y) {
    std::string v = t == DType::Double ? x : "(double)" + e.load(t, x);
    if (local) {
      e.line("const double v = " + v + ";");
      v = "v";
    }
    e.line(e.store(t, y, f(v), true));
  });
}

void emit_abs(NodeEmitter& e) {
  const DType t = emit_unary_type(e, EmitUnaryKinds::Real);
  const std::string ct = c_compute_type(t);
  if (emit_unary_is_floating(t)) e.needs_math();
  emit_unary_loop(e, [&](const std::string& x, const std::string& y) {
    if (is_half_type(t)) e.line(e.store(t, y, "fabsf(" + e.load(t, x) + ")", false));  // to_storage<T>(std::fabs(float))
    else if (t == DType::Float) e.line(y + " = fabsf(" + x + ");");                    // std::fabs(float): clears the sign bit
    else if (t == DType::Double) e.line(y + " = fabs(" + x + ");");
    else if (emit_unary_is_unsigned(t)) e.line(y + " = " + x + ";");
    else  // v < 0 ? wrap_neg(v) : v (the lowest value wraps to itself)
      e.line(y + " = (" + ct + ")(" + x + " < 0 ? (" + ct + ")(0u - (" + emit_unsigned_of(t) + ")" + x + ") : " + x + ");");
  });
}

void emit_neg(NodeEmitter& e) {
  const DType t = emit_unary_type(e, EmitUnaryKinds::Real);
  const std::string ct = c_compute_type(t);
  emit_unary_loop(e, [&](const std::string& x, const std::string& y) {
    if (is_half_type(t)) e.line(e.store(t, y, "-" + e.load(t, x), false));             // to_storage<T>(-(float)v)
    else if (emit_unary_is_float(t)) e.line(y + " = -" + x + ";");                     // only the sign flips
    else e.line(y + " = (" + ct + ")(0u - (" + emit_unsigned_of(t) + ")" + x + ");");  // wrap_neg
  });
}

void emit_relu(NodeEmitter& e) {
  const DType t = emit_unary_type(e, EmitUnaryKinds::Real);
  const std::string ct = c_compute_type(t);
  emit_unary_loop(e, [&](const std::string& x, const std::string& y) {
    // c < 0 ? 0 : v: NaN and -0 keep the input; an unsigned value is never below 0.
    if (is_half_type(t)) {  // the widened float compared; +0 (T(0.0f): the bits 0) or v itself, its bits unchanged
      e.line("if (" + e.load(t, x) + " < 0.0f) {");
      e.line(y + " = 0u;");
      e.line("} else {");
      e.line(y + " = " + x + ";");
      e.line("}");
    } else if (emit_unary_is_unsigned(t)) e.line(y + " = " + x + ";");
    else if (emit_unary_is_float(t))
      e.line(y + " = " + x + " < " + c_literal(t, 0.0) + " ? " + c_literal(t, 0.0) + " : " + x + ";");
    else e.line(y + " = (" + ct + ")(" + x + " < 0 ? 0 : " + x + ");");
  });
}

void emit_not(NodeEmitter& e) {
  emit_unary_type(e, EmitUnaryKinds::Bool);
  emit_unary_loop(e, [&](const std::string& x, const std::string& y) { e.line(y + " = (uint8_t)(" + x + " == 0u);"); });
}

void emit_erf(NodeEmitter& e) {
  const DType t = emit_unary_type(e, EmitUnaryKinds::Real);
  if (emit_unary_is_floating(t)) return emit_unary_float(e, [](const std::string& v) { return "erf(" + v + ")"; });
  // Integers: saturating_cast<T>(erf((double)v)); erf lies in [-1, 1] (never NaN for a finite
  // argument), so the conversion toward zero is a plain cast.
  e.needs_math();
  const std::string ct = c_type(t);
  emit_unary_loop(e, [&](const std::string& x, const std::string& y) { e.line(y + " = (" + ct + ")erf((double)" + x + ");"); });
}

// ceil/floor of a float is a float; the float square root is the double one rounded once
// (53 ≥ 2·24 + 2): the float functions give float_unary's result bit for bit.
void emit_unary_libm(NodeEmitter& e, const std::string& fn, bool float_version_exact) {
  const DType t = emit_unary_type(e, EmitUnaryKinds::Float);
  if (t == DType::Float && float_version_exact) {
    e.needs_math();
    emit_unary_loop(e, [&](const std::string& x, const std::string& y) { e.line(y + " = " + fn + "f(" + x + ");"); });
    return;
  }
  emit_unary_float(e, [&](const std::string& v) { return fn + "(" + v + ")"; });
}

void emit_ceil(NodeEmitter& e) { emit_unary_libm(e, "ceil", true); }
void emit_floor(NodeEmitter& e) { emit_unary_libm(e, "floor", true); }
void emit_sqrt(NodeEmitter& e) { emit_unary_libm(e, "sqrt", true); }
// Fast mode, float and the half types: y = g(e^v), v = ±x, with e^v by the exp polynomial written
// in the loop (emit/c_exp_poly.h), which vectorises; false (nothing written) otherwise.
bool emit_unary_exp_poly(NodeEmitter& e, bool negate, const std::function<std::string(const std::string&)>& g) {
  const DType t = emit_unary_type(e, EmitUnaryKinds::Float);
  if (e.mode() != Mode::Fast || t == DType::Double) return false;
  emit_unary_loop(e, [&](const std::string& x, const std::string& y) {
    e.line(std::string("const double v = ") + (negate ? "-" : "") + "(double)" + e.load(t, x) + ";");
    emit_exp_poly(e, "v", "ev");
    e.line(e.store(t, y, g("ev"), true));
  });
  return true;
}
void emit_exp(NodeEmitter& e) {
  if (!emit_unary_exp_poly(e, false, [](const std::string& ev) { return ev; })) emit_unary_libm(e, "exp", false);
}
void emit_log(NodeEmitter& e) { emit_unary_libm(e, "log", false); }
void emit_tanh(NodeEmitter& e) { emit_unary_libm(e, "tanh", false); }
void emit_cos(NodeEmitter& e) { emit_unary_libm(e, "cos", false); }
void emit_sin(NodeEmitter& e) { emit_unary_libm(e, "sin", false); }

// Sigmoid.cpp: 1 / (1 + e^-x) in double (e^-x = inf for very negative x gives the limit 0).
void emit_sigmoid(NodeEmitter& e) {
  if (emit_unary_exp_poly(e, true, [](const std::string& ev) { return "1.0 / (1.0 + " + ev + ")"; })) return;
  emit_unary_float(e, [](const std::string& v) { return "1.0 / (1.0 + exp(-" + v + "))"; });
}

// Softplus.cpp: NaN stays; otherwise max(x, 0) + log1p(e^-|x|).
void emit_softplus(NodeEmitter& e) {
  emit_unary_float(
      e,
      [](const std::string& v) {
        return "isnan(" + v + ") ? " + v + " : (" + v + " > 0.0 ? " + v + " : 0.0) + log1p(exp(-fabs(" + v + ")))";
      },
      true);
}

// HardSwish.cpp: h = x / 6 + 1/2; NaN h is the result; otherwise x · clamp(h, 0, 1).
void emit_hard_swish(NodeEmitter& e) {
  const DType t = emit_unary_type(e, EmitUnaryKinds::Float);
  e.needs_math();
  const bool is_float = t == DType::Float;
  const bool is_half = is_half_type(t);
  emit_unary_loop(e, [&](const std::string& x, const std::string& y) {
    e.line("const double v = " + (t != DType::Double ? "(double)" + e.load(t, x) : x) + ";");
    e.line("double h = v / 6.0 + 0.5;");
    e.line("if (!isnan(h)) {");
    e.line("h = h < 0.0 ? 0.0 : (h > 1.0 ? 1.0 : h);");
    e.line("h = v * h;");
    e.line("}");
    if (is_half) e.line(e.store(t, y, "h", true));  // round_from_double: one rounding
    else e.line(y + " = " + (is_float ? "(float)h" : "h") + ";");
  });
}

// LeakyRelu.cpp: x < 0 ? alpha·x : x in double, alpha the float attribute (ActivationParams) as a double.
void emit_leaky_relu(NodeEmitter& e) {
  const double alpha = e.params<ActivationParams>().alpha;
  const std::string a = c_literal(DType::Double, alpha);
  emit_unary_float(
      e, [&](const std::string& v) { return v + " < 0.0 ? " + a + " * " + v + " : " + v; }, true);
}

// Clip.cpp clip_v11: c = x; if (c < lo) c = lo; if (c > hi) c = hi, in the element type's compute
// type (float for float16 / bfloat16, the result stored with T(float): to_storage<T>(c)).
void emit_clip(NodeEmitter& e) {
  const DType t = emit_unary_type(e, EmitUnaryKinds::Real);
  const bool is_half = is_half_type(t);
  const std::string ct = c_compute_type(t);
  // A bound: its C expression, and whether no element can pass it (an integer bound at the type's
  // extreme: the comparison is left out, which also keeps -Wtype-limits quiet).
  struct Bound {
    std::string expr;
    bool never = false;
  };
  auto bound = [&](size_t i, bool is_min) -> Bound {
    if (!e.has_input(i)) {  // the type's lowest / largest finite value
      if (is_half) {        // Clip.cpp max_finite / lowest_finite, as float
        const double m = t == DType::Float16 ? 65504.0 : static_cast<double>(std::bit_cast<float>(uint32_t{0x7f7f0000u}));
        return {c_literal(DType::Float, is_min ? -m : m), false};
      }
      if (t == DType::Float)
        return {c_literal(t, is_min ? std::numeric_limits<float>::lowest() : std::numeric_limits<float>::max()), false};
      if (t == DType::Double)
        return {c_literal(t, is_min ? std::numeric_limits<double>::lowest() : std::numeric_limits<double>::max()), false};
      return {"", true};  // an integer type's own limit: nothing passes it
    }
    const CValue& b = e.input(i);
    if (b.dtype != t) e.refuse(std::string(is_min ? "min" : "max") + " has another element type than the input");
    if (b.size() != 1) e.refuse(std::string(is_min ? "min" : "max") + " is not a scalar");
    if (!b.constant) {
      const std::string at = "x" + std::to_string(i) + "[0]";
      return {is_half ? e.load(t, at) : at, false};
    }
    if (emit_unary_is_floating(t)) {
      const double v = b.constant->as_double(0);  // a half bound widened to float: exact
      if (!std::isfinite(v)) e.needs_math();      // INFINITY, NAN
      return {is_half ? c_literal(DType::Float, v) : c_element(*b.constant, 0), false};
    }
    // An integer constant at the type's extreme never lets an element pass it.
    bool at_limit = false;
    if (t == DType::UInt64)
      at_limit = is_min ? b.constant->data<uint64_t>()[0] == 0 : b.constant->data<uint64_t>()[0] == UINT64_MAX;
    else {
      const int64_t v = b.constant->as_int64(0);
      int64_t lo = 0, hi = 0;
      switch (t) {
        case DType::Int8: lo = INT8_MIN, hi = INT8_MAX; break;
        case DType::Int16: lo = INT16_MIN, hi = INT16_MAX; break;
        case DType::Int32: lo = INT32_MIN, hi = INT32_MAX; break;
        case DType::Int64: lo = INT64_MIN, hi = INT64_MAX; break;
        case DType::UInt8: hi = UINT8_MAX; break;
        case DType::UInt16: hi = UINT16_MAX; break;
        case DType::UInt32: hi = UINT32_MAX; break;
        default: break;
      }
      at_limit = is_min ? v == lo : v == hi;
    }
    return {c_element(*b.constant, 0), at_limit};
  };
  const Bound lo = bound(1, true), hi = bound(2, false);
  emit_unary_loop(e, [&](const std::string& x, const std::string& y) {
    if (lo.never && hi.never) {
      e.line(y + " = " + x + ";");
      return;
    }
    e.line(ct + " c = " + (is_half ? e.load(t, x) : x) + ";");
    for (const auto& [b, op] : {std::pair{&lo, " < "}, std::pair{&hi, " > "}}) {
      if (b->never) continue;
      e.line(std::string("if (c") + op + b->expr + ") {");
      e.line("c = " + b->expr + ";");
      e.line("}");
    }
    e.line(is_half ? e.store(t, y, "c", false) : y + " = c;");  // a half: T(c) even when unchanged
  });
}

}  // namespace

SONNX_EMIT_C("", "Abs", (13), emit_abs);
SONNX_EMIT_C("", "Ceil", (13), emit_ceil);
SONNX_EMIT_C("", "Cos", (22), emit_cos);
SONNX_EMIT_C("", "Erf", (13), emit_erf);
SONNX_EMIT_C("", "Exp", (13), emit_exp);
SONNX_EMIT_C("", "Floor", (13), emit_floor);
SONNX_EMIT_C("", "Log", (13), emit_log);
SONNX_EMIT_C("", "Neg", (13), emit_neg);
SONNX_EMIT_C("", "Not", (1), emit_not);
SONNX_EMIT_C("", "Relu", (14), emit_relu);
SONNX_EMIT_C("", "Sigmoid", (13), emit_sigmoid);
SONNX_EMIT_C("", "Sin", (22), emit_sin);
SONNX_EMIT_C("", "Sqrt", (13), emit_sqrt);
SONNX_EMIT_C("", "Tanh", (13), emit_tanh);
SONNX_EMIT_C("", "Softplus", (22), emit_softplus);
SONNX_EMIT_C("", "HardSwish", (22), emit_hard_swish);
SONNX_EMIT_C("", "LeakyRelu", (16), emit_leaky_relu);
SONNX_EMIT_C("", "Clip", (13), emit_clip);

}  // namespace sonnx::emit
