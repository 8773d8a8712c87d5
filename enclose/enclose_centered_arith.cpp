// Centered enclosures (centered_ops.h) of Relu, Add, Sub, Mul, Div and the elementary functions.
#include "centered_ops.h"
#include "reference/ops/support/elementwise.h"

namespace sonnx::enclose::centered_ops {

namespace {

// An element of a binary operator's result from its operands' (mid, rad): false where the
// operator has no centered form there (a divisor that may be 0).
using BinaryFn = bool (*)(DD a, double ra, DD b, double rb, Centered& y, size_t i);

Result binary(const OpCall& c, BinaryFn f) {
  CenteredPtr a = centered_input(c, 0), b = centered_input(c, 1);
  if (!a || !b) return std::nullopt;
  const Shape &as = c.input(0).lo.shape(), &bs = c.input(1).lo.shape();
  Shape ys = support::broadcast_shapes(c.ctx, as, bs);
  std::vector<int64_t> ia = support::broadcast_index_map(as, ys), ib = support::broadcast_index_map(bs, ys);
  Centered y(ia.size());
  for (size_t i = 0; i < y.size(); ++i) {
    size_t j = static_cast<size_t>(ia[i]), k = static_cast<size_t>(ib[i]);
    if (!f(a->mid(j), a->rad[j], b->mid(k), b->rad[k], y, i)) return std::nullopt;
  }
  return std::vector<Bounds>{output(c, ys, std::move(y))};
}

bool dd_add(DD a, double ra, DD b, double rb, Centered& y, size_t i) {
  DDSum s;
  s.add(a);
  s.add(b);
  RadiusSum r;
  r.add(ra);
  r.add(rb);
  set_sum(y, i, s, r.bound());
  return true;
}

bool dd_sub(DD a, double ra, DD b, double rb, Centered& y, size_t i) { return dd_add(a, ra, {-b.hi, -b.lo}, rb, y, i); }

bool dd_mul(DD a, double ra, DD b, double rb, Centered& y, size_t i) {
  DDSum s;
  s.add_product(a, b);
  RadiusSum r;
  r.add(a.hi, ra, b.hi, rb);
  set_sum(y, i, s, r.bound());
  return true;
}

// a / b for |b| > rb. q1 = fl(A.hi / B.hi), the remainder R = A − q1·B as a sum (within e1), and
// q2 = fl(R.hi / B.hi): A/B − (q1 + q2) = (R_exact − R.hi)/B + R.hi·(B.hi − B)/(B·B.hi) + (R.hi/B.hi − q2),
// at most (|R.lo| + e1)/|B| + |R.hi|·|B.lo|/(|B|·|B.hi|) + u·|q2| + η. The operands' radii add
// |a/b − A/B| ≤ (ra + |A/B|·rb) / (|B| − rb).
bool dd_div(DD a, double ra, DD b, double rb, Centered& y, size_t i) {
  double b_min = down(std::fabs(b.hi) - std::fabs(b.lo)), within = rb == 0 ? b_min : down(b_min - rb);
  if (!(within > 0) || !std::isfinite(b.hi)) return false;
  double q1 = a.hi / b.hi;
  DDSum rem;
  rem.add(a);
  rem.add_product({-q1, 0}, b);
  auto [R, e1] = rem.result();
  double q2 = R.hi / b.hi;
  DD q;
  two_sum(q1, q2, q.hi, q.lo);
  double err = 0;
  if (R.hi != 0 || R.lo != 0 || e1 != 0 || (q1 != 0 && !(std::fabs(q1) >= 0x1p-960)))  // 0/b is exact
    err = up(
        up(up(up(std::fabs(R.lo) + e1) / b_min) + up(up(std::fabs(R.hi) * std::fabs(b.lo)) / down(b_min * std::fabs(b.hi)))) +
        up(up(kU * std::fabs(q2)) + 2 * kEta));
  double spread = 0;
  if (ra != 0 || rb != 0) spread = up(up(ra + up(up(up(std::fabs(q.hi) + std::fabs(q.lo)) + err) * rb)) / within);
  if (!std::isfinite(err) || !std::isfinite(spread)) return false;
  y.set(i, q, add_up(err, spread));
  return true;
}

// Sin and cos are 1-Lipschitz: f(m ± r) ⊆ f(m) ± r, f(m) of the double-double midpoint with 256-bit
// MPFR (each step correctly rounded: within 2^-250 of the exact value, or exact where MPFR says so).
Result lipschitz_unary(const OpCall& c, int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t)) {
  CenteredPtr x = centered_input(c, 0);
  if (!x) return std::nullopt;
  Centered y(x->size());
  mpfr_t v;
  mpfr_init2(v, 256);
  for (size_t i = 0; i < y.size(); ++i) {
    mpfr_set_d(v, x->hi[i], MPFR_RNDN);
    int inexact = mpfr_add_d(v, v, x->lo[i], MPFR_RNDN);
    double in_err = inexact ? up(0x1p-250 * up(std::fabs(x->hi[i]) + std::fabs(x->lo[i])))
                            : 0;  // moved by ≤ that: f moves ≤ that
    inexact |= f(v, v, MPFR_RNDN);
    auto [m, err] = to_centered(v, inexact ? up(in_err + 0x1p-250) : 0);
    y.set(i, m, add_up(err, x->rad[i]));
  }
  mpfr_clear(v);
  return std::vector<Bounds>{output(c, c.input(0).lo.shape(), std::move(y))};
}

// f nondecreasing on its domain: f(m ± r) ⊆ [f(m − r), f(m + r)]. The ends m ∓ r at 256 bits rounded
// outward, f of each correctly rounded outward (MPFR), and the midpoint and radius of that interval
// (the midpoint at 600 bits, the radius rounded up from it): a point stays a point where f is exact
// there (e^0 = 1). `min_sign`: the lower end must have at least this sign (1: > 0 for log, 0: ≥ 0
// for sqrt), or the operator has no centered form here.
using DirectedFn = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

Result monotone_unary(const OpCall& c, DirectedFn f, int min_sign = -2) {
  CenteredPtr x = centered_input(c, 0);
  if (!x) return std::nullopt;
  Centered y(x->size());
  mpfr_t lo, hi, mid, rad;
  mpfr_inits2(256, lo, hi, static_cast<mpfr_ptr>(nullptr));
  mpfr_inits2(600, mid, rad, static_cast<mpfr_ptr>(nullptr));
  bool ok = true;
  for (size_t i = 0; i < y.size() && ok; ++i) {
    mpfr_set_d(lo, x->hi[i], MPFR_RNDN);
    mpfr_add_d(lo, lo, x->lo[i], MPFR_RNDD);
    mpfr_sub_d(lo, lo, x->rad[i], MPFR_RNDD);
    mpfr_set_d(hi, x->hi[i], MPFR_RNDN);
    mpfr_add_d(hi, hi, x->lo[i], MPFR_RNDU);
    mpfr_add_d(hi, hi, x->rad[i], MPFR_RNDU);
    if (mpfr_sgn(lo) < min_sign || (min_sign == 1 && mpfr_zero_p(lo))) {  // outside the domain
      ok = false;
      break;
    }
    f(lo, lo, MPFR_RNDD);
    f(hi, hi, MPFR_RNDU);
    mpfr_add(mid, lo, hi, MPFR_RNDN);
    mpfr_div_2ui(mid, mid, 1, MPFR_RNDN);
    mpfr_sub(rad, hi, mid, MPFR_RNDU);
    double r = mpfr_get_d(rad, MPFR_RNDU);
    mpfr_sub(rad, mid, lo, MPFR_RNDU);
    r = std::max(r, mpfr_get_d(rad, MPFR_RNDU));
    auto [m, err] = to_centered(mid, r);
    ok = std::isfinite(m.hi) && std::isfinite(err);
    y.set(i, m, err);
  }
  mpfr_clears(lo, hi, mid, rad, static_cast<mpfr_ptr>(nullptr));
  if (!ok) return std::nullopt;
  return std::vector<Bounds>{output(c, c.input(0).lo.shape(), std::move(y))};
}

// The logistic function 1 / (1 + e^−x), rounded in direction `rnd` (D or U): e^−x and the sum
// rounded against it, the quotient with it.
int logistic(mpfr_ptr y, mpfr_srcptr x, mpfr_rnd_t rnd) {
  mpfr_rnd_t against = rnd == MPFR_RNDD ? MPFR_RNDU : MPFR_RNDD;
  mpfr_t t;
  mpfr_init2(t, mpfr_get_prec(y));
  mpfr_neg(t, x, MPFR_RNDN);  // exact: same precision
  mpfr_exp(t, t, against);
  mpfr_add_ui(t, t, 1, against);
  int inexact = mpfr_ui_div(y, 1, t, rnd);
  mpfr_clear(t);
  return inexact | 1;
}

}  // namespace

