// Enclosures of the operators built on sums of products (dot.h): Conv, MatMul, Gemm,
// GlobalAveragePool, and of BatchNormalization (inference) and Softmax.
#include <optional>

#include "elementary.h"
#include "enclose_sums.h"
#include "norm_body.h"
#include "sonnx/errors.h"
#include "reference/ops/params/batch_normalization.h"
#include "reference/ops/params/gemm.h"
#include "reference/ops/params/softmax.h"
#include "reference/ops/support/elementwise.h"
#include "reference/ops/support/window.h"

namespace sonnx::enclose {

namespace {

// ---- Conv ----

std::vector<Bounds> conv(const OpCall& c) {
  const Bounds &x = float_input(c, 0), &w = float_input(c, 1);
  const Bounds* b = c.in.size() > 2 ? c.in[2] : nullptr;
  ConvGeometry g = conv_geometry(c, x.lo.shape(), w.lo.shape());
  std::vector<MidRad> xm = mid_rad(x), wm = mid_rad(w);
  Bounds y = float_bounds(x.type, g.y_shape);
  int64_t out_plane = g.out_plane();
  std::vector<double> acc_c(static_cast<size_t>(out_plane)), acc_a(acc_c.size()), acc_b(acc_c.size());
  double terms = static_cast<double>(g.Cg() * g.taps() + 9);
  TypeSum ts = type_sum(c, x.type);
  for (int64_t bn = 0; bn < g.N; ++bn)
    for (int64_t m = 0; m < g.M; ++m) {
      std::fill(acc_c.begin(), acc_c.end(), 0.0);
      std::fill(acc_a.begin(), acc_a.end(), 0.0);
      std::fill(acc_b.begin(), acc_b.end(), 0.0);
      auto weight = [&](int64_t w_off) { return wm[static_cast<size_t>(w_off)]; };
      g.for_each_term(bn, m, weight, [&](int64_t x_off, MidRad wv, int64_t o) {
        MidRad xv = xm[static_cast<size_t>(x_off)];
        size_t i = static_cast<size_t>(o);
        acc_c[i] += xv.m * wv.m;
        acc_a[i] += std::fabs(xv.m) * wv.r + xv.r * (std::fabs(wv.m) + wv.r);
        acc_b[i] += std::fabs(xv.m * wv.m);
      });
      MidRad bias = b ? MidRad::of(at(*b, m)) : MidRad{};  // one more term of the sum
      for (int64_t o = 0; o < out_plane; ++o) {
        size_t i = static_cast<size_t>(o);
        set(y, (bn * g.M + m) * out_plane + o,
            DotBound::from_sums(acc_c[i] + bias.m, acc_a[i] + bias.r, acc_b[i] + std::fabs(bias.m), terms, ts));
      }
    }
  return {y};
}

// ---- MatMul and Gemm ----

// The sums Σ_k A[i, k]·B[k, j] for row-major A (M×K) and B (K×N) at the given offsets, row by row.
void product(const std::vector<MidRad>& a, int64_t a0, const std::vector<MidRad>& b, int64_t b0, int64_t M, int64_t K, int64_t N,
             bool ta, bool tb, std::vector<DotBound>& y) {
  y.assign(static_cast<size_t>(M * N), DotBound{});
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      DotBound& dot = y[static_cast<size_t>(i * N + j)];
      for (int64_t kk = 0; kk < K; ++kk)
        dot.add(a[static_cast<size_t>(a0 + (ta ? kk * M + i : i * K + kk))],
                b[static_cast<size_t>(b0 + (tb ? j * K + kk : kk * N + j))]);
    }
}

std::vector<Bounds> matmul(const OpCall& c) {
  const Bounds &a = float_input(c, 0), &b = float_input(c, 1);
  MatMulGeometry g = matmul_geometry(c, a.lo.shape(), b.lo.shape());
  int64_t M = g.M, K = g.K, N = g.N;
  Bounds y = float_bounds(a.type, g.y_shape);
  std::vector<MidRad> am = mid_rad(a), bm = mid_rad(b);
  std::vector<DotBound> block;
  TypeSum ts = type_sum(c, a.type);
  for (size_t p = 0; p < g.a_batch.size(); ++p) {
    product(am, g.a_batch[p] * M * K, bm, g.b_batch[p] * K * N, M, K, N, false, false, block);
    for (int64_t i = 0; i < M * N; ++i) set(y, static_cast<int64_t>(p) * M * N + i, block[static_cast<size_t>(i)].result(1, ts));
  }
  return {y};
}

std::vector<Bounds> gemm(const OpCall& c) {
  const Bounds &a = float_input(c, 0), &b = float_input(c, 1);
  const Bounds* cc = c.in.size() > 2 ? c.in[2] : nullptr;
  GemmParams p = GemmParams::read(c.ctx, c.version);
  GemmParams::Dims d;
  if (std::string why = p.dims(a.lo.shape(), b.lo.shape(), d); !why.empty()) c.ctx.fail(why);
  int64_t M = d.M, K = d.K, N = d.N;
  double alpha = p.alpha, beta = p.beta;
  std::vector<DotBound> block;
  product(mid_rad(a), 0, mid_rad(b), 0, M, K, N, p.trans_a, p.trans_b, block);
  Bounds y = float_bounds(a.type, {M, N});
  std::vector<int64_t> ic;
  if (cc) ic = support::broadcast_index_map(cc->lo.shape(), {M, N});
  TypeSum ts = type_sum(c, a.type);
  for (int64_t i = 0; i < M * N; ++i) {
    MidRad bc = cc ? MidRad::of(Interval::point(beta) * at(*cc, ic[static_cast<size_t>(i)])) : MidRad{};
    set(y, i, block[static_cast<size_t>(i)].affine(alpha, bc, ts));
  }
  return {y};
}

// ---- averages, normalization, softmax ----

std::vector<Bounds> global_average_pool(const OpCall& c) {
  const Bounds& x = float_input(c, 0);
  const Shape& xs = x.lo.shape();
  if (xs.size() < 3) throw Trap(c.node.label() + ": X must have rank at least 3");
  int64_t plane = 1;
  Shape ys = {xs[0], xs[1]};
  for (size_t i = 2; i < xs.size(); ++i) {
    plane *= xs[i];
    ys.push_back(1);
  }
  Bounds y = float_bounds(x.type, ys);
  TypeSum ts = type_sum(c, x.type);
  for (int64_t p = 0; p < xs[0] * xs[1]; ++p) {
    DotBound dot;
    for (int64_t i = 0; i < plane; ++i) dot.add(MidRad::of(at(x, p * plane + i)), MidRad{1, 0});
    set(y, p, dot.result(static_cast<double>(plane), ts));
  }
  return {y};
}

std::vector<Bounds> batch_normalization(const OpCall& c) {
  const Node& n = c.node;
  BatchNormParams p = BatchNormParams::read(c.ctx, c.version);
  if (p.training_mode && c.version >= 14) return norms_detail::enclose_batch_norm_training(c);
  if (p.training_mode || (n.outputs.size() > 1 && !n.outputs[1].empty()))
    throw Unsupported("no enclosure for BatchNormalization-" + std::to_string(c.version) + " in training mode");
  if (!p.spatial) throw Unsupported("no enclosure for BatchNormalization-" + std::to_string(c.version) + " with spatial=0");
  const Bounds& x = float_input(c, 0);
  const Shape& xs = x.lo.shape();
  if (xs.size() < 2) throw Trap(n.label() + ": X must have rank at least 2");
  int64_t C = xs[1], plane = x.lo.size() / std::max<int64_t>(1, xs[0] * C);
  Interval eps = Interval::point(p.epsilon);
  std::vector<Interval> scale(static_cast<size_t>(C)), shift(static_cast<size_t>(C)), mean(static_cast<size_t>(C));
  for (size_t k = 1; k <= 4; ++k)
    if (float_input(c, k).lo.size() != C) throw Trap(n.label() + ": input " + std::to_string(k) + " must have C elements");
  for (int64_t ch = 0; ch < C; ++ch) {
    size_t i = static_cast<size_t>(ch);
    scale[i] = at(c.input(1), ch) / sqrt(at(c.input(4), ch) + eps);
    shift[i] = at(c.input(2), ch);
    mean[i] = at(c.input(3), ch);
  }
  Bounds y = float_bounds(x.type, xs);
  // Admissible: (x − mean)·scale + B in any arrangement (scale folded in or not) errs by at most
  // γ_8·(|x|·|scale| + |mean|·|scale| + |B|) in the element type, plus underflows.
  double g = 0, tiny = 0;
  if (c.semantics == Semantics::Admissible) {
    FloatFormat f = float_format(x.type);
    g = gamma(8, f.unit_roundoff());
    tiny = 8 * f.smallest_subnormal();
  }
  for (int64_t i = 0; i < x.lo.size(); ++i) {
    size_t ch = static_cast<size_t>((i / plane) % C);
    Interval v = (at(x, i) - mean[ch]) * scale[ch] + shift[ch];
    if (g > 0) {
      double s = magnitude(scale[ch]),
             err = up(up(g * up(up(magnitude(at(x, i)) * s) + up(magnitude(mean[ch]) * s) + magnitude(shift[ch]))) + tiny);
      v = {down(v.lo - err), up(v.hi + err)};
    }
    set(y, i, v);
  }
  return {y};
}

}  // namespace

