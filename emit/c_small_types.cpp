#include "c_small_types.h"

#include "c_half.h"

#include <cmath>
#include <cstdint>

namespace sonnx::emit {
namespace {

// The reference's Format (reference/model/small_types.cpp): field widths, bias, and what the top
// codes mean.
enum class EmitSmallSpecials { IEEE, FN, FNUZ, Finite };
struct EmitSmallFormat {
  const char* tag;  // in the C helpers' names
  int exp_bits, man_bits, bias;
  EmitSmallSpecials specials;

  int sign_shift() const { return exp_bits + man_bits; }
  uint32_t exp_all_ones() const { return (1u << exp_bits) - 1u; }
  uint32_t man_all_ones() const { return (1u << man_bits) - 1u; }
  uint32_t max_exp_field() const { return specials == EmitSmallSpecials::IEEE ? exp_all_ones() - 1u : exp_all_ones(); }
  uint32_t max_man_field() const { return specials == EmitSmallSpecials::FN ? man_all_ones() - 1u : man_all_ones(); }
  uint32_t max_bits() const { return (max_exp_field() << man_bits) | max_man_field(); }
  double max_value() const {
    return std::ldexp(static_cast<double>((1u << man_bits) + max_man_field()),
                      static_cast<int>(max_exp_field()) - bias - man_bits);
  }
  int min_normal_exp() const { return 1 - bias; }
};

const EmitSmallFormat* emit_small_format(DType t) {
  static const EmitSmallFormat e4m3fn{"f8e4m3fn", 4, 3, 7, EmitSmallSpecials::FN};
  static const EmitSmallFormat e4m3fnuz{"f8e4m3fnuz", 4, 3, 8, EmitSmallSpecials::FNUZ};
  static const EmitSmallFormat e5m2{"f8e5m2", 5, 2, 15, EmitSmallSpecials::IEEE};
  static const EmitSmallFormat e5m2fnuz{"f8e5m2fnuz", 5, 2, 16, EmitSmallSpecials::FNUZ};
  static const EmitSmallFormat e2m1{"f4e2m1", 2, 1, 1, EmitSmallSpecials::Finite};
  switch (t) {
    case DType::Float8E4M3FN: return &e4m3fn;
    case DType::Float8E4M3FNUZ: return &e4m3fnuz;
    case DType::Float8E5M2: return &e5m2;
    case DType::Float8E5M2FNUZ: return &e5m2fnuz;
    case DType::Float4E2M1: return &e2m1;
    default: return nullptr;
  }
}

// The 2- and 4-bit integers: width and signedness.
struct EmitSmallInt {
  const char* tag;
  int bits;
  bool is_signed;
};

const EmitSmallInt* emit_small_int(DType t) {
  static const EmitSmallInt int4{"int4", 4, true}, uint4{"uint4", 4, false}, int2{"int2", 2, true}, uint2{"uint2", 2, false};
  switch (t) {
    case DType::Int4: return &int4;
    case DType::UInt4: return &uint4;
    case DType::Int2: return &int2;
    case DType::UInt2: return &uint2;
    default: return nullptr;
  }
}

std::string emit_small_hex(uint64_t v) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), digits[v & 0xFu]);
    v >>= 4;
  } while (v != 0);
  return "0x" + s;
}

std::string emit_small_u(uint64_t v) { return emit_small_hex(v) + "u"; }
std::string emit_small_u64(uint64_t v) { return "UINT64_C(" + emit_small_hex(v) + ")"; }
std::string emit_small_int_text(int v) { return v < 0 ? "(" + std::to_string(v) + ")" : std::to_string(v); }

