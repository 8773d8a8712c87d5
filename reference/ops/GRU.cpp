// GRU: one-layer gated recurrent unit (gates z, r, h in that order in W, R and B). Default
// activations f = Sigmoid, g = Tanh:
//   zt = f(Xt*(Wz^T) + Ht-1*(Rz^T) + Wbz + Rbz)
//   rt = f(Xt*(Wr^T) + Ht-1*(Rr^T) + Wbr + Rbr)
//   ht = g(Xt*(Wh^T) + (rt (.) Ht-1)*(Rh^T) + Rbh + Wbh)      linear_before_reset = 0
//   ht = g(Xt*(Wh^T) + (rt (.) (Ht-1*(Rh^T) + Rbh)) + Wbh)    linear_before_reset != 0
//   Ht = (1 - zt) (.) ht + zt (.) Ht-1
// Version 1 has no linear_before_reset (so 0) and a misspelt default direction "foward"; version 3
// adds linear_before_reset; 7 drops output_sequence; 14 adds layout. Directions, sequence_lens,
// activations and clip are handled in support/rnn.h.
// Relies on ops/recurrent.mlw Gru.gru_unique: GRU is deterministic: the hidden state sequence of the recurrence and the outputs Y, Y_h are unique (both linear_before_reset, every direction).
#include "op_params.h"
#include "params/recurrent.h"
#include "support/shape.h"
#include "support/rnn.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> gru(OpContext& ctx) {
  const bool linear_before_reset = RecurrentParams::read(ctx, ctx.version()).linear_before_reset;
  return visit_float(ctx, ctx.input(0).dtype(), [&]<class T>() {
    using C = compute_t<T>;
    const RnnProblem<C> p = read_rnn_inputs<T>(ctx, 3, -1);
    const int64_t H = p.hidden, I = p.input_size;
    std::vector<C> z(static_cast<size_t>(H)), r(static_cast<size_t>(H)), rh(static_cast<size_t>(H)),
        next(static_cast<size_t>(H));
    auto step = [&](int64_t d, int64_t, const C* x, C* h, C*) {
      const C* W = p.W.data() + d * 3 * H * I;
      const C* R = p.R.data() + d * 3 * H * H;
      const C* Wb = p.B.data() + d * 6 * H;
      const C* Rb = Wb + 3 * H;
      const RnnActivation& f = p.acts[static_cast<size_t>(2 * d)];
      const RnnActivation& g = p.acts[static_cast<size_t>(2 * d + 1)];
      // Rows of gate k are k*H .. k*H+H-1 (z: 0, r: 1, h: 2).
      for (int64_t j = 0; j < H; ++j) {
        const size_t u = static_cast<size_t>(j);
        z[u] = f(p.clipped(dot_row(W, j, I, x) + dot_row(R, j, H, h) + Wb[j] + Rb[j]));
        r[u] = f(p.clipped(dot_row(W, H + j, I, x) + dot_row(R, H + j, H, h) + Wb[H + j] + Rb[H + j]));
      }
      for (int64_t j = 0; j < H; ++j) rh[static_cast<size_t>(j)] = r[static_cast<size_t>(j)] * h[j];
      for (int64_t j = 0; j < H; ++j) {
        const size_t u = static_cast<size_t>(j);
        C pre;
        if (linear_before_reset)
          pre = dot_row(W, 2 * H + j, I, x) + r[u] * (dot_row(R, 2 * H + j, H, h) + Rb[2 * H + j]) + Wb[2 * H + j];
        else pre = dot_row(W, 2 * H + j, I, x) + dot_row(R, 2 * H + j, H, rh.data()) + Rb[2 * H + j] + Wb[2 * H + j];
        const C hh = g(p.clipped(pre));
        next[u] = (C(1) - z[u]) * hh + z[u] * h[j];
      }
      std::copy(next.begin(), next.end(), h);
    };
    return run_rnn<T>(ctx, p, false, step);
  });
}
}  // namespace
SONNX_PARAMS("", "GRU", (1, 3, 7, 14, 22), RecurrentParams);
SONNX_KERNEL("", "GRU", 1, gru, Accuracy::Rounding);
SONNX_KERNEL("", "GRU", 3, gru, Accuracy::Rounding);
SONNX_KERNEL("", "GRU", 14, gru, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "GRU", 22, gru, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "GRU", (1, 3, 7, 14, 22), recurrent_shape_rule);
}  // namespace sonnx
