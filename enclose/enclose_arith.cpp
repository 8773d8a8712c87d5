// Enclosures of Mod and Range on floats (integer inputs are exact values: the encloser lifts the
// reference's result), and the registration of Resize (enclose_resize.cpp).
//
// Mod (versions 10 and 13). fmod=1 (what the schema asks for floats): x − trunc(x/y)·y, the sign of
// x; IEEE fmod is exact, so an implementation returns the exact remainder of its inputs. fmod=0 (the
// reference's Python meaning, which it keeps for floats): x − floor(x/y)·y, the sign of y; the
// reference computes fmod(x, y) + y where the signs differ, one rounding. On points the remainder is
// computed exactly (std::fmod, then the sum as an interval); on intervals, where the quotient's
// truncation (or floor) n is the same over the whole box, x − n·y in interval arithmetic, and in any
// case the hull the remainder cannot leave: the sign of x (of y for fmod=0), |r| < |y|, and for
// fmod=1 |r| ≤ |x|. A divisor whose enclosure holds 0 bounds nothing (x mod 0 is NaN).
// Admissible: the exact remainder rounded outward to the type (admit() with Allowance::own()): no
// rounding at all for fmod=1, the one rounding of fmod(x, y) + y for fmod=0.
//
// Range (version 11). max(ceil((limit − start)/delta), 0) elements, element i = start + i·delta.
// Real: the count exactly (rationals, GMP) where the inputs are points, else from the interval
// quotient, Undetermined where the bounds leave it open; element i as start + i·delta in interval
// arithmetic. The reference computes the count and start + i·delta in double (rounding the result
// to the type). Admissible: an implementation computes in the element type (or wider): the count as
// ceil(fl(fl(limit − start)/delta)) (the spec's function body, in the type), which is kept only
// where every such rounding gives the same count (else Undetermined); element i either as
// fl(start + fl(fl(i)·delta)) (within γ_3·(|start| + i·|delta|) of the exact value: the rounding of
// i, of the product and of the sum) or by repeated addition start + delta + … + delta as the
// function body's Loop does (a recursive sum of i + 1 terms: within γ_i·(|start| + i·|delta|),
// Higham §3.1); so within γ_max(i,3)·(|start| + i·|delta|), plus three smallest subnormals of the
// type for a product's underflow, then rounded outward to the type. Elements 0 and 1 are start and
// the one rounding of start + delta in both ways: the outward rounding alone.
#include <gmp.h>

#include "enclose_ops.h"
#include "sonnx/errors.h"
#include "reference/ops/params/mod.h"
#include "reference/ops/support/elementwise.h"

