// Softmax, LogSoftmax and Hardmax, in double, each result rounded once.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "reduce.h"
#include "reference/ops/params/softmax.h"

namespace sonnx::support {

enum class SoftmaxKind { Softmax, LogSoftmax, Hardmax };

// Applies the operation to every line (o, ·, i) of `in` seen through `v`, writing `out`.
inline void softmax_lines(SoftmaxKind kind, const AxisView& v, const std::vector<double>& in, std::vector<double>& out) {
  for (int64_t o = 0; o < v.outer; ++o)
    for (int64_t i = 0; i < v.inner; ++i) {
      auto at = [&](int64_t k) { return static_cast<size_t>(v.at(o, k, i)); };
      if (v.n == 0) continue;
      if (kind == SoftmaxKind::Hardmax) {
        // 1 at the first maximum (NaN counts as the maximum, as numpy.argmax), 0 elsewhere.
        int64_t best = 0;
        for (int64_t k = 1; k < v.n; ++k) {
          double c = in[at(k)], b = in[at(best)];
          if (!std::isnan(b) && (std::isnan(c) || c > b)) best = k;
        }
        for (int64_t k = 0; k < v.n; ++k) out[at(k)] = k == best ? 1.0 : 0.0;
        continue;
      }
      // With m the maximum of the line, exp(x - m) / sum(exp(x - m)) and (x - m) - log(sum(exp(x - m)))
      // are the same values as the textbook formulas, without overflowing exp.
      double m = -std::numeric_limits<double>::infinity();
      for (int64_t k = 0; k < v.n; ++k) {
        double c = in[at(k)];
        if (std::isnan(c)) {  // a NaN makes the whole line NaN
          m = c;
          break;
        }
        if (c > m) m = c;
      }
      double sum = 0;
      for (int64_t k = 0; k < v.n; ++k) sum += std::exp(in[at(k)] - m);
      for (int64_t k = 0; k < v.n; ++k) {
        double d = in[at(k)] - m;
        out[at(k)] = kind == SoftmaxKind::Softmax ? std::exp(d) / sum : d - std::log(sum);
      }
    }
}

// Opset ≤ 12: the input is coerced to 2-D at `axis` and each row of d[axis]*...*d[r-1] elements
// is normalized. Opset ≥ 13: one axis (SoftmaxParams).
inline std::vector<Value> softmax_family(OpContext& ctx, SoftmaxKind kind) {
  const Tensor& x = ctx.input(0);
  SoftmaxParams p = SoftmaxParams::read(ctx, ctx.version());
  int64_t axis = normalize_axis(ctx, p.axis, x.rank());
  AxisView v = p.coerced_2d ? coerced_2d_view(x.shape(), axis) : axis_view(x.shape(), axis);
  std::vector<double> in = float_values(ctx, x);
  std::vector<double> out(in.size());
  softmax_lines(kind, v, in, out);
  return one(float_tensor(ctx, x.dtype(), x.shape(), out));
}

}  // namespace sonnx::support
