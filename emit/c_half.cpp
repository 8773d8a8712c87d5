#include "c_half.h"

namespace sonnx::emit {
namespace {

const char* emit_half_tag(NodeEmitter& e, DType half) {
  if (half == DType::Float16) return "f16";
  if (half == DType::BFloat16) return "bf16";
  e.refuse("element type " + std::string(dtype_name(half)) + " is not float16 or bfloat16");
}

}  // namespace

// The union helpers of emit_bits_of / emit_from_bits: float <-> uint32_t, double <-> uint64_t.
static std::string emit_bit_cast(NodeEmitter& e, DType floating, bool to_bits) {
  if (floating != DType::Float && floating != DType::Double) e.refuse("no bit cast for " + std::string(dtype_name(floating)));
  const std::string f = floating == DType::Float ? "float" : "double";
  const std::string u = floating == DType::Float ? "uint32_t" : "uint64_t";
  const std::string name = to_bits ? "sonnx_" + f + "_bits" : "sonnx_bits_" + f;
  const std::string from = to_bits ? f : u, to = to_bits ? u : f;
  e.helper(name, "static " + to + " " + name + "(" + from + " x) {\n  union { " + f + " f; " + u + " u; } v;\n  v." +
                     (to_bits ? "f" : "u") + " = x;\n  return v." + (to_bits ? "u" : "f") + ";\n}\n");
  return name;
}

std::string emit_bits_of(NodeEmitter& e, DType floating) { return emit_bit_cast(e, floating, true); }
std::string emit_from_bits(NodeEmitter& e, DType floating) { return emit_bit_cast(e, floating, false); }

bool is_half_type(DType t) { return t == DType::Float16 || t == DType::BFloat16; }

std::string emit_half_to_float(NodeEmitter& e, DType half) {
  const std::string name = std::string("sonnx_") + emit_half_tag(e, half) + "_to_float";
  emit_from_bits(e, DType::Float);
  if (half == DType::BFloat16) {
    e.helper(name, "static float " + name + "(uint16_t h) {\n  return sonnx_bits_float((uint32_t)h << 16);\n}\n");
    return name;
  }
  e.helper(name, "static float " + name +
                     "(uint16_t h) {\n"
                     "  const uint32_t sign = ((uint32_t)h & 0x8000u) << 16;\n"
                     "  const uint32_t exponent = ((uint32_t)h >> 10) & 0x1fu;\n"
                     "  const uint32_t mantissa = (uint32_t)h & 0x3ffu;\n"
                     "  float v;\n"
                     "  if (exponent == 0x1fu) {\n"
                     "    v = sonnx_bits_float(sign | 0x7f800000u | (mantissa << 13));\n"
                     "  } else if (exponent == 0u) {\n"
                     "    v = (float)mantissa * 0x1p-24f; /* exact: a subnormal half */\n"
                     "    if (sign != 0u) {\n      v = -v;\n    }\n"
                     "  } else {\n"
                     "    v = sonnx_bits_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));\n"
                     "  }\n"
                     "  return v;\n}\n");
  return name;
}

std::string emit_half_from_float(NodeEmitter& e, DType half) {
  const std::string name = std::string("sonnx_") + emit_half_tag(e, half) + "_from_float";
  emit_bits_of(e, DType::Float);
  if (half == DType::BFloat16) {
    e.helper(name, "static uint16_t " + name +
                       "(float f) {\n"
                       "  const uint32_t x = sonnx_float_bits(f);\n"
                       "  uint16_t r;\n"
                       "  if ((x & 0x7fffffffu) > 0x7f800000u) {\n"
                       "    r = (uint16_t)((x >> 16) | 0x40u); /* NaN, kept quiet */\n"
                       "  } else {\n"
                       "    r = (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);\n"
                       "  }\n"
                       "  return r;\n}\n");
    return name;
  }
  e.helper(name, "static uint16_t " + name +
                     "(float f) {\n"
                     "  const uint32_t x = sonnx_float_bits(f);\n"
                     "  const uint32_t sign = (x >> 16) & 0x8000u;\n"
                     "  const uint32_t magnitude = x & 0x7fffffffu;\n"
                     "  uint32_t r;\n"
                     "  if (magnitude >= 0x7f800000u) {\n"
                     "    r = sign | 0x7c00u | ((magnitude > 0x7f800000u) ? 0x200u : 0u); /* inf, or a quiet NaN */\n"
                     "  } else if (magnitude >= 0x477ff000u) {\n"
                     "    r = sign | 0x7c00u; /* rounds to inf */\n"
                     "  } else if (magnitude < 0x33000001u) {\n"
                     "    r = sign; /* rounds to zero */\n"
                     "  } else {\n"
                     "    const int32_t exponent = (int32_t)(magnitude >> 23) - 127;\n"
                     "    uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u;\n"
                     "    uint32_t shift = 13u; /* mantissa bits dropped */\n"
                     "    uint32_t base = 0u;\n"
                     "    if (exponent < -14) {\n"
                     "      shift = (uint32_t)(-exponent - 1); /* a subnormal half */\n"
                     "    } else {\n"
                     "      base = (uint32_t)(exponent + 15) << 10;\n"
                     "      mantissa &= 0x7fffffu;\n"
                     "    }\n"
                     "    {\n"
                     "      const uint32_t kept = mantissa >> shift;\n"
                     "      const uint32_t rest = mantissa & ((1u << shift) - 1u);\n"
                     "      const uint32_t halfway = 1u << (shift - 1u);\n"
                     "      r = base + kept;\n"
                     "      if ((rest > halfway) || ((rest == halfway) && ((kept & 1u) != 0u))) {\n"
                     "        r += 1u; /* carries into the exponent as it should */\n"
                     "      }\n"
                     "    }\n"
                     "    r |= sign;\n"
                     "  }\n"
                     "  return (uint16_t)r;\n}\n");
  return name;
}

std::string emit_half_from_double(NodeEmitter& e, DType half) {
  const std::string from_float = emit_half_from_float(e, half);
  const std::string name = std::string("sonnx_") + emit_half_tag(e, half) + "_from_double";
  e.needs_math();
  emit_from_bits(e, DType::Float);  // sonnx_float_round_to_odd uses both
  // float_round_to_odd (numeric.h): a float of 24 bits rounded to odd, then rounded to 11 or 8
  // bits, is the correctly rounded double.
  e.helper("sonnx_float_round_to_odd", "static float sonnx_float_round_to_odd(double d) {\n"
                                       "  float f = (float)d;\n"
                                       "  if ((isnan(d) == 0) && (isinf(d) == 0)) {\n"
                                       "    if (isinf(f) != 0) {\n"
                                       "      f = (f > 0.0f) ? 0x1.fffffep+127f : -0x1.fffffep+127f;\n"
                                       "    } else if ((double)f != d) {\n"
                                       "      uint32_t bits = sonnx_float_bits(f);\n"
                                       "      if (fabs((double)f) > fabs(d)) {\n"
                                       "        bits -= 1u; /* toward zero: truncated */\n"
                                       "      }\n"
                                       "      f = sonnx_bits_float(bits | 1u);\n"
                                       "    } else {\n"
                                       "      /* exact */\n"
                                       "    }\n"
                                       "  }\n"
                                       "  return f;\n}\n");
  e.helper(name, "static uint16_t " + name + "(double d) {\n  return " + from_float + "(sonnx_float_round_to_odd(d));\n}\n");
  return name;
}

}  // namespace sonnx::emit
