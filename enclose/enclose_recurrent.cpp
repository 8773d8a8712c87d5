// Enclosures of the recurrent operators RNN (versions 1, 7, 14, 22), GRU and LSTM (versions 7, 14,
// 22): the reference kernels' recurrence (reference/ops/RNN.cpp, GRU.cpp, LSTM.cpp) run on
// intervals. The inputs are read by the reference's own reader (support/rnn.h) once on the lower
// and once on the upper bounds, so layouts, directions, sequence_lens, initial states, activations
// and clip are parsed and checked exactly as the reference does. Each gate's pre-activation is one
// sum of products (dot.h), the activations are MPFR-rounded (elementary.h), the rest is interval
// arithmetic.
//
// Admissible semantics (spec/accuracy.md): an implementation in the element type may sum each
// pre-activation in any order, compute each activation within kElementaryUlps of its exact value,
// round every product and sum, and store each gate and state in the type (or keep more precision:
// its values then lie closer to the exact ones, inside the same intervals). So every intermediate
// interval here contains the exact value on the implementation's inputs and is then widened by
// what the type's roundings may add and rounded outward to the type (Arith); by induction over the
// steps, each state an implementation may hold lies in its interval.
#include <algorithm>
#include <optional>
#include <string>

#include "elementary.h"
#include "enclose_sums.h"
#include "sonnx/errors.h"
#include "reference/ops/params/recurrent.h"
#include "reference/ops/support/rnn.h"

namespace sonnx::enclose {

namespace {

using support::RnnActivation;
using support::RnnProblem;

const Interval kIntervalOne = Interval::point(1);

// The arithmetic of one step: exact (real semantics) or as an implementation in the element type
// may carry it out (admissible: `type` set).
struct Arith {
  std::optional<FloatFormat> type;
  TypeSum in_type;