// rounding.h round_half_even: independent of the rounding mode, -0 kept for [-0.5, -0].
void emit_small_round_half_even(NodeEmitter& e) {
  e.needs_math();
  e.helper("sonnx_small_round_half_even", "/* round_half_even (reference/model/rounding.h) */\n"
                                          "static double sonnx_small_round_half_even(double x) {\n"
                                          "  double r = x;\n"
                                          "  if (isfinite(x) != 0) {\n"
                                          "    const double f = floor(x);\n"
                                          "    const double diff = x - f; /* exact */\n"
                                          "    if (diff < 0.5) {\n"
                                          "      r = f;\n"
                                          "    } else if (diff > 0.5) {\n"
                                          "      r = f + 1.0;\n"
                                          "    } else if (fmod(f, 2.0) == 0.0) {\n"
                                          "      r = f;\n"
                                          "    } else {\n"
                                          "      r = f + 1.0;\n"
                                          "    }\n"
                                          "    r = copysign(r, x);\n"
                                          "  }\n"
                                          "  return r;\n}\n");
}

// std::ilogb of a finite a > 0, through frexp (exact; ilogb is not among the <math.h> functions
// scripts/emit-c-check.py allows the generated code to call).
void emit_small_ilogb(NodeEmitter& e) {
  e.needs_math();
  e.helper("sonnx_small_ilogb", "/* ilogb(a) of a finite a > 0: a = f * 2^ex with 0.5 <= f < 1 (frexp, exact) */\n"
                                "static int sonnx_small_ilogb(double a) {\n"
                                "  int ex = 0;\n"
                                "  (void)frexp(a, &ex);\n"
                                "  return ex - 1;\n}\n");
}

// round_to_precision and encode_magnitude of small_types.cpp, the format's constants as arguments.
void emit_small_float_encoders(NodeEmitter& e) {
  emit_small_round_half_even(e);
  emit_small_ilogb(e);
  e.helper("sonnx_small_round_to_precision",
           "/* round_to_precision (reference/model/small_types.cpp): a > 0 finite, rounded to nearest even at\n"
           "   man_bits below its exponent, never below the subnormal spacing; no upper limit. */\n"
           "static double sonnx_small_round_to_precision(double a, int min_normal_exp, int man_bits) {\n"
           "  int ex = sonnx_small_ilogb(a);\n"
           "  int quantum;\n"
           "  if (ex < min_normal_exp) {\n"
           "    ex = min_normal_exp;\n"
           "  }\n"
           "  quantum = ex - man_bits;\n"
           "  return ldexp(sonnx_small_round_half_even(ldexp(a, -quantum)), quantum); /* both scalings exact */\n"
           "}\n");
  e.helper("sonnx_small_encode_magnitude",
           "/* encode_magnitude (reference/model/small_types.cpp): the bits of 0 <= a <= max, a representable. */\n"
           "static uint32_t sonnx_small_encode_magnitude(double a, int min_normal_exp, int man_bits, int bias) {\n"
           "  uint32_t r = 0u;\n"
           "  if (a != 0.0) {\n"
           "    const int ex = sonnx_small_ilogb(a);\n"
           "    const uint32_t hidden = (uint32_t)1u << (uint32_t)man_bits;\n"
           "    if (ex < min_normal_exp) {\n"
           "      r = (uint32_t)ldexp(a, man_bits - min_normal_exp); /* subnormal */\n"
           "    } else {\n"
           "      const int biased = ex + bias;\n"
           "      r = ((uint32_t)biased << (uint32_t)man_bits) | ((uint32_t)ldexp(a, man_bits - ex) - hidden);\n"
           "    }\n"
           "  }\n"
           "  return r;\n}\n");
}

