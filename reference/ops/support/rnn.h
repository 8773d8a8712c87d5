// The recurrent operators (RNN, GRU, LSTM): activation functions chosen by name and the common
// handling of their inputs and outputs (directions, layout, sequence_lens, initial states); each
// operator file supplies only its cell equations.
#pragma once
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "reference/ops/params/recurrent.h"
#include "kernel.h"

namespace sonnx::support {

// The activation functions, read by name into RecurrentParams (reference/ops/params/recurrent.h).
using ::sonnx::RnnActivation;

// ---------------------------------------------------------------------------------------------
// Common inputs and outputs of RNN, GRU and LSTM.

// Inputs converted to the compute type C and to layout 0 (time-major), ready for the cell loops.
template <class C>
struct RnnProblem {
  int64_t seq_length = 0, batch = 0, input_size = 0, hidden = 0, num_directions = 1, gates = 1;
  bool reverse = false;  // direction == "reverse" (one direction, run backwards)
  int64_t layout = 0;
  std::vector<C> X;                 // [seq_length][batch][input_size]
  std::vector<C> W;                 // [num_directions][gates*hidden][input_size]
  std::vector<C> R;                 // [num_directions][gates*hidden][hidden]
  std::vector<C> B;                 // [num_directions][2*gates*hidden], zeros when omitted
  std::vector<int64_t> seq_lens;    // [batch]
  std::vector<C> H0;                // [num_directions][batch][hidden]
  std::vector<C> C0;                // [num_directions][batch][hidden] (LSTM only)
  std::vector<RnnActivation> acts;  // per direction, `per_direction` functions each
  bool has_clip = false;
  C clip = 0;

  // Whether direction d runs backwards in time.
  bool backwards(int64_t d) const { return reverse || d == 1; }
  // Bounds an activation input to [-clip, clip] when `clip` is given (NaN passes through).
  C clipped(C v) const {
    if (!has_clip) return v;
    if (v < -clip) return -clip;
    if (v > clip) return clip;
    return v;
  }
};

template <class T, class C>
std::vector<C> to_compute(const Tensor& t) {
  std::vector<C> v(static_cast<size_t>(t.size()));
  const T* p = t.data<T>();
  for (int64_t i = 0; i < t.size(); ++i) v[static_cast<size_t>(i)] = static_cast<C>(p[i]);
  return v;
}

// Reads and checks the inputs common to the three operators. `gates`: 1 (RNN), 3 (GRU), 4 (LSTM).
// `initial_c_input`: index of initial_c or -1.
template <class T, class C = compute_t<T>>
RnnProblem<C> read_rnn_inputs(const OpContext& ctx, int64_t gates, int initial_c_input) {
  RnnProblem<C> p;
  p.gates = gates;
  RecurrentParams params = RecurrentParams::read(ctx, ctx.version());
  p.layout = params.layout;
  p.num_directions = params.num_directions;
  p.reverse = params.reverse;

  const Tensor& x = ctx.input(0);
  const Tensor& w = ctx.input(1);
  const Tensor& r = ctx.input(2);
  if (w.dtype() != x.dtype() || r.dtype() != x.dtype()) ctx.fail("X, W and R must have the same element type");
  if (x.rank() != 3) ctx.fail("X must have rank 3, has shape " + shape_str(x.shape()));
  if (w.rank() != 3 || r.rank() != 3) ctx.fail("W and R must have rank 3");
  p.seq_length = p.layout == 0 ? x.dim(0) : x.dim(1);
  p.batch = p.layout == 0 ? x.dim(1) : x.dim(0);
  p.input_size = x.dim(2);
  p.hidden = r.dim(2);
  if (params.hidden_size && *params.hidden_size != p.hidden)
    ctx.fail("hidden_size " + std::to_string(*params.hidden_size) + " does not match R's shape " + shape_str(r.shape()));
  const int64_t nd = p.num_directions, H = p.hidden;
  if (w.shape() != Shape{nd, gates * H, p.input_size})
    ctx.fail("W has shape " + shape_str(w.shape()) + ", expected " + shape_str({nd, gates * H, p.input_size}));
  if (r.shape() != Shape{nd, gates * H, H})
    ctx.fail("R has shape " + shape_str(r.shape()) + ", expected " + shape_str({nd, gates * H, H}));

  // X to time-major.
  std::vector<C> xv = to_compute<T, C>(x);
  if (p.layout == 0) {
    p.X = std::move(xv);
  } else {
    p.X.assign(xv.size(), C(0));
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t t = 0; t < p.seq_length; ++t)
        for (int64_t i = 0; i < p.input_size; ++i)
          p.X[static_cast<size_t>((t * p.batch + b) * p.input_size + i)] =
              xv[static_cast<size_t>((b * p.seq_length + t) * p.input_size + i)];
  }
  p.W = to_compute<T, C>(w);
  p.R = to_compute<T, C>(r);

  if (ctx.has_input(3)) {
    const Tensor& bt = ctx.input(3);
    if (bt.dtype() != x.dtype()) ctx.fail("B must have the element type of X");
    if (bt.shape() != Shape{nd, 2 * gates * H})
      ctx.fail("B has shape " + shape_str(bt.shape()) + ", expected " + shape_str({nd, 2 * gates * H}));
    p.B = to_compute<T, C>(bt);
  } else {
    p.B.assign(static_cast<size_t>(nd * 2 * gates * H), C(0));
  }