Result relu(const OpCall& c) {
  CenteredPtr x = centered_input(c, 0);
  if (!x) return std::nullopt;
  Centered y(x->size());
  for (size_t i = 0; i < y.size(); ++i) {
    Interval v = interval_of(x->mid(i)) + Interval{-x->rad[i], x->rad[i]};
    if (v.lo >= 0) {
      y.set(i, x->mid(i), x->rad[i]);
    } else if (v.hi > 0) {  // [0, v.hi]
      double m = 0.5 * v.hi;
      y.set(i, {m, 0}, up(std::max(m, up(v.hi - m))));
    }  // else exactly 0
  }
  return std::vector<Bounds>{output(c, c.input(0).lo.shape(), std::move(y))};
}

Result add(const OpCall& c) { return binary(c, dd_add); }
Result sub(const OpCall& c) { return binary(c, dd_sub); }
Result mul(const OpCall& c) { return binary(c, dd_mul); }
Result div(const OpCall& c) { return binary(c, dd_div); }
Result sin(const OpCall& c) { return lipschitz_unary(c, mpfr_sin); }
Result cos(const OpCall& c) { return lipschitz_unary(c, mpfr_cos); }
Result exp(const OpCall& c) { return monotone_unary(c, mpfr_exp); }
Result log(const OpCall& c) { return monotone_unary(c, mpfr_log, 1); }
Result sqrt(const OpCall& c) { return monotone_unary(c, mpfr_sqrt, 0); }
Result tanh(const OpCall& c) { return monotone_unary(c, mpfr_tanh); }
Result erf(const OpCall& c) { return monotone_unary(c, mpfr_erf); }
Result sigmoid(const OpCall& c) { return monotone_unary(c, logistic); }

}  // namespace sonnx::enclose::centered_ops