std::string emit_small_float_to_double(NodeEmitter& e, const EmitSmallFormat& f) {
  const std::string name = std::string("sonnx_") + f.tag + "_to_double";
  e.needs_math();
  if (f.specials != EmitSmallSpecials::Finite) emit_from_bits(e, DType::Double);
  const int M = f.man_bits;
  const std::string nan_neg = emit_small_u64(0xfff8000000000000ULL), nan_pos = emit_small_u64(0x7ff8000000000000ULL);
  std::string d = "/* small_to_double (reference/model/small_types.cpp decode): the exact value of a " + std::string(f.tag) +
                  " code */\n";
  d += "static double " + name + "(uint8_t x) {\n";
  d += "  const uint32_t bits = (uint32_t)x" + std::string(f.specials == EmitSmallSpecials::Finite ? " & 0xfu" : "") + ";\n";
  d += "  const uint32_t negative = (bits >> " + std::to_string(f.sign_shift()) + ") & 1u;\n";
  d += "  const uint32_t e = (bits >> " + std::to_string(M) + ") & " + emit_small_u(f.exp_all_ones()) + ";\n";
  d += "  const uint32_t m = bits & " + emit_small_u(f.man_all_ones()) + ";\n";
  d += "  double v;\n";
  std::string special;
  switch (f.specials) {
    case EmitSmallSpecials::FNUZ:
      special = "if (bits == " + emit_small_u(1u << f.sign_shift()) + ") {\n    v = sonnx_bits_double(" + nan_neg +
                "); /* the one NaN, its sign bit set */\n  } else ";
      break;
    case EmitSmallSpecials::FN:
      special = "if ((e == " + emit_small_u(f.exp_all_ones()) + ") && (m == " + emit_small_u(f.man_all_ones()) +
                ")) {\n    v = sonnx_bits_double((negative != 0u) ? " + nan_neg + " : " + nan_pos + "); /* NaN */\n  } else ";
      break;
    case EmitSmallSpecials::IEEE:
      special = "if (e == " + emit_small_u(f.exp_all_ones()) +
                ") {\n    /* inf (m = 0), or NaN with its payload in the double's top mantissa bits */\n"
                "    v = sonnx_bits_double(((uint64_t)negative << 63) | " +
                emit_small_u64(0x7ff0000000000000ULL) + " | ((uint64_t)m << " + std::to_string(52 - M) + "));\n  } else ";
      break;
    case EmitSmallSpecials::Finite: break;
  }
  d += "  " + special + "if (e == 0u) {\n";
  d += "    v = ldexp((double)m, " + emit_small_int_text(f.min_normal_exp() - M) + ");\n";
  d += "    if (negative != 0u) {\n      v = -v;\n    }\n";
  d += "  } else {\n";
  d += "    const uint32_t significand = " + emit_small_u(1u << M) + " + m;\n";
  d += "    v = ldexp((double)significand, (int)e - " + std::to_string(f.bias + M) + ");\n";
  d += "    if (negative != 0u) {\n      v = -v;\n    }\n";
  d += "  }\n  return v;\n}\n";
  e.helper(name, d);
  return name;
}