  if (ctx.has_input(4)) {
    const Tensor& sl = ctx.input(4);
    if (!is_integer(sl.dtype())) ctx.fail("sequence_lens must be an integer tensor");
    if (sl.shape() != Shape{p.batch})
      ctx.fail("sequence_lens has shape " + shape_str(sl.shape()) + ", expected [" + std::to_string(p.batch) + "]");
    p.seq_lens = sl.to_int64_vector();
    for (int64_t len : p.seq_lens)
      if (len < 0 || len > p.seq_length)
        ctx.fail("sequence_lens value " + std::to_string(len) + " is outside [0, " + std::to_string(p.seq_length) + "]");
  } else {
    p.seq_lens.assign(static_cast<size_t>(p.batch), p.seq_length);
  }

  // initial_h / initial_c: [num_directions][batch][hidden] (layout 0) or [batch][num_directions][hidden].
  auto read_state = [&](size_t index, const char* name) {
    std::vector<C> s(static_cast<size_t>(nd * p.batch * H), C(0));
    if (!ctx.has_input(index)) return s;
    const Tensor& t = ctx.input(index);
    if (t.dtype() != x.dtype()) ctx.fail(std::string(name) + " must have the element type of X");
    Shape want = p.layout == 0 ? Shape{nd, p.batch, H} : Shape{p.batch, nd, H};
    if (t.shape() != want) ctx.fail(std::string(name) + " has shape " + shape_str(t.shape()) + ", expected " + shape_str(want));
    std::vector<C> v = to_compute<T, C>(t);
    if (p.layout == 0) return v;
    for (int64_t d = 0; d < nd; ++d)
      for (int64_t b = 0; b < p.batch; ++b)
        for (int64_t h = 0; h < H; ++h)
          s[static_cast<size_t>((d * p.batch + b) * H + h)] = v[static_cast<size_t>((b * nd + d) * H + h)];
    return s;
  };
  p.H0 = read_state(5, "initial_h");
  if (initial_c_input >= 0) p.C0 = read_state(static_cast<size_t>(initial_c_input), "initial_c");

  p.acts = params.activations;
  if (params.clip) {
    p.has_clip = true;
    p.clip = static_cast<C>(*params.clip);
  }
  return p;
}

// Runs the recurrence and assembles Y, Y_h (and Y_c when `with_cell`). `step(d, b, x, h, c)`
// advances the state of batch entry b in direction d by one time step: x points at input_size
// values, h (and c) at hidden values updated in place. Time steps at or past a sequence's length
// are not run: their Y entries are zero, and Y_h/Y_c hold the state after the last step run
// (the initial state for a zero-length sequence).
template <class T, class C, class Step>
std::vector<Value> run_rnn(const OpContext& ctx, const RnnProblem<C>& p, bool with_cell, Step step) {
  const int64_t S = p.seq_length, Bn = p.batch, H = p.hidden, nd = p.num_directions;
  std::vector<C> Y(static_cast<size_t>(S * nd * Bn * H), C(0));  // layout 0 order
  std::vector<C> Yh = p.H0;
  std::vector<C> Yc = with_cell ? p.C0 : std::vector<C>{};
  for (int64_t d = 0; d < nd; ++d) {
    for (int64_t b = 0; b < Bn; ++b) {
      const int64_t len = p.seq_lens[static_cast<size_t>(b)];
      C* h = Yh.data() + (d * Bn + b) * H;
      C* c = with_cell ? Yc.data() + (d * Bn + b) * H : nullptr;
      for (int64_t k = 0; k < len; ++k) {
        const int64_t t = p.backwards(d) ? len - 1 - k : k;
        step(d, b, p.X.data() + (t * Bn + b) * p.input_size, h, c);
        std::copy(h, h + H, Y.begin() + ((t * nd + d) * Bn + b) * H);
      }
    }
  }

  auto store = [&](const std::vector<C>& v, const Shape& shape) {
    Tensor out(dtype_of<T>(), shape);
    T* o = out.data<T>();
    for (size_t i = 0; i < v.size(); ++i) o[i] = to_storage<T>(v[i]);
    return Value(std::move(out));
  };
  std::vector<Value> outs(with_cell ? 3 : 2);
  if (ctx.has_output(0)) {
    if (p.layout == 0) {
      outs[0] = store(Y, {S, nd, Bn, H});
    } else {
      std::vector<C> y1(Y.size());
      for (int64_t t = 0; t < S; ++t)
        for (int64_t d = 0; d < nd; ++d)
          for (int64_t b = 0; b < Bn; ++b)
            for (int64_t h = 0; h < H; ++h)
              y1[static_cast<size_t>(((b * S + t) * nd + d) * H + h)] = Y[static_cast<size_t>(((t * nd + d) * Bn + b) * H + h)];
      outs[0] = store(y1, {Bn, S, nd, H});
    }
  }
  auto state_out = [&](const std::vector<C>& s) {
    if (p.layout == 0) return store(s, {nd, Bn, H});
    std::vector<C> s1(s.size());
    for (int64_t d = 0; d < nd; ++d)
      for (int64_t b = 0; b < Bn; ++b)
        for (int64_t h = 0; h < H; ++h)
          s1[static_cast<size_t>((b * nd + d) * H + h)] = s[static_cast<size_t>((d * Bn + b) * H + h)];
    return store(s1, {Bn, nd, H});
  };
  if (ctx.has_output(1)) outs[1] = state_out(Yh);
  if (with_cell && ctx.has_output(2)) outs[2] = state_out(Yc);
  return outs;
}

// sum_j M[row][j] * v[j] for a row-major matrix with `cols` columns.
template <class C>
C dot_row(const C* m, int64_t row, int64_t cols, const C* v) {
  C s = 0;
  for (int64_t j = 0; j < cols; ++j) s += m[row * cols + j] * v[j];
  return s;
}

}  // namespace sonnx::support
