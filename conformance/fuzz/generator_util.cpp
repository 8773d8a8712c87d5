#include "generator_util.h"

namespace sonnx::fuzz {

std::vector<z3::expr> dims_of(GenContext& c, const TVar& t) {
  std::vector<z3::expr> d;
  for (int64_t x : t.shape) d.push_back(c.c(x));
  return d;
}

Operand existing(GenContext& c, int tensor) {
  Operand o;
  o.tensor = tensor;
  o.dims = dims_of(c, c.tensors[static_cast<size_t>(tensor)]);
  o.range = c.tensors[static_cast<size_t>(tensor)].range;
  return o;
}

Operand new_broadcast_operand(GenContext& c, OpPlan& p, const std::vector<z3::expr>& like, Interval range) {
  Operand o;
  o.range = range;
  o.as_const = c.coin(0.4);
  size_t rank = like.empty() ? 0
                             : static_cast<size_t>(c.uniform(c.coin(0.7) ? static_cast<int64_t>(like.size()) : 0,
                                                             static_cast<int64_t>(like.size())));
  for (size_t i = 0; i < rank; ++i) {
    z3::expr d = c.fresh(p, "b", 1, c.max_dim);
    const z3::expr& l = like[like.size() - rank + i];
    p.prefs.push_back(c.coin(0.75) ? d == l : d == c.c(1));
    o.dims.push_back(d);
  }
  return o;
}

std::string materialize(GenContext& c, const Operand& o, const Solution& s) {
  if (o.tensor >= 0) return c.tensors[static_cast<size_t>(o.tensor)].name;
  std::vector<int64_t> shape = s(o.dims);
  if (o.as_const) return c.add_float_const(shape, o.range);
  return c.tensors[static_cast<size_t>(c.add_input(shape, o.range))].name;
}

std::vector<z3::expr> broadcast(GenContext& c, OpPlan& p, const std::vector<z3::expr>& a, const std::vector<z3::expr>& b) {
  size_t r = std::max(a.size(), b.size());
  std::vector<z3::expr> out;
  for (size_t i = 0; i < r; ++i) {
    bool ha = i + a.size() >= r, hb = i + b.size() >= r;
    if (ha && hb) {
      const z3::expr& x = a[i + a.size() - r];
      const z3::expr& y = b[i + b.size() - r];
      p.constraints.push_back(x == y || x == c.c(1) || y == c.c(1));
      out.push_back(z3::ite(x == c.c(1), y, x));
    } else {
      out.push_back(ha ? a[i + a.size() - r] : b[i + b.size() - r]);
    }
  }
  return out;
}

Interval hull(Interval a, Interval b) { return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)}; }
Interval add(Interval a, Interval b) { return {a.lo + b.lo, a.hi + b.hi}; }
Interval mul(Interval a, Interval b) {
  double v[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  return {*std::min_element(v, v + 4), *std::max_element(v, v + 4)};
}
Interval monotone(Interval a, double (*f)(double)) { return {f(a.lo), f(a.hi)}; }

Interval random_range(GenContext& c, bool positive) {
  if (positive) {
    double lo = c.uniform_real(0.25, 1.0);
    return {lo, lo + c.uniform_real(0.5, 3.0)};
  }
  double r = c.uniform_real(0.5, 3.0);
  return {-r, r};
}

int out_tensor(GenContext& c, int32_t elem, const std::vector<int64_t>& shape, Interval range, const std::vector<int>& from,
               const std::string& op) {
  return c.add_tensor(elem, shape, range, from, op);
}

int64_t random_axis(GenContext& c, int64_t rank) { return c.uniform(0, rank - 1); }

}  // namespace sonnx::fuzz
