// Centered enclosures (centered.h) of the operators of deep feed-forward networks, under the `real`
// semantics: data movement, Relu, Add, Sub, Conv, Gemm, BatchNormalization (inference), MaxPool and
// GlobalAveragePool. Each returns nullopt where it does not apply (an unbounded input, Gemm's alpha
// or beta other than 1, BatchNormalization's parameters not known exactly, MaxPool's Indices); the
// operator's ordinary enclosure then runs.
#include <mpfr.h>

#include <optional>

#include "centered.h"
#include "enclose_sums.h"
#include "reference/model/errors.h"
#include "reference/ops/support/elementwise.h"
#include "reference/ops/support/window.h"

namespace sonnx::enclose {

// Named, not anonymous: the unity build joins this file with enclose_linear.cpp, which has its own
// conv, gemm, ...
namespace centered_ops {

using CenteredPtr = std::shared_ptr<const Centered>;
using Result = std::optional<std::vector<Bounds>>;
constexpr double kU = 0x1p-53, kEta = 0x1p-1074;

// The centered form of input k (a float tensor), or null.
CenteredPtr centered_input(const OpCall& c, size_t k) { return centered_of(float_input(c, k)); }

Bounds output(const OpCall& c, const Shape& shape, Centered y) {
  return centered_bounds(c.input(0).type, shape, std::make_shared<const Centered>(std::move(y)));
}

// ---- data movement: the reference kernel moves each part (hi, lo, rad) as it moves the values ----

Result movement(const OpCall& c) {
  std::vector<CenteredPtr> parts(c.in.size());
  DType type = DType::Undefined;
  for (size_t k = 0; k < c.in.size(); ++k) {
    if (!c.in[k] || c.in[k]->exact()) continue;
    if (!(parts[k] = centered_of(*c.in[k]))) return std::nullopt;
    if (type == DType::Undefined) type = c.in[k]->type;
  }
  if (type == DType::Undefined) return std::nullopt;
  std::vector<std::vector<Value>> runs;
  for (std::vector<double> Centered::*part : {&Centered::hi, &Centered::lo, &Centered::rad}) {
    std::vector<Value> values(c.in.size());
    std::vector<const Value*> ptrs(c.in.size(), nullptr);
    for (size_t k = 0; k < c.in.size(); ++k) {
      if (!c.in[k]) continue;
      values[k] = parts[k] ? Value(Tensor::from_vector(c.in[k]->lo.shape(), (*parts[k]).*part)) : Value(c.in[k]->lo);
      ptrs[k] = &values[k];
    }
    ValueScope scope;
    runs.push_back(c.reference.run_node(c.node, ptrs, scope, c.opset));
  }
  std::vector<Bounds> out;
  for (size_t k = 0; k < runs[0].size(); ++k) {
    if (!runs[0][k].is_tensor() || runs[0][k].tensor.dtype() != DType::Double) return std::nullopt;
    const Tensor& hi = runs[0][k].tensor;
    Centered y(static_cast<size_t>(hi.size()));
    for (size_t i = 0; i < y.size(); ++i)
      y.set(i, {hi.data<double>()[i], runs[1][k].tensor.data<double>()[i]}, runs[2][k].tensor.data<double>()[i]);
    out.push_back(centered_bounds(type, hi.shape(), std::make_shared<const Centered>(std::move(y))));
  }
  return out;
}

// ---- Relu, Add, Sub ----

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

Result add(const OpCall& c, bool subtract) {
  CenteredPtr a = centered_input(c, 0), b = centered_input(c, 1);
  if (!a || !b) return std::nullopt;
  const Shape &as = c.input(0).lo.shape(), &bs = c.input(1).lo.shape();
  Shape ys = support::broadcast_shapes(c.ctx, as, bs);
  std::vector<int64_t> ia = support::broadcast_index_map(as, ys), ib = support::broadcast_index_map(bs, ys);
  Centered y(ia.size());
  for (size_t i = 0; i < y.size(); ++i) {
    size_t j = static_cast<size_t>(ia[i]), k = static_cast<size_t>(ib[i]);
    DDSum s;
    s.add(a->mid(j));
    s.add(subtract ? DD{-b->hi[k], -b->lo[k]} : b->mid(k));
    RadiusSum r;
    r.add(a->rad[j]);
    r.add(b->rad[k]);
    set_sum(y, i, s, r.bound());
  }
  return std::vector<Bounds>{output(c, ys, std::move(y))};
}

// ---- Conv, Gemm ----

Result conv(const OpCall& c) {
  CenteredPtr x = centered_input(c, 0), w = centered_input(c, 1);
  CenteredPtr b = c.in.size() > 2 && c.in[2] ? centered_input(c, 2) : nullptr;
  if (!x || !w || (c.in.size() > 2 && c.in[2] && !b)) return std::nullopt;
  ConvGeometry g = conv_geometry(c, c.input(0).lo.shape(), c.input(1).lo.shape());
  int64_t out_plane = g.out_plane();
  Centered y(static_cast<size_t>(g.N * g.M * out_plane));
  std::vector<DDSum> sums(static_cast<size_t>(out_plane));
  std::vector<RadiusSum> rads(sums.size());
  for (int64_t bn = 0; bn < g.N; ++bn)
    for (int64_t m = 0; m < g.M; ++m) {
      std::fill(sums.begin(), sums.end(), DDSum{});
      std::fill(rads.begin(), rads.end(), RadiusSum{});
      g.for_each_term(bn, m, [&](int64_t x_off, int64_t w_off, int64_t o) {
        size_t i = static_cast<size_t>(x_off), k = static_cast<size_t>(w_off), oi = static_cast<size_t>(o);
        sums[oi].add_product(x->mid(i), w->mid(k));
        rads[oi].add(x->hi[i], x->rad[i], w->hi[k], w->rad[k]);
      });
      for (size_t o = 0; o < sums.size(); ++o) {
        if (b) {
          sums[o].add(b->mid(static_cast<size_t>(m)));
          rads[o].add(b->rad[static_cast<size_t>(m)]);
        }
        set_sum(y, static_cast<size_t>((bn * g.M + m) * out_plane) + o, sums[o], rads[o].bound());
      }
    }
  return std::vector<Bounds>{output(c, g.y_shape, std::move(y))};
}

Result gemm(const OpCall& c) {
  if (c.ctx.attr_float("alpha", 1.0f) != 1.0f || c.ctx.attr_float("beta", 1.0f) != 1.0f) return std::nullopt;
  CenteredPtr a = centered_input(c, 0), b = centered_input(c, 1);
  CenteredPtr cc = c.in.size() > 2 && c.in[2] ? centered_input(c, 2) : nullptr;
  if (!a || !b || (c.in.size() > 2 && c.in[2] && !cc)) return std::nullopt;
  bool ta = c.ctx.attr_int("transA", 0) != 0, tb = c.ctx.attr_int("transB", 0) != 0;
  const Shape &as = c.input(0).lo.shape(), &bs = c.input(1).lo.shape();
  if (as.size() != 2 || bs.size() != 2) throw Trap(c.node.label() + ": A and B must be 2-D");
  int64_t M = ta ? as[1] : as[0], K = ta ? as[0] : as[1], N = tb ? bs[0] : bs[1];
  if ((tb ? bs[1] : bs[0]) != K) throw Trap(c.node.label() + ": inner dimensions differ");
  std::vector<int64_t> ic;
  if (cc) ic = support::broadcast_index_map(c.input(2).lo.shape(), {M, N});
  Centered y(static_cast<size_t>(M * N));
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      DDSum s;
      RadiusSum r;
      for (int64_t k = 0; k < K; ++k) {
        size_t ai = static_cast<size_t>(ta ? k * M + i : i * K + k), bi = static_cast<size_t>(tb ? j * K + k : k * N + j);
        s.add_product(a->mid(ai), b->mid(bi));
        r.add(a->hi[ai], a->rad[ai], b->hi[bi], b->rad[bi]);
      }
      size_t o = static_cast<size_t>(i * N + j);
      if (cc) {
        s.add(cc->mid(static_cast<size_t>(ic[o])));
        r.add(cc->rad[static_cast<size_t>(ic[o])]);
      }
      set_sum(y, o, s, r.bound());
    }
  return std::vector<Bounds>{output(c, {M, N}, std::move(y))};
}

// ---- BatchNormalization (inference): y = x·S + T per channel ----

// The values of point bounds (a weight), or nullopt.
std::optional<std::vector<double>> point_values(const Bounds& b) {
  std::vector<double> v(static_cast<size_t>(b.lo.size()));
  for (size_t i = 0; i < v.size(); ++i) {
    Interval e = at(b, static_cast<int64_t>(i));
    if (!(e.lo == e.hi) || !std::isfinite(e.lo)) return std::nullopt;
    v[i] = e.lo;
  }
  return v;
}

// An MPFR value within `err` of a real as a centered double-double: the rounding to hi + lo adds
// u·|lo| + η.
std::pair<DD, double> to_centered(const mpfr_t v, double err) {
  mpfr_t rest;
  mpfr_init2(rest, mpfr_get_prec(v));
  double hi = mpfr_get_d(v, MPFR_RNDN);
  mpfr_sub_d(rest, v, hi, MPFR_RNDN);  // exact: v and hi agree in their leading bits
  double lo = mpfr_get_d(rest, MPFR_RNDN);
  mpfr_clear(rest);
  DD m;
  two_sum(hi, lo, m.hi, m.lo);
  return {m, up(up(err + up(kU * std::fabs(lo))) + kEta)};
}

Result batch_normalization(const OpCall& c) {
  if (c.ctx.attr_int("training_mode", 0) != 0 || (c.node.outputs.size() > 1 && !c.node.outputs[1].empty())) return std::nullopt;
  CenteredPtr x = centered_input(c, 0);
  const Shape& xs = c.input(0).lo.shape();
  if (!x || xs.size() < 2) return std::nullopt;
  int64_t C = xs[1], plane = c.input(0).lo.size() / std::max<int64_t>(1, xs[0] * C);
  std::vector<std::vector<double>> p;  // scale, B, mean, var
  for (size_t k = 1; k <= 4; ++k) {
    auto v = point_values(float_input(c, k));
    if (!v || static_cast<int64_t>(v->size()) != C) return std::nullopt;
    p.push_back(std::move(*v));
  }
  // S = scale / sqrt(var + eps) and T = B − mean·S with 256-bit operations, each correctly rounded
  // (relative error ≤ 2^-256): |S − S̃| ≤ 2^-250·|S̃| and |T − T̃| ≤ 2^-250·(|T̃| + |mean·S̃|).
  double eps = c.ctx.attr_float("epsilon", 1e-5f);
  std::vector<DD> scale(static_cast<size_t>(C)), shift(scale.size());
  std::vector<double> scale_r(scale.size()), shift_r(scale.size());
  mpfr_t s, t, ms;
  mpfr_inits2(256, s, t, ms, static_cast<mpfr_ptr>(nullptr));
  bool ok = true;
  for (size_t ch = 0; ch < scale.size() && ok; ++ch) {
    mpfr_set_d(s, p[3][ch], MPFR_RNDN);
    mpfr_add_d(s, s, eps, MPFR_RNDN);
    ok = mpfr_sgn(s) > 0;
    mpfr_sqrt(s, s, MPFR_RNDN);
    mpfr_d_div(s, p[0][ch], s, MPFR_RNDN);
    mpfr_mul_d(ms, s, p[2][ch], MPFR_RNDN);
    mpfr_d_sub(t, p[1][ch], ms, MPFR_RNDN);
    double s_err = up(0x1p-250 * up(std::fabs(mpfr_get_d(s, MPFR_RNDA))));
    double t_err = up(0x1p-250 * up(std::fabs(mpfr_get_d(t, MPFR_RNDA)) + std::fabs(mpfr_get_d(ms, MPFR_RNDA))));
    std::tie(scale[ch], scale_r[ch]) = to_centered(s, s_err);
    std::tie(shift[ch], shift_r[ch]) = to_centered(t, t_err);
    ok = ok && std::isfinite(scale[ch].hi) && std::isfinite(shift[ch].hi) && std::isfinite(scale_r[ch]) && std::isfinite(shift_r[ch]);
  }
  mpfr_clears(s, t, ms, static_cast<mpfr_ptr>(nullptr));
  if (!ok) return std::nullopt;
  Centered y(x->size());
  for (size_t i = 0; i < y.size(); ++i) {
    size_t ch = static_cast<size_t>((static_cast<int64_t>(i) / plane) % C);
    DDSum sum;
    sum.add_product(x->mid(i), scale[ch]);
    sum.add(shift[ch]);
    RadiusSum r;
    r.add(x->hi[i], x->rad[i], scale[ch].hi, scale_r[ch]);
    r.add(shift_r[ch]);
    set_sum(y, i, sum, r.bound());
  }
  return std::vector<Bounds>{output(c, xs, std::move(y))};
}

// ---- MaxPool, GlobalAveragePool ----

// The maximum of a window: the midpoint of its element with the largest midpoint (any element
// would do: the maximum is at least each element's lower bound), the radius reaching every other
// element's upper bound.
Result max_pool(const OpCall& c) {
  if (c.node.outputs.size() > 1 && !c.node.outputs[1].empty()) return std::nullopt;
  CenteredPtr x = centered_input(c, 0);
  if (!x) return std::nullopt;
  support::PoolSetup s = support::pool_setup(c.ctx, c.input(0).lo.shape());
  support::require_windows_meet_input(c.ctx, s.g);
  Centered y(static_cast<size_t>(s.N * s.C * s.out_plane));
  support::pool_loop(s, [&](int64_t p, int64_t o, const std::vector<int64_t>&, const std::vector<support::Tap>& taps) {
    auto elem = [&](const support::Tap& t) { return static_cast<size_t>(p * s.in_plane + t.in_off); };
    size_t best = elem(taps[0]);
    for (const support::Tap& t : taps) {
      size_t j = elem(t);
      if (x->hi[j] > x->hi[best] || (x->hi[j] == x->hi[best] && x->lo[j] > x->lo[best])) best = j;
    }
    double r = x->rad[best];
    for (const support::Tap& t : taps) {
      size_t j = elem(t);
      if (j == best) continue;
      double above = x->hi[j] == x->hi[best] && x->lo[j] == x->lo[best] ? 0 : up(up(x->hi[j] - x->hi[best]) + up(x->lo[j] - x->lo[best]));
      r = std::max(r, add_up(std::max(above, 0.0), x->rad[j]));  // mid_j + rad_j − mid_best
    }
    y.set(static_cast<size_t>(p * s.out_plane + o), x->mid(best), r);
  });
  return std::vector<Bounds>{output(c, s.out_shape, std::move(y))};
}

// q = m / n for a double-double m and an integer n ≥ 1: q.hi = fl(m.hi / n), whose remainder
// m.hi − q.hi·n is exact (the FMA, away from the subnormal range); ql = fl(fl(rem + m.lo) / n) errs
// by at most 2.01u·|ql| + 2η, and by nothing where both roundings were exact.
std::pair<DD, double> divide(DD m, double n) {
  double qh = m.hi / n, rem = std::fma(-qh, n, m.hi), r1, r1_err;
  two_sum(rem, m.lo, r1, r1_err);
  double ql = r1 / n;
  DD q;
  two_sum(qh, ql, q.hi, q.lo);
  bool normal = (qh == 0 || std::fabs(qh) >= 0x1p-960) && (ql == 0 || std::fabs(ql) >= 0x1p-960);
  if (normal && r1_err == 0 && std::fma(-ql, n, r1) == 0) return {q, 0};
  return {q, up(up(2.01 * kU * std::fabs(ql)) + 2 * kEta)};
}

Result global_average_pool(const OpCall& c) {
  CenteredPtr x = centered_input(c, 0);
  const Shape& xs = c.input(0).lo.shape();
  if (!x) return std::nullopt;
  if (xs.size() < 3) throw Trap(c.node.label() + ": X must have rank at least 3");
  size_t plane = 1;
  Shape ys = {xs[0], xs[1]};
  for (size_t i = 2; i < xs.size(); ++i) {
    plane *= static_cast<size_t>(xs[i]);
    ys.push_back(1);
  }
  Centered y(static_cast<size_t>(xs[0] * xs[1]));
  double n = static_cast<double>(plane);
  for (size_t p = 0; p < y.size(); ++p) {
    DDSum sum;
    RadiusSum r;
    for (size_t i = p * plane; i < (p + 1) * plane; ++i) {
      sum.add(x->mid(i));
      r.add(x->rad[i]);
    }
    auto [total, err] = sum.result();
    auto [q, div_err] = divide(total, n);
    double spread = add_up(r.bound(), err);
    y.set(p, q, add_up(spread == 0 ? 0 : up(spread / n), div_err));
  }
  return std::vector<Bounds>{output(c, ys, std::move(y))};
}

const std::map<std::string, std::function<Result(const OpCall&)>>& table() {
  static const std::map<std::string, std::function<Result(const OpCall&)>> t = {
      {"Identity", movement}, {"Reshape", movement}, {"Flatten", movement}, {"Transpose", movement},
      {"Squeeze", movement}, {"Unsqueeze", movement}, {"Slice", movement}, {"Gather", movement},
      {"Expand", movement}, {"Split", movement}, {"Tile", movement}, {"Concat", movement},
      {"Relu", relu},
      {"Add", [](const OpCall& c) { return add(c, false); }},
      {"Sub", [](const OpCall& c) { return add(c, true); }},
      {"Conv", conv}, {"Gemm", gemm}, {"BatchNormalization", batch_normalization},
      {"MaxPool", max_pool}, {"GlobalAveragePool", global_average_pool}};
  return t;
}

}  // namespace centered_ops

std::optional<std::vector<Bounds>> centered_enclosure(const OpCall& c) {
  if (c.semantics != Semantics::Real) return std::nullopt;
  auto it = centered_ops::table().find(c.node.op_type);
  return it == centered_ops::table().end() ? std::nullopt : it->second(c);
}

}  // namespace sonnx::enclose
