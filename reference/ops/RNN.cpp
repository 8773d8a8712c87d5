// RNN: one-layer simple recurrent network, Ht = f(Xt*(Wi^T) + Ht-1*(Ri^T) + Wbi + Rbi), default
// f = Tanh. Versions 1 and 7 differ only in v1's unused output_sequence attribute; version 14 adds
// layout (batch-major X, Y, initial_h, Y_h). Directions, sequence_lens, activations and clip are
// handled in support/rnn.h.
#include "op_params.h"
#include "params/recurrent.h"
#include "support/shape.h"
#include "support/rnn.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> rnn(OpContext& ctx) {
  return visit_float(ctx, ctx.input(0).dtype(), [&]<class T>() {
    using C = compute_t<T>;
    const RnnProblem<C> p = read_rnn_inputs<T>(ctx, 1, -1);
    const int64_t H = p.hidden, I = p.input_size;
    std::vector<C> next(static_cast<size_t>(H));
    auto step = [&](int64_t d, int64_t, const C* x, C* h, C*) {
      const C* W = p.W.data() + d * H * I;
      const C* R = p.R.data() + d * H * H;
      const C* Wb = p.B.data() + d * 2 * H;
      const C* Rb = Wb + H;
      const RnnActivation& f = p.acts[static_cast<size_t>(d)];
      for (int64_t j = 0; j < H; ++j)
        next[static_cast<size_t>(j)] = f(p.clipped(dot_row(W, j, I, x) + dot_row(R, j, H, h) + Wb[j] + Rb[j]));
      std::copy(next.begin(), next.end(), h);
    };
    return run_rnn<T>(ctx, p, false, step);
  });
}
}  // namespace
SONNX_PARAMS("", "RNN", (1, 7, 14, 22), RecurrentParams);
SONNX_KERNEL("", "RNN", 1, rnn, Accuracy::Rounding);
SONNX_KERNEL("", "RNN", 14, rnn, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "RNN", 22, rnn, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "RNN", (1, 7, 14, 22), recurrent_shape_rule);
}  // namespace sonnx