std::string emit_small_float_from_double(NodeEmitter& e, const EmitSmallFormat& f, const NarrowOptions& o) {
  const bool finite = f.specials == EmitSmallSpecials::Finite;
  const bool fnuz = f.specials == EmitSmallSpecials::FNUZ;
  const bool saturate = o.saturate || finite;
  std::string name = std::string("sonnx_") + f.tag + "_from_double";
  if (!finite) name += saturate ? "_sat" : "_nosat";
  if (fnuz && saturate && !o.fnuz_inf_to_max) name += "_infnan";
  emit_small_float_encoders(e);
  if (f.specials == EmitSmallSpecials::IEEE) emit_bits_of(e, DType::Double);
  const uint32_t sign_bit = 1u << f.sign_shift();
  const uint32_t max_bits = f.max_bits();
  const uint32_t inf_bits = f.exp_all_ones() << f.man_bits;                     // IEEE only
  const uint32_t fn_nan = (f.exp_all_ones() << f.man_bits) | f.man_all_ones();  // FN only
  // encode()'s overflow(is_inf): ±inf, or a finite value whose rounding exceeds the largest.
  auto overflow = [&](bool is_inf) -> std::string {
    switch (f.specials) {
      case EmitSmallSpecials::IEEE: return "sign | " + emit_small_u(saturate ? max_bits : inf_bits);
      case EmitSmallSpecials::FN: return "sign | " + emit_small_u(saturate ? max_bits : fn_nan);
      case EmitSmallSpecials::FNUZ:
        return saturate && (!is_inf || o.fnuz_inf_to_max) ? "sign | " + emit_small_u(max_bits) : emit_small_u(sign_bit);
      case EmitSmallSpecials::Finite: return "sign | " + emit_small_u(max_bits);
    }
    return emit_small_u(sign_bit);
  };
  std::string nan;  // the statements of the NaN branch, indented for it
  switch (f.specials) {
    case EmitSmallSpecials::IEEE:
      nan = "    /* the double's top mantissa bits are the payload; one that would vanish is quieted */\n"
            "    const uint32_t payload = (uint32_t)((sonnx_double_bits(d) >> " +
            std::to_string(52 - f.man_bits) + ") & " + emit_small_u64(f.man_all_ones()) + ");\n    r = sign | " +
            emit_small_u(inf_bits) + " | ((payload != 0u) ? payload : " + emit_small_u(1u << (f.man_bits - 1)) + ");\n";
      break;
    case EmitSmallSpecials::FN: nan = "    r = sign | " + emit_small_u(fn_nan) + ";\n"; break;
    case EmitSmallSpecials::FNUZ: nan = "    r = " + emit_small_u(sign_bit) + "; /* the one NaN */\n"; break;
    case EmitSmallSpecials::Finite:
      nan = "    r = " + emit_small_u(sign_bit) + "; /* -0, as onnx's reference implementation and test data */\n";
      break;
  }
  std::string d = "/* small_from_double (reference/model/small_types.cpp encode) into " + std::string(f.tag) +
                  (finite     ? ""
                   : saturate ? ", saturate = 1"
                              : ", saturate = 0") +
                  (fnuz && saturate ? (o.fnuz_inf_to_max ? ", +-inf -> +-max" : ", +-inf -> NaN") : "") + " */\n";
  d += "static uint8_t " + name + "(double d) {\n";
  d += "  uint32_t sign = 0u;\n";
  d += "  uint32_t r;\n";
  d += "  if (signbit(d) != 0) {\n    sign = " + emit_small_u(sign_bit) + ";\n  }\n";
  d += "  if (isnan(d) != 0) {\n" + nan;
  d += "  } else if (isinf(d) != 0) {\n    r = " + overflow(true) + ";\n";
  d += "  } else {\n";
  d += "    const double rounded = (d == 0.0) ? 0.0 : sonnx_small_round_to_precision(fabs(d), " +
       emit_small_int_text(f.min_normal_exp()) + ", " + std::to_string(f.man_bits) + ");\n";
  d += "    if (rounded > " + c_literal(DType::Double, f.max_value()) + ") {\n      r = " + overflow(false) + ";\n";
  if (fnuz) d += "    } else if (rounded == 0.0) {\n      r = 0u; /* no -0: it would be the NaN */\n";
  d += "    } else {\n      r = sign | sonnx_small_encode_magnitude(rounded, " + emit_small_int_text(f.min_normal_exp()) + ", " +
       std::to_string(f.man_bits) + ", " + std::to_string(f.bias) + ");\n    }\n";
  d += "  }\n  return (uint8_t)r;\n}\n";
  e.helper(name, d);
  return name;
}

std::string emit_small_e8m0_to_double(NodeEmitter& e) {
  const std::string name = "sonnx_f8e8m0_to_double";
  e.needs_math();
  emit_from_bits(e, DType::Double);
  e.helper(name, "/* small_to_double (reference/model/small_types.cpp): 2^(bits - 127), NaN for 0xff */\n"
                 "static double " +
                     name +
                     "(uint8_t x) {\n"
                     "  double v;\n"
                     "  if (x == 0xffu) {\n"
                     "    v = sonnx_bits_double(" +
                     emit_small_u64(0x7ff8000000000000ULL) +
                     ");\n"
                     "  } else {\n"
                     "    v = ldexp(1.0, (int)x - 127);\n"
                     "  }\n"
                     "  return v;\n}\n");
  return name;
}

