#include "c_half.h"

namespace sonnx::emit {
namespace {

// Float's bits and back; a union is C99's defined way to reinterpret (C99 TC3 6.5.2.3 note 82),
// kept to these two functions, each registered only where it is called (an unused static
// function is a -Wunused-function warning).
void emit_half_float_bits(NodeEmitter& e) {
  e.helper("sonnx_float_bits", "static uint32_t sonnx_float_bits(float f) {\n"
                               "  union { float f; uint32_t u; } v;\n  v.f = f;\n  return v.u;\n}\n");
}
void emit_half_bits_float(NodeEmitter& e) {
  e.helper("sonnx_bits_float", "static float sonnx_bits_float(uint32_t u) {\n"
                               "  union { float f; uint32_t u; } v;\n  v.u = u;\n  return v.f;\n}\n");
}

const char* emit_half_tag(NodeEmitter& e, DType half) {
  if (half == DType::Float16) return "f16";
  if (half == DType::BFloat16) return "bf16";
  e.refuse("element type " + std::string(dtype_name(half)) + " is not float16 or bfloat16");
}

}  // namespace

bool is_half_type(DType t) { return t == DType::Float16 || t == DType::BFloat16; }

std::string emit_half_to_float(NodeEmitter& e, DType half) {
  const std::string name = std::string("sonnx_") + emit_half_tag(e, half) + "_to_float";
  emit_half_bits_float(e);
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
  emit_half_float_bits(e);
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
  emit_half_bits_float(e);  // sonnx_float_round_to_odd uses both
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
