// The enclosure of Einsum-12 on float operands: each output element is a sum of n products, each of
// one element from every one of the m operands (support::EinsumPlan, the reference kernel's own
// reading of the equation: explicit and implicit output, repeated letters, "...", broadcasting).
// Each product's interval is the product of its factors' intervals (outward rounded); the sum of
// the products is a DotBound over the first m − 1 factors' product times the last factor (dot.h).
//
// Admissible: an implementation may multiply the factors and add the products in any order, and
// contract the operands in any order (pairwise, or summing an operand's letters before multiplying):
// every such evaluation is a tree of roundings in which each of the n·(exact products) passes
// through at most m − 1 multiplications and, along its path, nested sums over disjoint index sets of
// sizes s_i with Π s_i ≤ n, hence at most Σ(s_i − 1) ≤ n − 1 additions: the computed value is
// Σ term·(1 + θ) with |θ| ≤ γ_(n+m−2) (Higham §3.1, §3.5). We grant γ_(n+m+8)·Σ|terms|, the spare
// roundings as MatMul's (for m = 1 it is ReduceSum's γ_(n+9)), plus for underflow m − 1 smallest
// subnormals a term times the largest the other factors make them. A single operand's element
// moved without summing (a transpose, a diagonal) is itself, exactly. Integer operands never reach
// this: the encloser lifts an operator whose inputs are all exact.
#include <algorithm>
#include <cmath>
#include <vector>

#include "enclose_sums.h"
#include "reference/ops/params/einsum.h"
#include "reference/ops/support/einsum.h"
#include "sonnx/errors.h"

namespace sonnx::enclose::einsum_detail {

std::vector<Bounds> enclose_einsum(const OpCall& c) {
  const EinsumParams params = EinsumParams::read(c.ctx, c.version);
  const size_t m = c.in.size();
  if (m == 0) c.ctx.fail("at least one input is required");
  std::vector<const Bounds*> xs;
  std::vector<Shape> shapes;
  for (size_t k = 0; k < m; ++k) {
    const Bounds& b = float_input(c, k);
    if (b.type != c.input(0).type) c.ctx.fail("inputs have different element types");
    xs.push_back(&b);
    shapes.push_back(b.lo.shape());
  }
  const support::EinsumPlan plan = support::einsum_plan(c.ctx, params, shapes);
  const DType type = xs[0]->type;
  Bounds y = float_bounds(type, plan.out_shape);
  if (m == 1 && plan.products == 1) {  // data movement: each output is one input element
    plan.for_each_output([&](const std::vector<int64_t>&, int64_t o, const std::vector<int64_t>& base) {
      set(y, o, at(*xs[0], plan.element(base, 0, 0)));
    });
    return {y};
  }
  const TypeSum ts = type_sum(c, type);
  const double terms = static_cast<double>(plan.products) + static_cast<double>(m) + 8;
  std::vector<MidRad> last = mid_rad(*xs[m - 1]);
  plan.for_each_output([&](const std::vector<int64_t>&, int64_t o, const std::vector<int64_t>& base) {
    if (plan.products == 0) return set(y, o, Interval::point(0));  // an empty sum is exactly 0
    double sum_c = 0, sum_a = 0, sum_b = 0, underflow = 0;
    for (int64_t s = 0; s < plan.products; ++s) {
      // The first m − 1 factors' product (for m = 1 the weight 1), and the largest product of any
      // subset of the factors (what an underflow's error may be multiplied by).
      Interval head = Interval::point(1);
      double subsets = 1;
      for (size_t k = 0; k + 1 < m; ++k) {
        Interval f = at(*xs[k], plan.element(base, s, k));
        head = k == 0 ? f : head * f;
        subsets = up(subsets * std::max(1.0, magnitude(f)));
      }
      MidRad a = m == 1 ? kOne : MidRad::of(head), b = last[static_cast<size_t>(plan.element(base, s, m - 1))];
      subsets = up(subsets * std::max(1.0, std::fabs(b.m) + b.r));
      sum_c += a.m * b.m;
      sum_a += std::fabs(a.m) * b.r + a.r * (std::fabs(b.m) + b.r);
      sum_b += std::fabs(a.m * b.m);
      underflow = up(underflow + subsets);
    }
    if (ts.unit > 0 && m > 2) sum_a = up(sum_a + up(up(static_cast<double>(m - 2) * ts.tiny) * underflow));
    set(y, o, DotBound::from_sums(sum_c, sum_a, sum_b, terms, ts));
  });
  return {y};
}

}  // namespace sonnx::enclose::einsum_detail

namespace sonnx::enclose {
SONNX_ENCLOSURE("Einsum", (12), Allowance::own(), einsum_detail::enclose_einsum);
}  // namespace sonnx::enclose
