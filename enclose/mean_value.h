// Mean-value (centred) forms with an a-priori rounding error: a function of a few parameters over a
// box, carried as its range, its value at the box's centre and its gradient over the box, plus a
// bound on how far a computation rounded to a floating-point type may stray from it. Keeps what
// quantities computed from the same parameters share (Resize's weights of one output move together
// with the coordinate, enclose_resize.cpp) where plain intervals would enclose each over the box.
#pragma once
#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "interval.h"
#include "type_rounding.h"

namespace sonnx::enclose {

// Upper bounds of sums, products and quotients of non-negative error terms, exact where a term is
// 0 (so an exact weight keeps no error); a nonzero product or quotient that underflows stays above 0.
inline double upz(double sum) { return sum == 0 ? 0 : up(sum); }
inline double mulup(double a, double b) { return a == 0 || b == 0 ? 0 : up(a * b); }
inline double divup(double a, double b) { return a == 0 ? 0 : up(a / b); }

// A quantity (in Resize, one the weights are made of) as a function of parameters which lie in a
// box P (in Resize, the computed coordinate x̂ and scale ŝ of each axis, parameter 2d and 2d + 1 of
// axis d, over one of the pieces its coordinate interval is split into): R encloses the exact
// function over P, C its value at the box's centre c, G its gradient over P (by parameter), and e bounds
// |computed − exact| anywhere in P, the computed value being what the formula gives with every
// operation rounded to the type `f` (or any wider format; f null: exact operations, e = 0). So the
// value an implementation computes at p ∈ P lies in C + Σ_j G_j·(P_j − c_j), and in R, within ± e: a
// mean-value (centred) form, which keeps what the weights of one output share (they move together
// with x̂: Σ w_i = 1) instead of enclosing each over the whole box.
//
// The error bound of one operation: the exact result v of the computed operands differs from the
// exact result of the exact operands by the propagated error ep (|a|·e_b + |b|·e_a + e_a·e_b for a
// product, (|a|·e_b + |b|·e_a)/(|b|·(|b| − e_b)) for a quotient, e_a + e_b for a sum), and rounding
// v to the type (any precision at least the type's) adds u·|v| + one smallest subnormal, nothing
// where the result is exact (ep = 0 and the exact result a point the type holds).
using Grad = std::vector<std::pair<int, Interval>>;  // by parameter, sorted

struct EA {
  Interval R, C;
  Grad G;
  double e = 0;
  const FloatFormat* f = nullptr;

  static EA constant(double v, const FloatFormat* f) {
    double e = 0;
    if (f) {  // a constant the type does not hold is held rounded
      Interval r = f->round_out(Interval::point(v));
      e = std::max(v - r.lo, r.hi - v);
    }
    return {Interval::point(v), Interval::point(v), {}, e, f};
  }
  static EA variable(Interval box, double centre, int id, const FloatFormat* f) {
    return {box, Interval::point(centre), {{id, Interval::point(1)}}, 0, f};
  }
  static EA unbounded(const FloatFormat* f) {
    return {Interval::whole(), Interval::whole(), {}, std::numeric_limits<double>::infinity(), f};
  }
  bool exact_point() const { return R.lo == R.hi && e == 0; }
};

// ka·Ga + kb·Gb.
Grad combine(const Grad& a, Interval ka, const Grad& b, Interval kb);

// The error bound of an operation rounded to f whose exact result on the computed operands lies in r
// and differs from the exact function's by at most ep (above).
double err_of(const FloatFormat* f, Interval r, double ep);
// The format of an operation on a and b: a's, else b's (null: both exact).
inline const FloatFormat* fmt(const EA& a, const EA& b) { return a.f ? a.f : b.f; }
// Sanitizes an interval my own arithmetic made undefined (∞ − ∞ on unbounded enclosures): unbounded.
inline Interval bounded(Interval i) { return i.has_nan() ? Interval::whole() : i; }

EA operator+(const EA& a, const EA& b);
EA operator-(const EA& a);
EA operator-(const EA& a, const EA& b);
EA operator*(const EA& a, const EA& b);
EA operator/(const EA& a, const EA& b);  // unbounded where b's computed value may be 0
// |a| and max(a, 0): exact, 1-Lipschitz (the error stays); at the kink the gradient takes both sides.
EA abs(const EA& a);
EA max0(const EA& a);
bool is_zero(const EA& a);  // exactly 0, computed without error

}  // namespace sonnx::enclose
