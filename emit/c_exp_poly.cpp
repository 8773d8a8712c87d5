#include "c_exp_poly.h"

#include "c_half.h"

namespace sonnx::emit {

// x = k·ln2 + r with |r| <= ln2/2 (ln2 split into a high part with trailing zero bits, so k·ln2_hi
// is exact, and a low part); e^r by its Taylor polynomial to r^12 (truncation below 2e-16) under
// Horner's rule; times 2^k built in the exponent bits. x is clamped to ±200 first, which keeps k
// in double's exponent range and still gives 0 or inf once rounded to float; NaN passes through
// (both comparisons are false).
void emit_exp_poly(NodeEmitter& e, const std::string& x, const std::string& result) {
  const std::string bits = emit_bits_of(e, DType::Double), from_bits = emit_from_bits(e, DType::Double);
  const auto d = [](double v) { return c_literal(DType::Double, v); };
  const std::string xc = result + "_x", kd = result + "_kd", k = result + "_k", kr = result + "_kr", r = result + "_r",
                    p = result + "_p";
  e.line("const double " + xc + " = (" + x + " < " + d(-200.0) + ") ? " + d(-200.0) + " : ((" + x + " > " + d(200.0) + ") ? " +
         d(200.0) + " : " + x + ");");
  e.line("const double " + kd + " = (" + xc + " * " + d(1.4426950408889634) + ") + " + d(0x1.8p52) + ";");
  e.line("const uint64_t " + k + " = " + bits + "(" + kd + ");");
  e.line("const double " + kr + " = " + kd + " - " + d(0x1.8p52) + ";");
  e.line("const double " + r + " = (" + xc + " - (" + kr + " * " + d(6.93147180369123816490e-01) + ")) - (" + kr + " * " +
         d(1.90821492927058770002e-10) + ");");
  double inverse_factorial[13];
  double f = 1.0;
  for (int j = 0; j < 13; ++j) {
    f *= j > 0 ? j : 1;  // j! is exact in double
    inverse_factorial[j] = 1.0 / f;
  }
  e.line("double " + p + " = " + d(inverse_factorial[12]) + ";");
  for (int j = 11; j >= 0; --j) e.line(p + " = (" + p + " * " + r + ") + " + d(inverse_factorial[j]) + ";");
  e.line("const double " + result + " = " + p + " * " + from_bits + "((" + k + " + 1023u) << 52);");
}

}  // namespace sonnx::emit