  // A value the implementation may hold: the interval rounded outward to the type.
  Interval store(Interval v) const { return type ? type->round_out(v) : v; }
  // An elementary function's result, within kElementaryUlps of the exact value v.
  Interval elementary(Interval v) const { return type ? widen_ulps(v, kElementaryUlps, *type) : v; }
  // v computed with at most n roundings in any arrangement on terms of total magnitude at most m
  // (rounded up): off by at most γ_n·m (Higham §3.1) and n underflows, then stored.
  Interval rounded(Interval v, int n, double m) const {
    if (!type) return v;
    double e = up(up(gamma(n, type->unit_roundoff()) * m) + n * type->smallest_subnormal());
    return store({down(v.lo - e), up(v.hi + e)});
  }
  // A sum of products in any order (dot.h), stored.
  Interval sum(const DotBound& d) const { return store(d.result(1, in_type)); }
};

// The inputs as intervals, time-major (layout 0) as the reference's reader arranges them.
struct Recurrence {
  RnnProblem<double> p;  // sizes, directions, sequence_lens, activations and clip (of the lower bounds)
  std::vector<MidRad> X, W, R, B;
  std::vector<Interval> H0, C0, P;  // P: zeros where the node has none
  bool has_peephole = false;
  DType type = DType::Undefined;
};

std::vector<Interval> zip(const std::vector<double>& lo, const std::vector<double>& hi) {
  std::vector<Interval> v(lo.size());
  for (size_t i = 0; i < v.size(); ++i) v[i] = {lo[i], hi[i]};
  return v;
}

std::vector<MidRad> mid_rad(const std::vector<Interval>& v) {
  std::vector<MidRad> m(v.size());
  for (size_t i = 0; i < v.size(); ++i) m[i] = MidRad::of(v[i]);
  return m;
}

// The float inputs (X, W, R, B, initial_h, initial_c, P) must share X's element type (the reader sees
// only float64 bounds); the reader checks the rest. `peephole`: P's input index (LSTM), or 0.
Recurrence read(const OpCall& c, int64_t gates, int initial_c, size_t peephole) {
  Recurrence r;
  r.type = float_input(c, 0).type;
  for (size_t k : {1, 2, 3, 5, 6, 7})
    if (k < c.in.size() && c.in[k] && float_input(c, k).type != r.type)
      throw Trap(c.node.label() + ": input " + std::to_string(k) + " must have the element type of X");
  auto problem = [&](bool upper) {
    std::vector<Value> values(c.in.size());
    std::vector<const Value*> ptrs(c.in.size(), nullptr);
    for (size_t k = 0; k < c.in.size(); ++k)
      if (c.in[k]) {
        values[k] = Value(upper ? c.in[k]->hi : c.in[k]->lo);
        ptrs[k] = &values[k];
      }
    OpContext ctx(c.node, c.version, ptrs, nullptr, nullptr);
    return support::read_rnn_inputs<double, double>(ctx, gates, initial_c);
  };
  RnnProblem<double> hi = problem(true);
  r.p = problem(false);
  r.X = mid_rad(zip(r.p.X, hi.X));
  r.W = mid_rad(zip(r.p.W, hi.W));
  r.R = mid_rad(zip(r.p.R, hi.R));
  r.B = mid_rad(zip(r.p.B, hi.B));
  r.H0 = zip(r.p.H0, hi.H0);
  r.C0 = zip(r.p.C0, hi.C0);
  const int64_t n = r.p.num_directions * 3 * r.p.hidden;
  r.P.assign(static_cast<size_t>(peephole ? n : 0), Interval::point(0));
  if (peephole && peephole < c.in.size() && c.in[peephole]) {
    const Bounds& pb = c.input(peephole);
    if (pb.lo.shape() != Shape{r.p.num_directions, 3 * r.p.hidden})
      throw Trap(c.node.label() + ": P has shape " + shape_str(pb.lo.shape()) + ", expected " +
                 shape_str({r.p.num_directions, 3 * r.p.hidden}));
    for (int64_t i = 0; i < n; ++i) r.P[static_cast<size_t>(i)] = at(pb, i);
    r.has_peephole = true;
  }
  return r;
}

Interval positive_part(Interval x) { return {std::max(x.lo, 0.0), std::max(x.hi, 0.0)}; }
Interval negative_part(Interval x) { return {std::min(x.lo, 0.0), std::min(x.hi, 0.0)}; }
Interval clamp(Interval x, double lo, double hi) { return {std::clamp(x.lo, lo, hi), std::clamp(x.hi, lo, hi)}; }

// The activation on x (the value an implementation holds), as the reference defines it
// (support/rnn.h, alpha and beta as the float attributes give them).
Interval activate(const RnnActivation& act, Interval x, const Arith& a, const std::string& op) {
  if (x.has_nan()) return Interval::undefined();
  const Interval alpha = Interval::point(act.alpha), beta = Interval::point(act.beta);
  // α·x + β in at most two roundings (or one fused).
  auto affine = [&] { return a.rounded(alpha * x + beta, 2, up(magnitude(alpha * x) + std::fabs(act.beta))); };
  using K = RnnActivation::Kind;
  switch (act.kind) {
    case K::Relu: return positive_part(x);
    case K::Tanh: return a.elementary(tanh(x));
    case K::Sigmoid: return a.elementary(sigmoid(x));
    case K::Softplus: return a.elementary(softplus(x));
    // α·min(x, 0) + max(x, 0): one correctly rounded product where x < 0, x itself elsewhere.
    case K::LeakyRelu: return a.store(a.store(alpha * negative_part(x)) + positive_part(x));
    case K::ThresholdedRelu:  // x ≥ α ? x : 0 (exact): both where x straddles α
      if (x.lo >= act.alpha) return x;
      if (x.hi < act.alpha) return Interval::point(0);
      return hull(Interval::point(0), {act.alpha, x.hi});
    case K::Affine: return affine();
    case K::HardSigmoid: return clamp(affine(), 0, 1);  // the clamp is exact and 1-Lipschitz
    case K::ScaledTanh: return a.store(alpha * a.elementary(tanh(a.store(beta * x))));
    case K::Softsign: {  // x / (1 + |x|), increasing: its values at the ends; relative error ≤ γ_2
      auto at_end = [](double t) {
        if (std::isinf(t)) return Interval::point(t > 0 ? 1 : -1);
        return Interval::point(t) / (kIntervalOne + Interval::point(std::fabs(t)));
      };
      Interval y{at_end(x.lo).lo, at_end(x.hi).hi};
      return a.rounded(y, 2, magnitude(y));
    }
    case K::Elu: {  // α·(e^x − 1) for x < 0: by exp and a subtraction, or by an expm1 of the type
      Interval e = exp(negative_part(x)), em1 = e - kIntervalOne;
      if (a.type) em1 = hull(a.store(a.elementary(e) - kIntervalOne), a.elementary(em1));
      return a.store(a.store(alpha * em1) + positive_part(x));
    }
  }
  throw Unsupported("no enclosure for " + op + " with activation kind " + std::to_string(static_cast<int>(act.kind)));
}

// The activation on x clipped to [−clip, clip] when the node says so (exact).
Interval activate_clipped(const Recurrence& r, const RnnActivation& act, Interval x, const Arith& a, const std::string& op) {
  if (r.p.has_clip && !x.has_nan()) x = clamp(x, -r.p.clip, r.p.clip);
  return a.store(activate(act, x, a, op));
}

// 1 − f(x) for the gate activation f and f(x) = fx: under `real`, σ(−x) for the logistic function,
// free of the cancellation of 1 − σ(x) near 1 (a double σ(x) there holds 1 − σ(x) to few bits);
// otherwise 1 − fx, which an implementation computes from its stored fx.
Interval complement(const Recurrence& r, const RnnActivation& f, Interval x, Interval fx, const Arith& a) {
  if (a.type || f.kind != RnnActivation::Kind::Sigmoid || x.has_nan()) return kIntervalOne - fx;
  if (r.p.has_clip) x = clamp(x, -r.p.clip, r.p.clip);
  return sigmoid(-x);
}

// Adds Σ_k v_k·w_k over a row of a weight matrix.
void add_row(DotBound& d, const MidRad* w, const std::vector<MidRad>& v) {
  for (size_t k = 0; k < v.size(); ++k) d.add(v[k], w[k]);
}
void add_term(DotBound& d, Interval t) { d.add(MidRad::of(t), MidRad{1, 0}); }

// One direction's weights: W [gates·H][I], R [gates·H][H], the biases Wb and Rb [gates·H].
struct DirectionWeights {
  const MidRad *W, *R, *Wb, *Rb;
  int64_t I, H;
  // Row `row`'s X·W + H·R + Wb + Rb as one sum (the caller may add more terms, e.g. a peephole).
  DotBound pre_activation(int64_t row, const std::vector<MidRad>& x, const std::vector<MidRad>& h) const {
    DotBound s;
    add_row(s, W + row * I, x);
    add_row(s, R + row * H, h);
    s.add(Wb[row], MidRad{1, 0});
    s.add(Rb[row], MidRad{1, 0});
    return s;
  }
};

// Direction d's weights, `gates` gates each.
DirectionWeights direction_weights(const Recurrence& r, int64_t d, int64_t gates) {
  const int64_t H = r.p.hidden, I = r.p.input_size;
  const MidRad* Wb = r.B.data() + d * 2 * gates * H;
  return {r.W.data() + d * gates * H * I, r.R.data() + d * gates * H * H, Wb, Wb + gates * H, I, H};
}

// Runs the recurrence (as support::run_rnn) and assembles Y, Y_h (and Y_c) in the node's layout.
// step(d, x, h, c) advances direction d's state h (and c) by one step on input x.
template <class Step>
std::vector<Bounds> run(const Recurrence& r, bool with_cell, Step step) {
  const RnnProblem<double>& p = r.p;
  const int64_t S = p.seq_length, Bn = p.batch, H = p.hidden, I = p.input_size, nd = p.num_directions;
  std::vector<Interval> Y(static_cast<size_t>(S * nd * Bn * H), Interval::point(0)), Yh = r.H0, Yc = r.C0;
  for (int64_t d = 0; d < nd; ++d)
    for (int64_t b = 0; b < Bn; ++b) {
      const int64_t len = p.seq_lens[static_cast<size_t>(b)];
      Interval* h = Yh.data() + (d * Bn + b) * H;
      Interval* c = with_cell ? Yc.data() + (d * Bn + b) * H : nullptr;
      for (int64_t k = 0; k < len; ++k) {
        const int64_t t = p.backwards(d) ? len - 1 - k : k;
        step(d, r.X.data() + (t * Bn + b) * I, h, c);
        std::copy(h, h + H, Y.begin() + ((t * nd + d) * Bn + b) * H);
      }
    }
  auto bounds = [&](const std::vector<Interval>& v, const Shape& shape, auto index) {
    Bounds out = float_bounds(r.type, shape);
    for (size_t i = 0; i < v.size(); ++i) set(out, index(static_cast<int64_t>(i)), v[i]);
    return out;
  };
  // Element i in layout 0 order, placed at its layout-1 index where the node asks for layout 1.
  const bool l1 = p.layout == 1;
  auto y_index = [&](int64_t i) {  // [t][d][b][h] → [b][t][d][h]
    int64_t hh = i % H, b = i / H % Bn, d = i / (H * Bn) % nd, t = i / (H * Bn * nd);
    return l1 ? ((b * S + t) * nd + d) * H + hh : i;
  };
  auto state_index = [&](int64_t i) {  // [d][b][h] → [b][d][h]
    int64_t hh = i % H, b = i / H % Bn, d = i / (H * Bn);
    return l1 ? (b * nd + d) * H + hh : i;
  };
  Shape state = l1 ? Shape{Bn, nd, H} : Shape{nd, Bn, H};
  std::vector<Bounds> out;
  out.push_back(bounds(Y, l1 ? Shape{Bn, S, nd, H} : Shape{S, nd, Bn, H}, y_index));
  out.push_back(bounds(Yh, state, state_index));
  if (with_cell) out.push_back(bounds(Yc, state, state_index));
  return out;
}

Arith arith(const OpCall& c, DType type) {
  if (c.semantics != Semantics::Admissible) return {};
  FloatFormat f = float_format(type);
  return {f, TypeSum::of(f)};
}

// GRU (gates z, r, h in W, R and B):
//   z = f(X·Wz + H·Rz + Wbz + Rbz), r = f(X·Wr + H·Rr + Wbr + Rbr)
//   h̃ = g(X·Wh + (r ⊙ H)·Rh + Rbh + Wbh)          linear_before_reset = 0
//   h̃ = g(X·Wh + r ⊙ (H·Rh + Rbh) + Wbh)          linear_before_reset ≠ 0
//   H' = (1 − z) ⊙ h̃ + z ⊙ H
std::vector<Bounds> gru(const OpCall& c) {
  const Recurrence r = read(c, 3, -1, 0);
  const bool linear_before_reset = RecurrentParams::read(c.ctx, c.version).linear_before_reset;
  const Arith a = arith(c, r.type);
  const std::string op = op_name(c);
  const int64_t H = r.p.hidden, I = r.p.input_size;
  const size_t Hs = static_cast<size_t>(H);
  std::vector<Interval> z(Hs), zc(Hs), rg(Hs);
  std::vector<MidRad> x(static_cast<size_t>(I)), hm(Hs), rh(Hs);
  auto step = [&](int64_t d, const MidRad* xp, Interval* h, Interval*) {
    const DirectionWeights w = direction_weights(r, d, 3);
    const MidRad *W = w.W, *R = w.R, *Wb = w.Wb, *Rb = w.Rb;
    const RnnActivation& f = r.p.acts[static_cast<size_t>(2 * d)];
    const RnnActivation& g = r.p.acts[static_cast<size_t>(2 * d + 1)];
    x.assign(xp, xp + I);
    for (size_t j = 0; j < Hs; ++j) hm[j] = MidRad::of(h[j]);
    auto gate = [&](int64_t row) { return a.sum(w.pre_activation(row, x, hm)); };
    for (size_t j = 0; j < Hs; ++j) {
      const Interval pre = gate(static_cast<int64_t>(j));
      z[j] = activate_clipped(r, f, pre, a, op);
      zc[j] = complement(r, f, pre, z[j], a);
      rg[j] = activate_clipped(r, f, gate(H + static_cast<int64_t>(j)), a, op);
    }
    // r ⊙ H rounded (or r·(H·R) associated the other way: one rounding of r·H either way).
    for (size_t j = 0; j < Hs; ++j) rh[j] = MidRad::of(a.rounded(rg[j] * h[j], 1, magnitude(rg[j] * h[j])));
    std::vector<Interval> next(Hs);
    for (int64_t j = 0; j < H; ++j) {
      const size_t u = static_cast<size_t>(j);
      const int64_t row = 2 * H + j;
      DotBound s;
      add_row(s, W + row * I, x);
      s.add(Wb[row], MidRad{1, 0});
      if (linear_before_reset) {
        DotBound inner;
        add_row(inner, R + row * H, hm);
        inner.add(Rb[row], MidRad{1, 0});
        add_term(s, a.store(rg[u] * a.sum(inner)));
      } else {
        add_row(s, R + row * H, rh);
        s.add(Rb[row], MidRad{1, 0});
      }
      const Interval hh = activate_clipped(r, g, a.sum(s), a, op);
      // Three roundings as written, or h̃ + z ⊙ (H − h̃): either errs by at most
      // γ_4·((1 + |z|)·|h̃| + |z|·|H|).
      const double mz = magnitude(z[u]), m = up(up(up(1 + mz) * magnitude(hh)) + up(mz * magnitude(h[j])));
      next[u] = a.rounded(zc[u] * hh + z[u] * h[j], 4, m);
    }
    std::copy(next.begin(), next.end(), h);
  };
  return run(r, false, step);
}

// LSTM (gates i, o, f, c in W, R and B; peepholes P in the order i, o, f):
//   i = f(X·Wi + H·Ri + Pi ⊙ C + Wbi + Rbi), f = f(X·Wf + H·Rf + Pf ⊙ C + Wbf + Rbf) (1 − i when input_forget)
//   c̃ = g(X·Wc + H·Rc + Wbc + Rbc), C' = f ⊙ C + i ⊙ c̃
//   o = f(X·Wo + H·Ro + Po ⊙ C' + Wbo + Rbo), H' = o ⊙ h(C')
std::vector<Bounds> lstm(const OpCall& c) {
  const Recurrence r = read(c, 4, 6, 7);
  const bool input_forget = RecurrentParams::read(c.ctx, c.version).input_forget;
  const Arith a = arith(c, r.type);
  const std::string op = op_name(c);
  const int64_t H = r.p.hidden, I = r.p.input_size;
  const size_t Hs = static_cast<size_t>(H);
  std::vector<MidRad> x(static_cast<size_t>(I)), hm(Hs);
  std::vector<Interval> c_new(Hs), h_new(Hs);
  auto step = [&](int64_t d, const MidRad* xp, Interval* h, Interval* cell) {
    const DirectionWeights w = direction_weights(r, d, 4);
    const Interval* Pi = r.P.data() + d * 3 * H;
    const Interval *Po = Pi + H, *Pf = Pi + 2 * H;
    const RnnActivation& f = r.p.acts[static_cast<size_t>(3 * d)];
    const RnnActivation& g = r.p.acts[static_cast<size_t>(3 * d + 1)];
    const RnnActivation& hact = r.p.acts[static_cast<size_t>(3 * d + 2)];
    x.assign(xp, xp + I);
    for (size_t j = 0; j < Hs; ++j) hm[j] = MidRad::of(h[j]);
    // Gate k's pre-activation at unit j (0 = i, 1 = o, 2 = f, 3 = c), with the peephole term p·s.
    auto gate = [&](int64_t k, int64_t j, Interval peep, Interval state) {
      DotBound s = w.pre_activation(k * H + j, x, hm);
      if (r.has_peephole && k != 3) s.add(MidRad::of(peep), MidRad::of(state));
      return a.sum(s);
    };
    const Interval zero = Interval::point(0);
    for (int64_t j = 0; j < H; ++j) {
      const size_t u = static_cast<size_t>(j);
      const Interval pre_i = gate(0, j, Pi[j], cell[j]), gi = activate_clipped(r, f, pre_i, a, op);
      const Interval gf = input_forget ? a.store(complement(r, f, pre_i, gi, a))
                                       : activate_clipped(r, f, gate(2, j, Pf[j], cell[j]), a, op);
      const Interval gc = activate_clipped(r, g, gate(3, j, zero, zero), a, op);
      // Two products and a sum (or fused): γ_3·(|f|·|C| + |i|·|c̃|).
      const double m = up(up(magnitude(gf) * magnitude(cell[j])) + up(magnitude(gi) * magnitude(gc)));
      c_new[u] = a.rounded(gf * cell[j] + gi * gc, 3, m);
    }
    for (int64_t j = 0; j < H; ++j) {
      const size_t u = static_cast<size_t>(j);
      const Interval o = activate_clipped(r, f, gate(1, j, Po[j], c_new[u]), a, op);
      h_new[u] = a.store(o * activate_clipped(r, hact, c_new[u], a, op));
    }
    std::copy(h_new.begin(), h_new.end(), h);
    std::copy(c_new.begin(), c_new.end(), cell);
  };
  return run(r, true, step);
}

// RNN (one gate): H' = f(X·W + H·R + Wb + Rb), every unit from the previous state.
std::vector<Bounds> rnn(const OpCall& c) {
  const Recurrence r = read(c, 1, -1, 0);
  const Arith a = arith(c, r.type);
  const std::string op = op_name(c);
  const size_t Hs = static_cast<size_t>(r.p.hidden);
  std::vector<MidRad> x(static_cast<size_t>(r.p.input_size)), hm(Hs);
  std::vector<Interval> next(Hs);
  auto step = [&](int64_t d, const MidRad* xp, Interval* h, Interval*) {
    const DirectionWeights w = direction_weights(r, d, 1);
    const RnnActivation& f = r.p.acts[static_cast<size_t>(d)];
    x.assign(xp, xp + r.p.input_size);
    for (size_t j = 0; j < Hs; ++j) hm[j] = MidRad::of(h[j]);
    for (size_t j = 0; j < Hs; ++j)
      next[j] = activate_clipped(r, f, a.sum(w.pre_activation(static_cast<int64_t>(j), x, hm)), a, op);
    std::copy(next.begin(), next.end(), h);
  };
  return run(r, false, step);
}

}  // namespace

SONNX_ENCLOSURE("RNN", (1, 7, 14, 22), Allowance::own(), rnn);
SONNX_ENCLOSURE("GRU", (7, 14, 22), Allowance::own(), gru);
SONNX_ENCLOSURE("LSTM", (7, 14, 22), Allowance::own(), lstm);

}  // namespace sonnx::enclose
