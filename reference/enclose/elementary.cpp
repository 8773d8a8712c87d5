#include "elementary.h"

#include <mpfr.h>

namespace sonnx::enclose {

namespace {
using MpfrFn = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

// f(x) rounded toward −∞ (down) or +∞; x is a double, so exact at 53 bits.
double bound(MpfrFn f, double x, bool upward) {
  mpfr_t a;
  mpfr_init2(a, 53);
  mpfr_set_d(a, x, MPFR_RNDN);
  f(a, a, upward ? MPFR_RNDU : MPFR_RNDD);
  double r = mpfr_get_d(a, upward ? MPFR_RNDU : MPFR_RNDD);
  mpfr_clear(a);
  return r;
}

// An increasing f over [x.lo, x.hi].
Interval increasing(MpfrFn f, Interval x) {
  if (x.has_nan()) return Interval::whole();
  return {bound(f, x.lo, false), bound(f, x.hi, true)};
}

// 1 / (1 + e^(−x)) at one point, rounded down or up: e^(−x) rounded the other way.
double sigmoid_bound(double x, bool upward) {
  mpfr_t a;
  mpfr_init2(a, 53);
  mpfr_set_d(a, -x, MPFR_RNDN);
  mpfr_rnd_t inner = upward ? MPFR_RNDD : MPFR_RNDU, outer = upward ? MPFR_RNDU : MPFR_RNDD;
  mpfr_exp(a, a, inner);
  mpfr_add_ui(a, a, 1, inner);
  mpfr_ui_div(a, 1, a, outer);
  double r = mpfr_get_d(a, outer);
  mpfr_clear(a);
  return r;
}
}  // namespace

Interval exp(Interval x) { return increasing(mpfr_exp, x); }
Interval tanh(Interval x) { return increasing(mpfr_tanh, x); }
Interval erf(Interval x) { return increasing(mpfr_erf, x); }

Interval log(Interval x) {
  if (x.has_nan() || !(x.lo > 0)) return Interval::whole();
  return increasing(mpfr_log, x);
}

Interval sqrt(Interval x) {
  if (x.has_nan() || !(x.lo >= 0)) return Interval::whole();
  return increasing(mpfr_sqrt, x);
}

Interval sigmoid(Interval x) {
  if (x.has_nan()) return Interval::whole();
  return {sigmoid_bound(x.lo, false), sigmoid_bound(x.hi, true)};
}

}  // namespace sonnx::enclose
