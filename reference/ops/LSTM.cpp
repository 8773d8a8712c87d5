// LSTM: one-layer long short-term memory (gates i, o, f, c in that order in W, R and B; peepholes
// P in the order i, o, f). Default activations f = Sigmoid, g = Tanh, h = Tanh:
//   it = f(Xt*(Wi^T) + Ht-1*(Ri^T) + Pi (.) Ct-1 + Wbi + Rbi)
//   ft = f(Xt*(Wf^T) + Ht-1*(Rf^T) + Pf (.) Ct-1 + Wbf + Rbf)     (1 - it when input_forget=1)
//   ct = g(Xt*(Wc^T) + Ht-1*(Rc^T) + Wbc + Rbc)
//   Ct = ft (.) Ct-1 + it (.) ct
//   ot = f(Xt*(Wo^T) + Ht-1*(Ro^T) + Po (.) Ct + Wbo + Rbo)
//   Ht = ot (.) h(Ct)
// Versions 1 and 7 differ only in v1's unused output_sequence attribute; 14 adds layout.
// Directions, sequence_lens, activations and clip (bounds every activation input, Ct included
// where it enters h; the stored cell state itself is not clipped) are handled in support/rnn.h.
// Relies on ops/recurrent.mlw Lstm.lstm_unique: LSTM is deterministic: the hidden and cell state sequences of the recurrence and the outputs Y, Y_h, Y_c are unique (forward, reverse, bidirectional).
// Relies on ops/recurrent.mlw Lstm.lstm_one_step: one LSTM step from the initial states is the textbook cell (C = f*C0 + i*g, H = o*tanh(C), peepholes on C0 for i, f and on C for o).
#include "op_params.h"
#include "params/recurrent.h"
#include "support/shape.h"
#include "support/rnn.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> lstm(OpContext& ctx) {
  const bool input_forget = RecurrentParams::read(ctx, ctx.version()).input_forget;
  return visit_float(ctx, ctx.input(0).dtype(), [&]<class T>() {
    using C = compute_t<T>;
    const RnnProblem<C> p = read_rnn_inputs<T>(ctx, 4, 6);
    const int64_t H = p.hidden, I = p.input_size, nd = p.num_directions;
    std::vector<C> P(static_cast<size_t>(nd * 3 * H), C(0));
    if (ctx.has_input(7)) {
      const Tensor& pt = ctx.input(7);
      if (pt.dtype() != dtype_of<T>()) ctx.fail("P must have the element type of X");
      if (pt.shape() != Shape{nd, 3 * H})
        ctx.fail("P has shape " + shape_str(pt.shape()) + ", expected " + shape_str({nd, 3 * H}));
      P = to_compute<T, C>(pt);
    }
    std::vector<C> gi(static_cast<size_t>(H)), gf(static_cast<size_t>(H)), gc(static_cast<size_t>(H)),
        c_new(static_cast<size_t>(H));
    auto step = [&](int64_t d, int64_t, const C* x, C* h, C* c) {
      const C* W = p.W.data() + d * 4 * H * I;
      const C* R = p.R.data() + d * 4 * H * H;
      const C* Wb = p.B.data() + d * 8 * H;
      const C* Rb = Wb + 4 * H;
      const C* Pi = P.data() + d * 3 * H;
      const C* Po = Pi + H;
      const C* Pf = Pi + 2 * H;
      const RnnActivation& f = p.acts[static_cast<size_t>(3 * d)];
      const RnnActivation& g = p.acts[static_cast<size_t>(3 * d + 1)];
      const RnnActivation& hact = p.acts[static_cast<size_t>(3 * d + 2)];
      // Pre-activation of gate k (0 = i, 1 = o, 2 = f, 3 = c) at unit j, without peephole.
      auto gate = [&](int64_t k, int64_t j) {
        return dot_row(W, k * H + j, I, x) + dot_row(R, k * H + j, H, h) + Wb[k * H + j] + Rb[k * H + j];
      };
      for (int64_t j = 0; j < H; ++j) {
        const size_t u = static_cast<size_t>(j);
        gi[u] = f(p.clipped(gate(0, j) + Pi[j] * c[j]));
        gf[u] = input_forget ? C(1) - gi[u] : f(p.clipped(gate(2, j) + Pf[j] * c[j]));
        gc[u] = g(p.clipped(gate(3, j)));
        c_new[u] = gf[u] * c[j] + gi[u] * gc[u];
      }
      // The output gate reads Ht-1, so compute all of it before overwriting h.
      std::vector<C> h_new(static_cast<size_t>(H));
      for (int64_t j = 0; j < H; ++j) {
        const size_t u = static_cast<size_t>(j);
        const C o = f(p.clipped(gate(1, j) + Po[j] * c_new[u]));
        h_new[u] = o * hact(p.clipped(c_new[u]));
      }
      std::copy(h_new.begin(), h_new.end(), h);
      std::copy(c_new.begin(), c_new.end(), c);
    };
    return run_rnn<T>(ctx, p, true, step);
  });
}
}  // namespace
SONNX_PARAMS("", "LSTM", (1, 7, 14, 22), RecurrentParams);
SONNX_KERNEL("", "LSTM", 1, lstm, Accuracy::Rounding);
SONNX_KERNEL("", "LSTM", 14, lstm, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "LSTM", 22, lstm, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "LSTM", (1, 7, 14, 22), recurrent_shape_rule);
}  // namespace sonnx