std::string emit_small_e8m0_from_double(NodeEmitter& e, const NarrowOptions& o) {
  const char* mode = o.e8m0_rounding == E8M0Rounding::Up ? "up" : o.e8m0_rounding == E8M0Rounding::Down ? "down" : "nearest";
  const std::string name = std::string("sonnx_f8e8m0_from_double_") + (o.saturate ? "sat_" : "nosat_") + mode;
  emit_small_ilogb(e);
  std::string d = "/* to_float8e8m0 (reference/model/small_types.cpp), saturate = " + std::string(o.saturate ? "1" : "0") +
                  ", round_mode \"" + mode + "\": decided on x itself, a negative x by its magnitude */\n";
  d += "static uint8_t " + name + "(double d) {\n";
  d += "  uint32_t r;\n";
  d += "  if (isnan(d) != 0) {\n    r = 0xffu;\n  } else {\n";
  d += "    const double a = fabs(d);\n";
  d += "    if (a > 0x1p+127) {\n      r = " + std::string(o.saturate ? "0xfeu" : "0xffu") + "; /* inf included */\n";
  d += "    } else if (a < 0x1p-127) {\n      r = " + std::string(o.saturate ? "0x00u" : "0xffu") + "; /* 0 included */\n";
  d += "    } else {\n";
  d += "      int ex = sonnx_small_ilogb(a);\n";
  if (o.e8m0_rounding == E8M0Rounding::Up)
    d += "      if (ldexp(a, -ex) > 1.0) {\n        ex += 1; /* not a power of two: up */\n      }\n";
  else if (o.e8m0_rounding == E8M0Rounding::Nearest)
    d += "      if (ldexp(a, -ex) >= 1.5) {\n        ex += 1; /* the midpoint goes up */\n      }\n";
  d += "      const int biased = ex + 127; /* in [0, 254] here */\n";
  d += "      r = (uint32_t)biased;\n";
  d += "    }\n  }\n  return (uint8_t)r;\n}\n";
  e.helper(name, d);
  return name;
}

const char* emit_small_int_storage(const EmitSmallInt& s) { return s.is_signed ? "int8_t" : "uint8_t"; }

}  // namespace

std::string emit_small_to_double(NodeEmitter& e, DType small) {
  if (small == DType::Float8E8M0) return emit_small_e8m0_to_double(e);
  if (const EmitSmallFormat* f = emit_small_format(small)) return emit_small_float_to_double(e, *f);
  if (const EmitSmallInt* s = emit_small_int(small)) {
    const std::string name = std::string("sonnx_") + s->tag + "_to_double";
    e.helper(name, "static double " + name + "(" + emit_small_int_storage(*s) + " x) {\n  return (double)x;\n}\n");
    return name;
  }
  e.refuse("element type " + std::string(dtype_name(small)) + " is not a float8, float4 or 2-/4-bit integer type");
}

std::string emit_small_int_from_integer(NodeEmitter& e, DType small) {
  const EmitSmallInt* s = emit_small_int(small);
  if (!s) e.refuse("element type " + std::string(dtype_name(small)) + " is not a 2-/4-bit integer type");
  const std::string name = std::string("sonnx_") + s->tag + "_from_integer";
  const uint32_t mask = (1u << s->bits) - 1u;
  std::string d = "/* " + std::string(s->tag) + "_from_integer (sonnx/small_types.h): the low " + std::to_string(s->bits) +
                  " bits, two's complement */\n";
  d += "static " + std::string(emit_small_int_storage(*s)) + " " + name + "(uint64_t v) {\n";
  d += "  const uint32_t low = (uint32_t)(v & " + emit_small_u64(mask) + ");\n";
  if (s->is_signed)
    d += "  return (int8_t)((low >= " + emit_small_u(1u << (s->bits - 1)) + ") ? ((int32_t)low - " +
         std::to_string(1 << s->bits) + ") : (int32_t)low);\n}\n";
  else d += "  return (uint8_t)low;\n}\n";
  e.helper(name, d);
  return name;
}

