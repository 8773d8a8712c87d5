// MatMul: matrix product with numpy.matmul semantics — a 1-D A is a row vector and a 1-D B a
// column vector (the added dimension is removed from the result); leading (batch) dimensions
// broadcast. Version 9 adds integer types (two's-complement wraparound), 13 bfloat16.
// Floating types: products and sums in double, rounded once.
#include <vector>

#include "support/shape.h"
#include "support/matmul.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> matmul(OpContext& ctx) {
  const Tensor& a = ctx.input(0);
  const Tensor& b = ctx.input(1);
  if (a.dtype() != b.dtype()) ctx.fail("A and B have different element types");
  MatMulGeometry g = matmul_geometry(ctx, a.shape(), b.shape());
  int64_t M = g.M, K = g.K, N = g.N;
  int64_t batches = shape_size(g.batch_shape);
  return one(visit_real(ctx, a.dtype(), [&]<class T>() {
    Tensor y(a.dtype(), g.out_shape);
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    T* py = y.data<T>();
    for (int64_t bi = 0; bi < batches; ++bi) {
      const T* ma = pa + g.a_batch[static_cast<size_t>(bi)] * M * K;
      const T* mb = pb + g.b_batch[static_cast<size_t>(bi)] * K * N;
      T* my = py + bi * M * N;
      // Each element's products are summed in the order k = 0, 1, …, K−1; the loops run over a
      // row of accumulators (k outside n) only so that B is read along its rows.
      for (int64_t m = 0; m < M; ++m) {
        if constexpr (is_floating_v<T>) {
          std::vector<double> acc(static_cast<size_t>(N), 0.0);
          for (int64_t k = 0; k < K; ++k) {
            const double x = static_cast<double>(static_cast<compute_t<T>>(ma[m * K + k]));
            const T* row = mb + k * N;
            for (int64_t n = 0; n < N; ++n)
              acc[static_cast<size_t>(n)] += x * static_cast<double>(static_cast<compute_t<T>>(row[n]));
          }
          for (int64_t n = 0; n < N; ++n) my[m * N + n] = to_storage<T>(acc[static_cast<size_t>(n)]);
        } else {
          using U = wide_unsigned_t<T>;
          std::vector<U> acc(static_cast<size_t>(N), 0);
          for (int64_t k = 0; k < K; ++k) {
            const U x = static_cast<U>(ma[m * K + k]);
            const T* row = mb + k * N;
            for (int64_t n = 0; n < N; ++n)
              acc[static_cast<size_t>(n)] = static_cast<U>(acc[static_cast<size_t>(n)] +
                                                           static_cast<U>(x * static_cast<U>(row[n])));
          }
          for (int64_t n = 0; n < N; ++n) my[m * N + n] = static_cast<T>(acc[static_cast<size_t>(n)]);
        }
      }
    }
    return y;
  }));
}
}  // namespace
SONNX_KERNEL("", "MatMul", 1, matmul, Accuracy::Rounding);
namespace {
void matmul_shape(InferContext& ctx) {
  DType t = common_elem(ctx, {0, 1});
  ctx.set_output(0, t, matmul_dims(ctx, ctx.input_shape(0), ctx.input_shape(1)));
}
}  // namespace
SONNX_SHAPE_RULE("", "MatMul", (1, 9, 13), matmul_shape);
}  // namespace sonnx
