// Softmax and LogSoftmax on float32 (versions 1, 11 and 13). Before version 13 the input is
// coerced to 2-D at `axis` (default 1) and each row is normalized as a whole; from 13 along the
// single axis `axis` (default -1), any axis: lines along a middle axis are walked with the inner
// stride, a block of `inner` lines at a time so the reads stay contiguous.
// The arithmetic is the reference's (support/softmax.h): the line maximum (NaN makes the line NaN),
// exp(x - m) and the sum in double, each result rounded once. Two things differ: exp is unary.cpp's
// vectorised polynomial (exp_minus, relative error below 1e-11), not std::exp, and a contiguous
// line is summed in four interleaved partial sums and divided by multiplying with the sum's
// reciprocal, which keeps the loops from waiting on each addition (a few double ULP). A float
// result can then differ from the reference's only where the exact value lies within ~1e-11 of a
// float rounding boundary, and by 1 ULP.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "onednn_common.h"
#include "reference/ops/params/softmax.h"
#include "simd_clones.h"
#include "softmax_line.h"
#include "omp_sync.h"

namespace sonnx::fast {

namespace {

// The loops of a contiguous line, compiled for AVX-512 and AVX2 as well (simd_clones.h).
// The maximum of x (NaN aside) into mf; true when some x is NaN. Compared as integers that order
// like the floats (sign-magnitude turned into two's complement), which vectorizes where a float
// comparison reduction does not; -0 and +0 then differ, which changes no result (x − m is the same).
SONNX_SIMD_CLONES bool line_max(const float* x, int64_t n, float& mf) {
  auto ordered = [](float v) {
    int32_t i = std::bit_cast<int32_t>(v);
    return i ^ ((i >> 31) & 0x7fffffff);
  };
  int32_t m = ordered(mf);
  int nan = 0;
  for (int64_t k = 0; k < n; ++k) {
    nan |= (std::bit_cast<uint32_t>(x[k]) & 0x7fffffffu) > 0x7f800000u;
    int32_t o = ordered(x[k]);
    m = o > m ? o : m;
  }
  mf = std::bit_cast<float>(m ^ ((m >> 31) & 0x7fffffff));
  return nan != 0;
}

// The sum of e in four interleaved partial sums.
SONNX_SIMD_CLONES double line_sum(const double* e, int64_t n) {
  double s[4] = {0, 0, 0, 0};
  int64_t k = 0;
  for (; k + 4 <= n; k += 4)
    for (int j = 0; j < 4; ++j) s[j] += e[k + j];
  for (; k < n; ++k) s[0] += e[k];
  return (s[0] + s[1]) + (s[2] + s[3]);
}

SONNX_SIMD_CLONES void scale_to_float(const double* e, double inv, float* y, int64_t n) {
  for (int64_t k = 0; k < n; ++k) y[k] = static_cast<float>(e[k] * inv);
}

// The line's maximum as a double: NaN when some x is NaN.
double line_maximum(const float* x, int64_t n) {
  float mf = -std::numeric_limits<float>::infinity();
  bool nan = line_max(x, n, mf);
  return nan ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(mf);
}

class SoftmaxKernel final : public FastKernel {
 public:
  std::string label;
  int64_t version = 13;
  bool log = false;
  bool coerced_2d = false;
  int64_t axis = -1;

  std::string name() const override { return log ? "fast:logsoftmax" : "fast:softmax"; }

  std::vector<Shape> output_shapes(const std::vector<const Tensor*>& in) const override {
    const Tensor* x = arg(in, 0);
    if (!x || x->dtype() != DType::Float) fail(label, version, "this kernel takes a float32 input");
    normalized_axis(x->rank());
    return {x->shape()};
  }

