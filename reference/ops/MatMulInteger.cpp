// MatMulInteger: Y = (A - a_zero_point) x (B - b_zero_point) as int32, with MatMul's numpy
// semantics (1-D operands, broadcast batch dimensions). A and B are int8 or uint8. a_zero_point is
// a scalar or one value per row of A (1-D [M], or [..., M, 1]); b_zero_point a scalar or one per
// column of B (1-D [N], or [..., 1, N]). Each product fits in int32; the sum wraps in 32 bits.
#include "support/shape.h"
#include "support/matmul.h"
#include "support/quantize.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> matmul_integer(OpContext& ctx) {
  const Tensor& a = ctx.input(0);
  const Tensor& b = ctx.input(1);
  for (const Tensor* t : {&a, &b})
    if (t->dtype() != DType::Int8 && t->dtype() != DType::UInt8) ctx.fail("A and B must be int8 or uint8");
  MatMulGeometry g = matmul_geometry(ctx, a.shape(), b.shape());
  int64_t M = g.M, K = g.K, N = g.N;
  std::vector<int64_t> azp = {0}, bzp = {0};
  if (ctx.has_input(2)) {
    if (ctx.input(2).dtype() != a.dtype()) ctx.fail("a_zero_point must have the element type of A");
    azp = matrix_param(ctx, ctx.input(2), a.shape(), true, "a_zero_point").to_int64_vector();
  }
  if (ctx.has_input(3)) {
    if (ctx.input(3).dtype() != b.dtype()) ctx.fail("b_zero_point must have the element type of B");
    bzp = matrix_param(ctx, ctx.input(3), b.shape(), false, "b_zero_point").to_int64_vector();
  }
  std::vector<int64_t> av = a.to_int64_vector(), bv = b.to_int64_vector();
  int64_t batches = shape_size(g.batch_shape);
  Tensor y(DType::Int32, g.out_shape);
  int32_t* py = y.data<int32_t>();
  for (int64_t bi = 0; bi < batches; ++bi) {
    int64_t ma = g.a_batch[static_cast<size_t>(bi)], mb = g.b_batch[static_cast<size_t>(bi)];
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        int64_t za = azp.size() == 1 ? azp[0] : azp[static_cast<size_t>(ma * M + m)];
        int64_t zb = bzp.size() == 1 ? bzp[0] : bzp[static_cast<size_t>(mb * N + n)];
        uint32_t acc = 0;  // 32-bit wraparound
        for (int64_t k = 0; k < K; ++k) {
          int64_t prod = (av[static_cast<size_t>((ma * M + m) * K + k)] - za) *
                         (bv[static_cast<size_t>((mb * K + k) * N + n)] - zb);
          acc += static_cast<uint32_t>(prod);
        }
        py[bi * M * N + m * N + n] = static_cast<int32_t>(acc);
      }
  }
  return one(std::move(y));
}
}  // namespace
SONNX_KERNEL("", "MatMulInteger", 10, matmul_integer, Accuracy::Exact);
namespace {
void matmul_integer_shape(InferContext& ctx) {
  ctx.set_output(0, DType::Int32, matmul_dims(ctx, ctx.input_shape(0), ctx.input_shape(1)));
}
}  // namespace
SONNX_SHAPE_RULE("", "MatMulInteger", (10), matmul_integer_shape);
}  // namespace sonnx
