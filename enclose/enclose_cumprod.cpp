// The enclosure of CumProd (26): each output the product of its prefix along the axis (the current
// element left out with exclusive, from the end with reverse), in interval arithmetic; an empty
// prefix is exactly 1 and a one-factor prefix that factor. Under the admissible semantics a prefix
// of m factors multiplied in any order (a running product, a parallel scan, or in a wider type and
// rounded once) lies within γ_(m−1) relative of it (Higham §3.5), plus m smallest subnormals of the
// type times the largest any subset of its factors can make them (underflow): ReduceProd's rule
// (enclose_sums_more.cpp) for each prefix. Integer inputs never reach this: they are lifted exactly.
#include <algorithm>
#include <cmath>
#include <vector>

#include "enclose_sums.h"
#include "sonnx/errors.h"

namespace sonnx::enclose::cumprod_detail {

// A running product: the interval product of the factors so far, a bound on |the product of any
// subset of them|, and their count.
struct PrefixProduct {
  Interval product = Interval::point(1);
  double subsets = 1;
  int64_t count = 0;

  void add(Interval f) {
    product = count == 0 ? f : product * f;
    subsets = up(subsets * std::max(1.0, magnitude(f)));
    ++count;
  }
  // The prefix's enclosure; widened by what m factors multiplied in any order may err when `ts`
  // is a type's (the admissible semantics).
  Interval result(const TypeSum& ts) const {
    Interval p = product;
    if (ts.unit > 0 && count > 1 && !p.has_nan()) {
      double m = static_cast<double>(count);
      double err = up(up(gamma(m - 1, ts.unit) * magnitude(p)) + up(up(m * ts.tiny) * subsets));
      // An infinite bound or error bounds nothing, but an infinite product known exactly (a factor
      // ±∞, none 0) is ±∞ in any order.
      if (std::isfinite(err)) p = p + Interval{-err, err};
      else if (!(std::isinf(p.lo) && p.lo == p.hi)) p = Interval::whole();
    }
    return p;
  }
};

std::vector<Bounds> enclose_cumprod(const OpCall& c) {
  const Bounds& x = float_input(c, 0);
  if (c.input(1).lo.rank() != 0) c.ctx.fail("axis must be a 0-D tensor");
  TypeSum ts = type_sum(c, x.type);
  return {prefix_scan<PrefixProduct>(
      c, x, [&](PrefixProduct& prefix, int64_t k) { prefix.add(at(x, k)); },
      [&](const PrefixProduct& prefix) { return prefix.result(ts); })};
}

}  // namespace sonnx::enclose::cumprod_detail

namespace sonnx::enclose {
SONNX_ENCLOSURE("CumProd", (26), Allowance::own(), cumprod_detail::enclose_cumprod);
}  // namespace sonnx::enclose
