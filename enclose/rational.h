// Exact rationals (GMP's mpq_t), for the enclosures that decide a discrete choice exactly where
// double arithmetic could go either way near a tie or an integer: a floor, a nearest index, a
// comparison (Resize's coordinates, enclose_resize.cpp). Every operation is exact; a division by
// zero, a non-finite double and an index past int64 are InternalErrors (callers rule them out).
#pragma once
#include <gmp.h>

#include <cstdint>

#include "interval.h"

namespace sonnx::enclose {

class Q {
 public:
  Q() { mpq_init(v_); }
  explicit Q(double d);  // d finite
  Q(const Q& o) : Q() { mpq_set(v_, o.v_); }
  Q& operator=(const Q& o) {
    if (this != &o) mpq_set(v_, o.v_);
    return *this;
  }
  ~Q() { mpq_clear(v_); }

  friend Q operator+(const Q& a, const Q& b);
  friend Q operator-(const Q& a, const Q& b);
  friend Q operator*(const Q& a, const Q& b);
  friend Q operator/(const Q& a, const Q& b);  // b ≠ 0
  friend Q operator-(const Q& a);
  int sign() const { return mpq_sgn(v_); }
  int cmp(double d) const;  // the sign of q − d
  friend int compare(const Q& a, const Q& b) { return mpq_cmp(a.v_, b.v_); }

  // ⌊q⌋ and ⌈q⌉, which must fit in int64.
  int64_t floor() const;
  int64_t ceil() const;

  // The tightest double interval holding q: a point where a double holds it.
  Interval enclose() const;

 private:
  template <class F>
  static Q op(const Q& a, const Q& b, F f);
  template <class F>
  int64_t rounded(F f) const;
  mpq_t v_;
};

inline Q abs(const Q& q) { return q.sign() < 0 ? -q : q; }
inline Q min(const Q& a, const Q& b) { return compare(a, b) <= 0 ? a : b; }
inline Q max(const Q& a, const Q& b) { return compare(a, b) >= 0 ? a : b; }
inline Q max0(const Q& q) { return q.sign() < 0 ? Q(0.0) : q; }
inline bool is_zero(const Q& q) { return q.sign() == 0; }

}  // namespace sonnx::enclose