// y_i = 1 / Σ_j e^(x_j − x_i): each term's interval is tight (the j = i term is exactly 1), where
// e^x_i / Σ e^x_j would count x_i's uncertainty twice.
//
// Admissible: e^(x_i − m) / Σ_j e^(x_j − m) for any shift m (or none, or in the log domain), each
// exponential within kElementaryUlps, the sum in any order: relative error at most
// ρ = 2·u·(spread + log2 n + 1) + 4·k·u + γ_(n+2), where spread bounds |x_j − m| over the line (the
// shift's rounding, amplified by exp), plus (n + 2) underflows of the type. An element of −∞ (a
// mask) adds e^−∞ = 0 exactly in any arrangement: it takes no part in the spread, and an element
// that is exactly 0 stays 0.
void softmax_line(const Bounds& x, Bounds& y, int64_t base, int64_t count, int64_t stride, const FloatFormat* type) {
  // An undefined element (no real value) leaves every share of its line without one.
  for (int64_t j = 0; j < count; ++j)
    if (at(x, base + j * stride).has_nan()) {
      for (int64_t i = 0; i < count; ++i) set(y, base + i * stride, Interval::undefined());
      return;
    }
  double rho = 0, tiny = 0;
  if (type) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (int64_t j = 0; j < count; ++j) {
      Interval xj = at(x, base + j * stride);
      if (xj.hi == -std::numeric_limits<double>::infinity()) continue;
      lo = std::min(lo, xj.lo);
      hi = std::max(hi, xj.hi);
    }
    double u = type->unit_roundoff(), n = static_cast<double>(count);
    double spread = hi >= lo ? up(hi - lo) : 0;  // none where every element is masked
    rho = up(up(up(2 * u) * up(spread + std::log2(n) + 1)) + up(4 * kElementaryUlps * u) + gamma(n + 2, u));
    tiny = up((n + 2) * type->smallest_subnormal());
  }
  constexpr double minus_inf = -std::numeric_limits<double>::infinity();
  bool some_real = false;  // an element surely above −∞: a masked one's share is then exactly 0
  for (int64_t j = 0; j < count; ++j) some_real = some_real || at(x, base + j * stride).lo > minus_inf;
  for (int64_t i = 0; i < count; ++i) {
    Interval xi = at(x, base + i * stride), sum = Interval::point(1);
    if (xi.hi == minus_inf) {  // e^−∞ over a sum with a positive term (0 / 0 where all are masked)
      set(y, base + i * stride, some_real ? Interval::point(0) : Interval::undefined());
      continue;
    }
    for (int64_t j = 0; j < count; ++j)
      if (j != i) sum = sum + exp(at(x, base + j * stride) - xi);
    Interval v = Interval::point(1) / sum;
    if (type && v.hi != 0) v = {std::max(0.0, down(down(v.lo - up(v.lo * rho)) - tiny)), up(up(v.hi + up(v.hi * rho)) + tiny)};
    set(y, base + i * stride, v);
  }
}

