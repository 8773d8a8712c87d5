// QLinearMatMul: the quantized matrix product (MatMul's numpy semantics)
//   acc = sum_k (a - a_zero_point) * (b - b_zero_point)          (exact integers)
//   y   = saturate(round(acc * a_scale * b_scale / y_scale) + y_zero_point)
// rounding half to even, saturating to y's type. The real-valued product is formed in double
// from the float scales. a's scale and zero point are per tensor or per row (1-D [M] or
// [..., M, 1]); b's per tensor or per column (1-D [N] or [..., 1, N]); y's per tensor.
// Version 21: the scales may be float16 or bfloat16 and a, b and y float8 types. The spec does not
// say in which precision acc * a_scale * b_scale / y_scale is formed; this kernel forms the
// multiplier a_scale * b_scale / y_scale in the scales' type (each operation rounded to it, as the
// scale's type sets the precision in QuantizeLinear-21), then acc times it exactly, as onnx's
// reference evaluator and its backend-test data do. With float8 a or b, acc is the real sum of the
// products of (a - a_zero_point) and (b - b_zero_point), and a float8 y is converted as Cast
// (saturating).
#include "support/cast.h"
#include "support/quantize_linear.h"
#include "support/shape.h"
#include "support/matmul.h"
#include "support/quantize.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> qlinear_matmul(OpContext& ctx) {
  const Tensor& a = ctx.input(0);
  const Tensor& b = ctx.input(3);
  for (const Tensor* t : {&a, &b})
    if (t->dtype() != DType::Int8 && t->dtype() != DType::UInt8) ctx.fail("a and b must be int8 or uint8");
  for (size_t i : {1, 4, 6})
    if (ctx.input(i).dtype() != DType::Float) ctx.fail("scales must be float");
  if (ctx.input(2).dtype() != a.dtype()) ctx.fail("a_zero_point must have the element type of a");
  if (ctx.input(5).dtype() != b.dtype()) ctx.fail("b_zero_point must have the element type of b");
  MatMulGeometry g = matmul_geometry(ctx, a.shape(), b.shape());
  int64_t M = g.M, K = g.K, N = g.N;
  std::vector<double> as = real_values(ctx, matrix_param(ctx, ctx.input(1), a.shape(), true, "a_scale"));
  std::vector<int64_t> azp = matrix_param(ctx, ctx.input(2), a.shape(), true, "a_zero_point").to_int64_vector();
  std::vector<double> bs = real_values(ctx, matrix_param(ctx, ctx.input(4), b.shape(), false, "b_scale"));
  std::vector<int64_t> bzp = matrix_param(ctx, ctx.input(5), b.shape(), false, "b_zero_point").to_int64_vector();
  const Tensor& ys = ctx.input(6);
  const Tensor& yz = ctx.input(7);
  if (ys.size() != 1 || yz.size() != 1) ctx.fail("y_scale and y_zero_point must be scalars");
  double y_scale = ys.as_double(0);
  double y_zp = static_cast<double>(yz.as_int64(0));
  std::vector<int64_t> av = a.to_int64_vector(), bv = b.to_int64_vector();
  int64_t batches = shape_size(g.batch_shape);
  auto pick = [](const auto& v, int64_t i) { return v.size() == 1 ? v[0] : v[static_cast<size_t>(i)]; };
  return one(visit_quant8(ctx, yz.dtype(), [&]<class Q>() {
    Tensor y(yz.dtype(), g.out_shape);
    Q* py = y.data<Q>();
    for (int64_t bi = 0; bi < batches; ++bi) {
      int64_t ma = g.a_batch[static_cast<size_t>(bi)], mb = g.b_batch[static_cast<size_t>(bi)];
      for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
          int64_t za = pick(azp, ma * M + m), zb = pick(bzp, mb * N + n);
          int64_t acc = 0;  // at most K * 255 * 255 in magnitude: no overflow for any real K
          for (int64_t k = 0; k < K; ++k)
            acc += (av[static_cast<size_t>((ma * M + m) * K + k)] - za) * (bv[static_cast<size_t>((mb * K + k) * N + n)] - zb);
          double real = static_cast<double>(acc) * pick(as, ma * M + m) * pick(bs, mb * N + n) / y_scale;
          py[bi * M * N + m * N + n] = saturating_cast<Q>(round_half_even(real) + y_zp);
        }
    }
    return y;
  }));
}
std::vector<Value> qlinear_matmul_v21(OpContext& ctx) {
  const Tensor& a = ctx.input(0);
  const Tensor& b = ctx.input(3);
  const Tensor& ys = ctx.input(6);
  const Tensor& yz = ctx.input(7);
  DType ts = ys.dtype();
  for (size_t i : {1, 4})
    if (ctx.input(i).dtype() != ts) ctx.fail("a_scale, b_scale and y_scale must have one element type");
  if (ctx.input(2).dtype() != a.dtype()) ctx.fail("a_zero_point must have the element type of a");
  if (ctx.input(5).dtype() != b.dtype()) ctx.fail("b_zero_point must have the element type of b");
  if (ys.size() != 1 || yz.size() != 1) ctx.fail("y_scale and y_zero_point must be scalars");
  MatMulGeometry g = matmul_geometry(ctx, a.shape(), b.shape());
  int64_t M = g.M, K = g.K, N = g.N;
  Tensor as = matrix_param(ctx, ctx.input(1), a.shape(), true, "a_scale");
  Tensor az = matrix_param(ctx, ctx.input(2), a.shape(), true, "a_zero_point");
  Tensor bs = matrix_param(ctx, ctx.input(4), b.shape(), false, "b_scale");
  Tensor bz = matrix_param(ctx, ctx.input(5), b.shape(), false, "b_zero_point");
  auto pick = [](const Tensor& t, int64_t i) { return t.as_double(t.size() == 1 ? 0 : i); };
  const double y_scale = ys.as_double(0), y_zp = yz.as_double(0);
  const bool integer = is_quantized_integer(yz.dtype());
  auto [lo, hi] = quantized_range(yz.dtype());
  Tensor y(DType::Double, g.out_shape);
  double* py = y.data<double>();
  int64_t batches = shape_size(g.batch_shape);
  for (int64_t bi = 0; bi < batches; ++bi) {
    int64_t ma = g.a_batch[static_cast<size_t>(bi)], mb = g.b_batch[static_cast<size_t>(bi)];
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        double za = pick(az, ma * M + m), zb = pick(bz, mb * N + n);
        double acc = 0;  // exact for 8-bit integers (|acc| < 2^53 for any real K)
        for (int64_t k = 0; k < K; ++k)
          acc += (a.as_double((ma * M + m) * K + k) - za) * (b.as_double((mb * K + k) * N + n) - zb);
        double scale = round_to_precision(pick(as, ma * M + m) * pick(bs, mb * N + n), ts);
        double v = acc * round_to_precision(scale / y_scale, ts) + y_zp;
        py[bi * M * N + m * N + n] = integer ? (std::isnan(v) ? 0.0 : std::clamp(round_half_even(v), lo, hi)) : v;
      }
  }
  return one(cast_tensor(ctx, y, yz.dtype()));
}
}  // namespace
SONNX_KERNEL("", "QLinearMatMul", 10, qlinear_matmul, Accuracy::Exact);
SONNX_KERNEL("", "QLinearMatMul", 21, qlinear_matmul_v21, Accuracy::Exact);
namespace {
// The output has y_zero_point's element type (input 7).
void qlinear_matmul_shape(InferContext& ctx) {
  ctx.set_output(0, ctx.input_elem(7), matmul_dims(ctx, ctx.input_shape(0), ctx.input_shape(3)));
}
}  // namespace
SONNX_SHAPE_RULE("", "QLinearMatMul", (10, 21), qlinear_matmul_shape);
}  // namespace sonnx
