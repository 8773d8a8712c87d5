// Centered enclosures (centered_ops.h) of the sums of products and the pools: Conv, Gemm, MatMul,
// BatchNormalization (inference), MaxPool and GlobalAveragePool.
#include "centered_ops.h"
#include "enclose_sums.h"
#include "sonnx/errors.h"
#include "reference/ops/params/batch_normalization.h"
#include "reference/ops/params/gemm.h"
#include "reference/ops/support/elementwise.h"
#include "reference/ops/support/window.h"

namespace sonnx::enclose::centered_ops {

// ---- Conv, Gemm, MatMul ----

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
      auto weight = [&](int64_t w_off) {
        return std::pair<DD, double>{w->mid(static_cast<size_t>(w_off)), w->rad[static_cast<size_t>(w_off)]};
      };
      g.for_each_term(bn, m, weight, [&](int64_t x_off, std::pair<DD, double> wv, int64_t o) {
        size_t i = static_cast<size_t>(x_off), oi = static_cast<size_t>(o);
        sums[oi].add_product(x->mid(i), wv.first);
        rads[oi].add(x->hi[i], x->rad[i], wv.first.hi, wv.second);
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

namespace {

// y[y0 + i·N + j] = Σ_k A[i, k]·B[k, j] (+ C[ic[i·N + j]]) for row-major A (M×K, or K×M with ta)
// and B (K×N, or N×K with tb) at offsets a0 and b0.
void product(const Centered& a, int64_t a0, const Centered& b, int64_t b0, int64_t M, int64_t K, int64_t N, bool ta, bool tb,
             const Centered* c, const std::vector<int64_t>& ic, Centered& y, int64_t y0) {
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      DDSum s;
      RadiusSum r;
      for (int64_t k = 0; k < K; ++k) {
        size_t ai = static_cast<size_t>(a0 + (ta ? k * M + i : i * K + k)),
               bi = static_cast<size_t>(b0 + (tb ? j * K + k : k * N + j));
        s.add_product(a.mid(ai), b.mid(bi));
        r.add(a.hi[ai], a.rad[ai], b.hi[bi], b.rad[bi]);
      }
      size_t o = static_cast<size_t>(i * N + j);
      if (c) {
        s.add(c->mid(static_cast<size_t>(ic[o])));
        r.add(c->rad[static_cast<size_t>(ic[o])]);
      }
      set_sum(y, static_cast<size_t>(y0) + o, s, r.bound());
    }
}

}  // namespace

Result gemm(const OpCall& c) {
  GemmParams p = GemmParams::read(c.ctx, c.version);
  if (p.alpha != 1.0f || p.beta != 1.0f) return std::nullopt;
  CenteredPtr a = centered_input(c, 0), b = centered_input(c, 1);
  CenteredPtr cc = c.in.size() > 2 && c.in[2] ? centered_input(c, 2) : nullptr;
  if (!a || !b || (c.in.size() > 2 && c.in[2] && !cc)) return std::nullopt;
  GemmParams::Dims d;
  if (std::string why = p.dims(c.input(0).lo.shape(), c.input(1).lo.shape(), d); !why.empty()) c.ctx.fail(why);
  int64_t M = d.M, K = d.K, N = d.N;
  std::vector<int64_t> ic;
  if (cc) ic = support::broadcast_index_map(c.input(2).lo.shape(), {M, N});
  Centered y(static_cast<size_t>(M * N));
  product(*a, 0, *b, 0, M, K, N, p.trans_a, p.trans_b, cc.get(), ic, y, 0);
  return std::vector<Bounds>{output(c, {M, N}, std::move(y))};
}

Result matmul(const OpCall& c) {
  CenteredPtr a = centered_input(c, 0), b = centered_input(c, 1);
  if (!a || !b) return std::nullopt;
  MatMulGeometry g = matmul_geometry(c, c.input(0).lo.shape(), c.input(1).lo.shape());
  Centered y(g.a_batch.size() * static_cast<size_t>(g.M * g.N));
  for (size_t p = 0; p < g.a_batch.size(); ++p)
    product(*a, g.a_batch[p] * g.M * g.K, *b, g.b_batch[p] * g.K * g.N, g.M, g.K, g.N, false, false, nullptr, {}, y,
            static_cast<int64_t>(p) * g.M * g.N);
  return std::vector<Bounds>{output(c, g.y_shape, std::move(y))};
}

// ---- BatchNormalization (inference): y = x·S + T per channel ----

namespace {

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

}  // namespace

Result batch_normalization(const OpCall& c) {
  BatchNormParams params = BatchNormParams::read(c.ctx, c.version);
  if (params.training_mode || !params.spatial || (c.node.outputs.size() > 1 && !c.node.outputs[1].empty())) return std::nullopt;
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
  double eps = params.epsilon;
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
    ok = ok && std::isfinite(scale[ch].hi) && std::isfinite(shift[ch].hi) && std::isfinite(scale_r[ch]) &&
         std::isfinite(shift_r[ch]);
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
  support::PoolSetup s = support::pool_setup(c.ctx, PoolParams::read(c.ctx, c.version), c.input(0).lo.shape());
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
      double above = x->hi[j] == x->hi[best] && x->lo[j] == x->lo[best]
                         ? 0
                         : up(up(x->hi[j] - x->hi[best]) + up(x->lo[j] - x->lo[best]));
      r = std::max(r, add_up(std::max(above, 0.0), x->rad[j]));  // mid_j + rad_j − mid_best
    }
    y.set(static_cast<size_t>(p * s.out_plane + o), x->mid(best), r);
  });
  return std::vector<Bounds>{output(c, s.out_shape, std::move(y))};
}

namespace {

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

}  // namespace

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

}  // namespace sonnx::enclose::centered_ops