std::string emit_small_from_double(NodeEmitter& e, DType small, const NarrowOptions& o) {
  if (small == DType::Float8E8M0) return emit_small_e8m0_from_double(e, o);
  if (const EmitSmallFormat* f = emit_small_format(small)) return emit_small_float_from_double(e, *f, o);
  const EmitSmallInt* s = emit_small_int(small);
  if (!s) e.refuse("element type " + std::string(dtype_name(small)) + " is not a float8, float4 or 2-/4-bit integer type");
  const std::string low_bits = emit_small_int_from_integer(e, small);
  emit_small_round_half_even(e);
  e.helper("sonnx_small_int_residue", "/* small_int_residue (reference/model/small_types.cpp): round-half-even(d) mod 2^bits,\n"
                                      "   in [0, modulus); NaN and +-inf give 0 */\n"
                                      "static uint64_t sonnx_small_int_residue(double d, double modulus) {\n"
                                      "  uint64_t r = 0u;\n"
                                      "  if (isfinite(d) != 0) {\n"
                                      "    double m = fmod(sonnx_small_round_half_even(d), modulus); /* exact */\n"
                                      "    if (m < 0.0) {\n"
                                      "      m += modulus;\n"
                                      "    }\n"
                                      "    r = (uint64_t)m;\n"
                                      "  }\n"
                                      "  return r;\n}\n");
  const std::string name = std::string("sonnx_") + s->tag + "_from_double";
  e.helper(name, "/* to_" + std::string(s->tag) + " (sonnx/small_types.h): rounded half to even, the low bits */\nstatic " +
                     emit_small_int_storage(*s) + " " + name + "(double d) {\n  return " + low_bits +
                     "(sonnx_small_int_residue(d, " + std::to_string(1 << s->bits) + ".0));\n}\n");
  return name;
}

std::string emit_integer_to_double_round_odd(NodeEmitter& e, DType integer) {
  if (integer != DType::Int64 && integer != DType::UInt64)
    e.refuse("integer_to_double_round_odd is written for int64 and uint64 only, not " + std::string(dtype_name(integer)));
  e.needs_math();
  e.helper("sonnx_uint64_to_double_round_odd",
           "/* integer_to_double_round_odd (reference/ops/support/numeric.h) of a magnitude: truncated to 53\n"
           "   significant bits, the last one set when bits were lost */\n"
           "static double sonnx_uint64_to_double_round_odd(uint64_t magnitude) {\n"
           "  uint32_t shift = 0u;\n"
           "  uint64_t kept;\n"
           "  for (int k = 0; k < 11; ++k) {\n"
           "    const uint32_t length_bit = 53u + shift;\n"
           "    if ((magnitude >> length_bit) != 0u) {\n"
           "      shift += 1u; /* the bit length less 53, at most 11 */\n"
           "    }\n"
           "  }\n"
           "  kept = magnitude >> shift;\n"
           "  if ((magnitude & ((UINT64_C(1) << shift) - 1u)) != 0u) {\n"
           "    kept |= 1u; /* bits were lost */\n"
           "  }\n"
           "  return ldexp((double)kept, (int)shift); /* exact: kept < 2^53 */\n"
           "}\n");
  if (integer == DType::UInt64) return "sonnx_uint64_to_double_round_odd";
  e.helper("sonnx_int64_to_double_round_odd",
           "static double sonnx_int64_to_double_round_odd(int64_t v) {\n"
           "  double d;\n"
           "  if (v < 0) {\n"
           "    d = -sonnx_uint64_to_double_round_odd(0u - (uint64_t)v); /* right for INT64_MIN too */\n"
           "  } else {\n"
           "    d = sonnx_uint64_to_double_round_odd((uint64_t)v);\n"
           "  }\n"
           "  return d;\n"
           "}\n");
  return "sonnx_int64_to_double_round_odd";
}

}  // namespace sonnx::emit