namespace {

std::vector<Bounds> softmax(const OpCall& c) {
  const Bounds& x = float_input(c, 0);
  const Shape& xs = x.lo.shape();
  int64_t r = static_cast<int64_t>(xs.size());
  SoftmaxParams p = SoftmaxParams::read(c.ctx, c.version);
  int64_t axis = support::normalize_axis(c.ctx, p.axis, r);
  Bounds y = float_bounds(x.type, xs);
  std::optional<FloatFormat> type;
  if (c.semantics == Semantics::Admissible) type = float_format(x.type);
  const FloatFormat* tp = type ? &*type : nullptr;
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= xs[static_cast<size_t>(i)];
  if (!p.coerced_2d) {  // along one axis
    int64_t count = xs[static_cast<size_t>(axis)];
    for (int64_t i = axis + 1; i < r; ++i) inner *= xs[static_cast<size_t>(i)];
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t in = 0; in < inner; ++in) softmax_line(x, y, o * count * inner + in, count, inner, tp);
  } else {  // over the input coerced to 2-D at axis
    int64_t count = x.lo.size() / std::max<int64_t>(outer, 1);
    for (int64_t o = 0; o < outer; ++o) softmax_line(x, y, o * count, count, 1, tp);
  }
  return {y};
}

}  // namespace

