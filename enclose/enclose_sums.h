// What the enclosures built on sums of products (dot.h: Conv, MatMul, Gemm, the pools, the
// reductions, ConvTranspose) share: their operands in midpoint-radius form, and what a sum in the
// element type may add under the call's semantics.
#pragma once
#include <optional>
#include <vector>

#include "dot.h"
#include "enclose_ops.h"
#include "reference/ops/params/indexing.h"
#include "reference/ops/support/indexing.h"
#include "reference/ops/support/reduce.h"

namespace sonnx::enclose {

// A Conv's geometry (its attributes on X and W), spatial ranks 1–3 each handled as 3-D with unit
// dimensions.
struct ConvGeometry {
  int64_t N = 0, C = 0, M = 0, group = 1;
  int64_t in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, d[3] = {1, 1, 1}, pb[3] = {0, 0, 0}, out[3] = {1, 1, 1};
  Shape y_shape;
  int64_t Cg() const { return C / group; }
  int64_t taps() const { return k[0] * k[1] * k[2]; }
  int64_t in_plane() const { return in[0] * in[1] * in[2]; }
  int64_t out_plane() const { return out[0] * out[1] * out[2]; }
  // f(x_offset, w, o) for every term x·w of output channel m of batch element bn, o its offset in
  // the output plane, w = weight(w_offset) loaded once per tap (kept in registers: the sums f
  // writes could alias the weights); the terms of each o come in the same order.
  template <class Weight, class F>
  void for_each_term(int64_t bn, int64_t m, Weight weight, F f) const {
    int64_t g = m / (M / group);
    for (int64_t ci = 0; ci < Cg(); ++ci) {
      int64_t x0 = (bn * C + g * Cg() + ci) * in_plane(), w0 = (m * Cg() + ci) * taps();
      for (int64_t k0 = 0; k0 < k[0]; ++k0)
        for (int64_t k1 = 0; k1 < k[1]; ++k1)
          for (int64_t k2 = 0; k2 < k[2]; ++k2) {
            auto w = weight(w0 + (k0 * k[1] + k1) * k[2] + k2);
            int64_t shift2 = k2 * d[2] - pb[2];  // i2 = o2·s2 + shift2, inside [0, in2) for o2 in [lo2, hi2]
            int64_t lo2 = std::max<int64_t>(0, ceil_div(-shift2, s[2])),
                    hi2 = std::min(out[2] - 1, floor_div(in[2] - 1 - shift2, s[2]));
            for (int64_t o0 = 0; o0 < out[0]; ++o0) {
              int64_t i0 = o0 * s[0] - pb[0] + k0 * d[0];
              if (i0 < 0 || i0 >= in[0]) continue;
              for (int64_t o1 = 0; o1 < out[1]; ++o1) {
                int64_t i1 = o1 * s[1] - pb[1] + k1 * d[1];
                if (i1 < 0 || i1 >= in[1]) continue;
                int64_t obase = (o0 * out[1] + o1) * out[2], ibase = x0 + (i0 * in[1] + i1) * in[2] + shift2;
                for (int64_t o2 = lo2; o2 <= hi2; ++o2) f(ibase + o2 * s[2], w, obase + o2);
              }
            }
          }
    }
  }
  static int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
  static int64_t ceil_div(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }
};
// Trap where W does not fit X or the kernel does not fit the input; Unsupported beyond rank 3.
ConvGeometry conv_geometry(const OpCall& c, const Shape& xs, const Shape& ws);

// MatMul's operands as batches of M×K and K×N matrices (a 1-D operand promoted and its unit
// dimension dropped again in y_shape), each batch's A and B matrix by index.
struct MatMulGeometry {
  int64_t M = 0, K = 0, N = 0;
  Shape y_shape;
  std::vector<int64_t> a_batch, b_batch;  // for each batch of the result, the matrix of A and of B
};
// Trap where the inner dimensions differ or the batch dimensions do not broadcast.
MatMulGeometry matmul_geometry(const OpCall& c, Shape as, Shape bs);

// What a sum in the element type may err under the admissible semantics; nothing under the real one.
inline TypeSum type_sum(const OpCall& c, DType type) {
  return c.semantics == Semantics::Admissible ? TypeSum::of(float_format(type)) : TypeSum{};
}

// Every element of float bounds as a midpoint and radius.
inline std::vector<MidRad> mid_rad(const Bounds& b) {
  std::vector<MidRad> v(static_cast<size_t>(b.lo.size()));
  for (int64_t i = 0; i < b.lo.size(); ++i) v[static_cast<size_t>(i)] = MidRad::of(at(b, i));
  return v;
}

// Element e of `data` combined with the `updates` elements hits[e] lists: their sum (dot.h; in any
// order under the admissible semantics), or their product, whose n multiplications in any order err
// by at most γ_n relative (Higham §3.5), plus, for underflow, n smallest subnormals times the largest
// the other factors make them. An element nothing lands on is data[e] itself. ScatterND's and
// ScatterElements' add and mul, Col2Im (enclose_lift.cpp).
Bounds scatter_combine(const OpCall& c, const Bounds& data, const Bounds& updates, const std::vector<std::vector<int64_t>>& hits,
                       bool add);

// Where each element of a Reduce* operator's input x goes (ReduceParams: axes from the attribute,
// or from the optional input from version 18), or nullopt where the reduction is the identity (no
// axes, noop_with_empty_axes). ReduceSum, ReduceMean (enclose_pool.cpp), ReduceProd.
std::optional<support::ReduceGeometry> reduction_geometry(const OpCall& c, const Bounds& x);

// The prefix walk of CumSum and CumProd: along the axis their input 1 names, each line's elements
// fed in order (from the end with `reverse`) to a fresh accumulator `Acc`, through feed(acc, k)
// with k the element's position in x, and each output set to result(acc) before its element is
// fed (`exclusive`) or after.
template <class Acc, class Feed, class Result>
Bounds prefix_scan(const OpCall& c, const Bounds& x, Feed feed, Result result) {
  const Bounds& axis_input = c.input(1);
  if (!axis_input.exact()) c.ctx.fail("axis must be an integer tensor");
  if (x.lo.rank() == 0) c.ctx.fail("input must have rank >= 1");
  int64_t axis = support::normalize_axis(c.ctx, support::int_scalar(c.ctx, axis_input.lo, "axis"), x.lo.rank());
  CumSumParams p = CumSumParams::read(c.ctx, c.version);  // CumProd reads CumSum's attributes
  support::AxisView v = support::axis_view(x.lo.shape(), axis);
  Bounds y = float_bounds(x.type, x.lo.shape());
  for (int64_t o = 0; o < v.outer; ++o)
    for (int64_t i = 0; i < v.inner; ++i) {
      Acc acc{};
      for (int64_t step = 0; step < v.n; ++step) {
        int64_t k = v.at(o, p.reverse ? v.n - 1 - step : step, i);
        if (p.exclusive) set(y, k, result(acc));
        feed(acc, k);
        if (!p.exclusive) set(y, k, result(acc));
      }
    }
  return y;
}

}  // namespace sonnx::enclose