namespace sonnx::enclose {

namespace {

// ---- Mod ----

// The bound no remainder leaves: the sign of `sign_of` (x for fmod, y for the floor remainder),
// magnitude below max |y| (and at most |x| for fmod).
Interval remainder_hull(Interval x, Interval y, bool c_fmod) {
  double m = magnitude(y);
  if (c_fmod) return {x.lo >= 0 ? 0.0 : -std::min(-x.lo, m), x.hi <= 0 ? 0.0 : std::min(x.hi, m)};
  return y.lo > 0 ? Interval{0, y.hi} : Interval{y.lo, 0};
}

Interval mod_of(Interval x, Interval y, bool c_fmod) {
  if (x.lo == x.hi && y.lo == y.hi) {  // points, ±∞ included: IEEE fmod is exact (x mod ±∞ is x; ∞ mod y and x mod 0 are NaN)
    double r = std::fmod(x.lo, y.lo);
    if (std::isnan(r)) return Interval::undefined();
    if (c_fmod || r == 0 || (r < 0) == (y.lo < 0)) return Interval::point(r);
    return Interval::point(r) + y;  // the floor remainder: fmod + y, exactly enclosed
  }
  // Undefined where some choice is: a divisor 0, a dividend ±∞ (or an undefined operand).
  if (x.has_nan() || y.has_nan() || y.contains(0) || !std::isfinite(x.lo) || !std::isfinite(x.hi)) return Interval::undefined();
  Interval h = remainder_hull(x, y, c_fmod);
  Interval q = x / y;
  if (!std::isfinite(q.lo) || !std::isfinite(q.hi)) return h;
  double n0 = c_fmod ? std::trunc(q.lo) : std::floor(q.lo), n1 = c_fmod ? std::trunc(q.hi) : std::floor(q.hi);
  if (n0 != n1) return h;
  Interval r = x - Interval::point(n0) * y;  // the same n over the whole box
  return {std::max(r.lo, h.lo), std::min(r.hi, h.hi)};
}

std::vector<Bounds> mod(const OpCall& c) {
  const Bounds &a = c.input(0), &b = c.input(1);
  if (a.exact() && b.exact()) return lift_exact(c);
  if (a.type != b.type) c.ctx.fail("inputs have different element types");
  bool c_fmod = ModParams::read(c.ctx, c.version).fmod;
  Shape shape = support::broadcast_shapes(c.ctx, a.lo.shape(), b.lo.shape());
  auto ia = support::broadcast_index_map(a.lo.shape(), shape), ib = support::broadcast_index_map(b.lo.shape(), shape);
  Bounds y = float_bounds(a.type, shape);
  for (int64_t i = 0; i < y.lo.size(); ++i)
    set(y, i, mod_of(at(a, ia[static_cast<size_t>(i)]), at(b, ib[static_cast<size_t>(i)]), c_fmod));
  return {y};
}

// ---- Range ----

// ceil((l − s)/d) exactly, for doubles with d ≠ 0.
double exact_count(double s, double l, double d) {
  mpq_t a, b;
  mpq_init(a);
  mpq_init(b);
  mpq_set_d(a, l);
  mpq_set_d(b, s);
  mpq_sub(a, a, b);
  mpq_set_d(b, d);
  mpq_div(a, a, b);
  mpz_t z;
  mpz_init(z);
  mpz_cdiv_q(z, mpq_numref(a), mpq_denref(a));
  double n = mpz_get_d(z);  // exact below 2^53, and beyond the limit anyway
  mpz_clear(z);
  mpq_clear(a);
  mpq_clear(b);
  return n;
}

std::vector<Bounds> range(const OpCall& c) {
  const Bounds &s = c.input(0), &l = c.input(1), &d = c.input(2);
  if (s.exact() && l.exact() && d.exact()) return lift_exact(c);
  DType type = s.type;
  if (l.type != type || d.type != type) c.ctx.fail("start, limit and delta must have the same type");
  if (s.lo.size() != 1 || l.lo.size() != 1 || d.lo.size() != 1) c.ctx.fail("start, limit and delta must be scalars");
  Interval S = at(s, 0), L = at(l, 0), D = at(d, 0);
  if (D.lo == 0 && D.hi == 0) c.ctx.fail("delta cannot be 0");
  bool admissible = c.semantics == Semantics::Admissible;
  FloatFormat f = float_format(type);
  auto open = [&](const std::string& why) {
    return Undetermined(c.node.label() + ": the number of elements is not determined at this input: " + why);
  };
  bool points = S.lo == S.hi && L.lo == L.hi && D.lo == D.hi;
  if (points && !(std::isfinite(S.lo) && std::isfinite(L.lo) && std::isfinite(D.lo))) {  // as the reference traps
    double n = std::ceil((L.lo - S.lo) / D.lo);
    if (std::isnan(n)) c.ctx.fail("the number of elements is not a number (NaN or infinite inputs)");
    if (n > 9.0e15) c.ctx.fail("range is too large");
    if (n <= 0) return {float_bounds(type, {0})};  // an infinite delta: (limit − start)/±∞ = ±0
  }
  if (D.contains(0)) throw open("delta's enclosure holds 0");
  if (S.has_nan() || L.has_nan() || D.has_nan()) throw open("an input is undefined");
  if (!std::isfinite(S.lo) || !std::isfinite(S.hi) || !std::isfinite(L.lo) || !std::isfinite(L.hi) || !std::isfinite(D.lo) ||
      !std::isfinite(D.hi))
    throw open("an input is not bounded");
  double count;
  if (!admissible && points) {
    count = exact_count(S.lo, L.lo, D.lo);
  } else {
    // Real: the quotient of intervals. Admissible: each of the two operations rounded to the type
    // (any precision at least the type's lands between its values on either side).
    Interval diff = L - S;
    if (admissible) diff = f.round_out(diff);
    Interval q = diff / D;
    if (admissible) q = f.round_out(q);
    if (!std::isfinite(q.lo) || !std::isfinite(q.hi)) throw open("the quotient is not bounded");
    count = std::ceil(q.lo);
    if (std::max(count, 0.0) != std::max(std::ceil(q.hi), 0.0))
      throw open("ceil((limit - start) / delta) may be " + std::to_string(std::max(count, 0.0)) + " or " +
                 std::to_string(std::max(std::ceil(q.hi), 0.0)) + (admissible ? " as the element type rounds it" : ""));
  }
  if (count > 9.0e15) c.ctx.fail("range is too large");
  int64_t n = count > 0 ? static_cast<int64_t>(count) : 0;
  Bounds y = float_bounds(type, {n});
  double ms = magnitude(S), md = magnitude(D);
  for (int64_t i = 0; i < n; ++i) {
    double di = static_cast<double>(i);
    Interval v = S + Interval::point(di) * D;
    if (admissible && i >= 2) {  // start itself, and start + delta in one rounding (admit())
      double g = gamma(std::max(di, 3.0), f.unit_roundoff());
      double err = up(up(g * up(ms + up(di * md))) + 3 * f.smallest_subnormal());
      v = std::isfinite(err) ? Interval{down(v.lo - err), up(v.hi + err)} : Interval::whole();
    }
    set(y, i, v);
  }
  return {y};
}

}  // namespace

SONNX_ENCLOSURE("Mod", (10, 13), Allowance::own(), mod);
SONNX_ENCLOSURE("Range", (11), Allowance::own(), range);

}  // namespace sonnx::enclose