MatMulGeometry matmul_geometry(const OpCall& c, Shape as, Shape bs) {
  if (as.empty() || bs.empty()) throw Trap(c.node.label() + ": MatMul of a scalar");
  bool a_vec = as.size() == 1, b_vec = bs.size() == 1;
  if (a_vec) as.insert(as.begin(), 1);
  if (b_vec) bs.push_back(1);
  MatMulGeometry g;
  g.M = as[as.size() - 2], g.K = as.back(), g.N = bs.back();
  if (bs[bs.size() - 2] != g.K)
    throw Trap(c.node.label() + ": inner dimensions " + shape_str(as) + " and " + shape_str(bs) + " differ");
  Shape a_batch(as.begin(), as.end() - 2), b_batch(bs.begin(), bs.end() - 2);
  g.y_shape = support::broadcast_shapes(c.ctx, a_batch, b_batch);
  g.a_batch = support::broadcast_index_map(a_batch, g.y_shape);
  g.b_batch = support::broadcast_index_map(b_batch, g.y_shape);
  if (!a_vec) g.y_shape.push_back(g.M);
  if (!b_vec) g.y_shape.push_back(g.N);
  return g;
}

ConvGeometry conv_geometry(const OpCall& c, const Shape& xs, const Shape& ws) {
  size_t rank = xs.size() < 3 ? 0 : xs.size() - 2;
  if (rank < 1 || rank > 3 || ws.size() != xs.size())
    throw Unsupported("no enclosure for Conv-" + std::to_string(c.version) + " on X " + shape_str(xs) + " and W " +
                      shape_str(ws));
  // The reference's own reading of the attributes and geometry (traps where the kernel traps).
  support::ConvSetup s = support::conv_setup(c.ctx, xs, ws);
  ConvGeometry g;
  g.N = s.N, g.C = s.C, g.M = s.M, g.group = s.group;
  g.y_shape = s.out_shape;
  for (size_t i = 0; i < rank; ++i) {
    size_t j = 3 - rank + i;
    g.in[j] = s.g.in[i];
    g.k[j] = s.g.kernel[i];
    g.s[j] = s.g.strides[i];
    g.d[j] = s.g.dilations[i];
    g.pb[j] = s.g.pad_begin[i];
    g.out[j] = s.g.out[i];
  }
  return g;
}

SONNX_ENCLOSURE("Conv", (1, 11, 22), Allowance::own(), conv);
SONNX_ENCLOSURE("MatMul", (1, 9, 13), Allowance::own(), matmul);
SONNX_ENCLOSURE("Gemm", (7, 9, 11, 13), Allowance::own(), gemm);
SONNX_ENCLOSURE("GlobalAveragePool", (1, 22), Allowance::own(), global_average_pool);
SONNX_ENCLOSURE("BatchNormalization", (9, 14, 15), Allowance::own(), batch_normalization);
SONNX_ENCLOSURE("Softmax", (1, 11, 13), Allowance::own(), softmax);

}  // namespace sonnx::enclose
