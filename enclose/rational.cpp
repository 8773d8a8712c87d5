// Exact rationals over GMP (rational.h).
#include "rational.h"

#include <cmath>

#include "sonnx/errors.h"

namespace sonnx::enclose {

Q::Q(double d) : Q() {
  if (!std::isfinite(d)) throw InternalError("rational: a non-finite double");
  mpq_set_d(v_, d);
}

template <class F>
Q Q::op(const Q& a, const Q& b, F f) {
  Q r;
  f(r.v_, a.v_, b.v_);
  return r;
}

Q operator+(const Q& a, const Q& b) { return Q::op(a, b, mpq_add); }
Q operator-(const Q& a, const Q& b) { return Q::op(a, b, mpq_sub); }
Q operator*(const Q& a, const Q& b) { return Q::op(a, b, mpq_mul); }
Q operator/(const Q& a, const Q& b) {
  if (mpq_sgn(b.v_) == 0) throw InternalError("rational: a division by zero");
  return Q::op(a, b, mpq_div);
}
Q operator-(const Q& a) {
  Q r;
  mpq_neg(r.v_, a.v_);
  return r;
}

int Q::cmp(double d) const { return mpq_cmp(v_, Q(d).v_); }

template <class F>
int64_t Q::rounded(F f) const {
  mpz_t z;
  mpz_init(z);
  f(z, mpq_numref(v_), mpq_denref(v_));
  bool fits = mpz_fits_slong_p(z) != 0;
  long r = fits ? mpz_get_si(z) : 0;
  mpz_clear(z);
  if (!fits) throw InternalError("rational: a floor or ceiling out of range");
  return static_cast<int64_t>(r);
}

int64_t Q::floor() const { return rounded(mpz_fdiv_q); }
int64_t Q::ceil() const { return rounded(mpz_cdiv_q); }

Interval Q::enclose() const {
  double d = mpq_get_d(v_);  // truncated toward zero
  if (!std::isfinite(d)) return Interval::whole();
  int c = mpq_cmp(v_, Q(d).v_);
  if (c == 0) return Interval::point(d);
  return c > 0 ? Interval{d, up(d)} : Interval{down(d), d};
}

}  // namespace sonnx::enclose
