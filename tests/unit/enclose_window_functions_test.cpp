// Enclosures of the window functions (HannWindow, HammingWindow, BlackmanWindow 17): from an integer
// size they compute floats through rounding steps (spec/functions/*Window-17.onnxtxt, the ONNX
// schema's body in float), so neither enclosure is the reference's point. Under `real` the
// enclosure holds the body's value in exact arithmetic (its float constants, tau / N and the
// cosines exact: MPFR at 200 bits), rounded to float as the final Cast rounds; under `admissible`
// it also holds what an implementation that rounds each step and computes cos within its allowance
// may return: our kernel's value, a double-precision formula with the true π, and the floats one
// ulp either side of the kernel's value.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <numbers>
#include <string>

#include "enclose_test_util.h"

namespace sonnx::enclose {
namespace {

struct WindowCase {
  const char* op;
  float a0, a1, a2;  // the schema's float constants
};

const WindowCase kWindows[] = {
    {"HannWindow", 0.5f, 0.5f, 0.0f},
    {"HammingWindow", 0.54347825050354f, 0.45652174949645996f, 0.0f},
    {"BlackmanWindow", 0.41999998688697815f, 0.5f, 0.07999999821186066f},
};

// a0 - a1·cos(k·tau/N) + a2·cos(2k·tau/N) in exact arithmetic on the float constants (200 bits),
// rounded to float.
float exact_window_value(const WindowCase& w, int64_t k, int64_t n) {
  const float tau = 6.2831854820251465f;
  mpfr_t angle, c, acc, term;
  mpfr_inits2(200, angle, c, acc, term, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_d(angle, static_cast<double>(tau), MPFR_RNDN);
  mpfr_mul_si(angle, angle, static_cast<long>(k), MPFR_RNDN);
  mpfr_div_si(angle, angle, static_cast<long>(n), MPFR_RNDN);
  mpfr_set_d(acc, static_cast<double>(w.a0), MPFR_RNDN);
  mpfr_cos(c, angle, MPFR_RNDN);
  mpfr_mul_d(term, c, static_cast<double>(w.a1), MPFR_RNDN);
  mpfr_sub(acc, acc, term, MPFR_RNDN);
  mpfr_mul_ui(angle, angle, 2, MPFR_RNDN);
  mpfr_cos(c, angle, MPFR_RNDN);
  mpfr_mul_d(term, c, static_cast<double>(w.a2), MPFR_RNDN);
  mpfr_add(acc, acc, term, MPFR_RNDN);
  float v = mpfr_get_flt(acc, MPFR_RNDN);
  mpfr_clears(angle, c, acc, term, static_cast<mpfr_ptr>(nullptr));
  return v;
}

bool inside(float x, Interval i) { return static_cast<double>(x) >= i.lo && static_cast<double>(x) <= i.hi; }

OneNodeModel window_model(const WindowCase& w, int64_t size, int64_t periodic) {
  return one_node_model(w.op, 17, {Value(Tensor::scalar<int64_t>(size))}, {sonnx::testing::attr_int("periodic", periodic)});
}

TEST(EncloseWindowFunctions, RealEnclosureHoldsTheBodysExactValue) {
  for (const WindowCase& w : kWindows)
    for (int64_t periodic : {0, 1})
      for (int64_t size : {2, 10, 33}) {
        SCOPED_TRACE(std::string(w.op) + " size " + std::to_string(size) + " periodic " + std::to_string(periodic));
        Bounds b = enclose_output(window_model(w, size, periodic), Semantics::Real);
        ASSERT_EQ(b.lo.size(), size);
        const int64_t n = periodic ? size : size - 1;
        for (int64_t k = 0; k < size; ++k) EXPECT_TRUE(inside(exact_window_value(w, k, n), bound_at(b, k))) << "k = " << k;
      }
}

TEST(EncloseWindowFunctions, AdmissibleEnclosureHoldsOtherRoundingsOfTheFormula) {
  int wider_than_a_point = 0;
  for (const WindowCase& w : kWindows)
    for (int64_t periodic : {0, 1}) {
      const int64_t size = 16, n = periodic ? size : size - 1;
      SCOPED_TRACE(std::string(w.op) + " periodic " + std::to_string(periodic));
      OneNodeModel m = window_model(w, size, periodic);
      Bounds b = enclose_output(m, Semantics::Admissible);
      Tensor ours = reference_output(m);
      for (int64_t k = 0; k < size; ++k) {
        SCOPED_TRACE("k = " + std::to_string(k));
        Interval e = bound_at(b, k);
        const float kernel = ours.data<float>()[k];
        EXPECT_TRUE(inside(kernel, e));
        // In double with the true π, rounded once to float.
        const double angle = 2 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(n);
        const auto in_double = static_cast<float>(w.a0 - w.a1 * std::cos(angle) + w.a2 * std::cos(2 * angle));
        EXPECT_TRUE(inside(in_double, e)) << in_double << " outside [" << e.lo << ", " << e.hi << "]";
        // One ulp either side: a cos within its 4 ulps moves the result by more than that (w ≥ 0.08
        // away from the ends of the window).
        if (std::fabs(kernel) > 0.05f) {
          EXPECT_TRUE(inside(std::nextafter(kernel, 2.0f), e));
          EXPECT_TRUE(inside(std::nextafter(kernel, -2.0f), e));
        }
        wider_than_a_point += e.hi > e.lo;
      }
    }
  EXPECT_GT(wider_than_a_point, 80) << "the enclosures are points again";
}

// The ONNX suite's window tests are judged by these enclosures (conformance_1_19_1_enclosure_judge);
// here: the real enclosure of a window is at most a few ulps of float wide, so it decides the value.
TEST(EncloseWindowFunctions, RealEnclosureIsNarrow) {
  for (const WindowCase& w : kWindows) {
    SCOPED_TRACE(w.op);
    Bounds b = enclose_output(window_model(w, 10, 1), Semantics::Real);
    EXPECT_LE(widest_in_ulps(b), 2.0);
  }
}

}  // namespace
}  // namespace sonnx::enclose