  void run(const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) const override {
    const Tensor& x = *arg(in, 0);
    int64_t a = normalized_axis(x.rank());
    const Shape& s = x.shape();
    auto count = [&](int64_t from, int64_t to) {
      int64_t c = 1;
      for (int64_t d = from; d < to; ++d) c *= s[static_cast<size_t>(d)];
      return c;
    };
    int64_t outer = count(0, a), n, inner;
    if (coerced_2d) {
      n = count(a, x.rank());
      inner = 1;
    } else {
      n = s[static_cast<size_t>(a)];
      inner = count(a + 1, x.rank());
    }
    if (x.size() == 0 || n == 0) return;
    const float* px = x.data<float>();
    float* py = out[0]->data<float>();
    if (inner == 1) {
      SONNX_OMP_FORK(sync);
#pragma omp parallel
      {
        SONNX_OMP_TASK(sync);
        std::vector<double> e(static_cast<size_t>(n));
#pragma omp for schedule(static)
        for (int64_t o = 0; o < outer; ++o) row(px + o * n, py + o * n, n, e.data());
      }
      return;
    }
    SONNX_OMP_FORK(sync);
#pragma omp parallel
    {
      SONNX_OMP_TASK(sync);
      std::vector<double> m(static_cast<size_t>(inner)), sum(static_cast<size_t>(inner));
      std::vector<double> e(static_cast<size_t>(n * inner));
#pragma omp for schedule(static)
      for (int64_t o = 0; o < outer; ++o)
        block(px + o * n * inner, py + o * n * inner, n, inner, m.data(), sum.data(), e.data());
    }
  }

 private:
  // As the reference kernel, in every version.
  int64_t normalized_axis(int64_t rank) const { return norm_axis(label, version, axis, rank); }

  // One contiguous line of n elements; `e` holds n doubles (Softmax only).
  void row(const float* x, float* y, int64_t n, double* e) const {
    if (!log) return softmax_line(x, y, n, e);
    double m = line_maximum(x, n);
    exp_minus(x, m, e, n);
    double ls = std::log(line_sum(e, n));
    for (int64_t k = 0; k < n; ++k) y[k] = static_cast<float>((x[k] - m) - ls);
  }

  // `inner` lines of n elements with stride `inner` (element (k, i) at k * inner + i).
  void block(const float* x, float* y, int64_t n, int64_t inner, double* m, double* sum, double* e) const {
    for (int64_t i = 0; i < inner; ++i) {
      m[i] = -std::numeric_limits<double>::infinity();
      sum[i] = 0;
    }
    for (int64_t k = 0; k < n; ++k)
      for (int64_t i = 0; i < inner; ++i) {
        double c = x[k * inner + i];
        if (std::isnan(m[i])) continue;  // the first NaN stays the line's maximum
        if (std::isnan(c) || c > m[i]) m[i] = c;
      }
    for (int64_t k = 0; k < n; ++k) {
      exp_minus_each(x + k * inner, m, e + k * inner, inner);
      for (int64_t i = 0; i < inner; ++i) sum[i] += e[k * inner + i];
    }
    if (log) {
      for (int64_t i = 0; i < inner; ++i) sum[i] = std::log(sum[i]);
      for (int64_t k = 0; k < n; ++k)
        for (int64_t i = 0; i < inner; ++i) y[k * inner + i] = static_cast<float>((x[k * inner + i] - m[i]) - sum[i]);
      return;
    }
    for (int64_t k = 0; k < n; ++k)
      for (int64_t i = 0; i < inner; ++i) y[k * inner + i] = static_cast<float>(e[k * inner + i] / sum[i]);
  }
};

}  // namespace

void softmax_line(const float* x, float* y, int64_t n, double* e) {
  double m = line_maximum(x, n);
  exp_minus(x, m, e, n);
  scale_to_float(e, 1.0 / line_sum(e, n), y, n);
}

namespace {
// Softmax, or LogSoftmax with `log`: the node's record says which.
template <bool log>
std::unique_ptr<FastKernel> make_softmax(const FastKernelRequest& r) {
  const Node& n = *r.node;
  if (n.inputs.size() != 1 || n.outputs.size() != 1 || !input_is_float(r, 0)) return nullptr;
  std::optional<SoftmaxParams> p = try_params<SoftmaxParams>(n, r.version);
  if (!p) return nullptr;
  auto k = std::make_unique<SoftmaxKernel>();
  k->label = n.label();
  k->version = r.version;
  k->log = log;
  k->coerced_2d = p->coerced_2d;
  k->axis = p->axis;
  return k;
}

}  // namespace

SONNX_FAST_KERNEL("", "Softmax", (1, 11, 13), make_softmax<false>);
SONNX_FAST_KERNEL("", "LogSoftmax", (1, 11, 13), make_softmax<true>);

}  // namespace sonnx::fast
