// Gemm: Y = alpha * A' * B' + beta * C with A' = transpose(A) if transA, B' = transpose(B) if
// transB; A' is [M, K], B' is [K, N], Y is [M, N].
// Versions 1 and 6: C is required and must be [M, N] unless broadcast=1, which lets it broadcast
// to [M, N]. Versions 7 and 9: C broadcasts unidirectionally to [M, N] (9 adds integer types).
// Versions 11 and 13: C is optional (absent = 0); 13 adds bfloat16.
// Floating types: products and sums in double, rounded once. Integer types: A'B' accumulates with
// two's-complement wraparound; integral alpha/beta (the usual 1 and 1) scale with wraparound too,
// other values are applied in double and the result converted as Cast does (truncation,
// saturating) — ONNX does not say how a float alpha meets an integer product.
#include "op_params.h"
#include "params/gemm.h"
#include "support/elementwise.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;

namespace {

// Index map of C into [M, N], traps unless C broadcasts unidirectionally to [M, N].
std::vector<int64_t> c_index_map(const OpContext& ctx, const Shape& c, int64_t M, int64_t N) {
  if (c.size() > 2) ctx.fail("C " + shape_str(c) + " cannot broadcast to [" + std::to_string(M) + "," + std::to_string(N) + "]");
  Shape out = {M, N};
  for (size_t i = 0; i < c.size(); ++i) {
    int64_t want = out[2 - c.size() + i];
    if (c[i] != 1 && c[i] != want)
      ctx.fail("C " + shape_str(c) + " cannot broadcast to [" + std::to_string(M) + "," + std::to_string(N) + "]");
  }
  return broadcast_index_map(c, out);
}

std::vector<Value> gemm(OpContext& ctx) {
  const Tensor& a = ctx.input(0);
  const Tensor& b = ctx.input(1);
  GemmParams p = GemmParams::read(ctx, ctx.version());
  GemmParams::Dims d;
  if (std::string why = p.dims(a.shape(), b.shape(), d); !why.empty()) ctx.fail(why);
  if (a.dtype() != b.dtype()) ctx.fail("A and B have different element types");
  bool ta = p.trans_a, tb = p.trans_b;
  double alpha = p.alpha, beta = p.beta;
  int64_t M = d.M, K = d.K, N = d.N;
  // Strides that read A' and B' from the stored matrices.
  int64_t a_sm = ta ? 1 : K, a_sk = ta ? M : 1;
  int64_t b_sk = tb ? 1 : N, b_sn = tb ? K : 1;

  const Tensor* c = ctx.has_input(2) ? &ctx.input(2) : nullptr;
  std::vector<int64_t> cmap;
  if (c) {
    if (c->dtype() != a.dtype()) ctx.fail("C has a different element type from A");
    if (!p.c_broadcasts && c->shape() != Shape{M, N})
      ctx.fail("C " + shape_str(c->shape()) + " must be [" + std::to_string(M) + "," + std::to_string(N) + "] when broadcast=0");
    cmap = c_index_map(ctx, c->shape(), M, N);
  }

  return one(visit_real(ctx, a.dtype(), [&]<class T>() {
    Tensor y(a.dtype(), {M, N});
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    const T* pc = c ? c->data<T>() : nullptr;
    T* py = y.data<T>();
    if constexpr (is_floating_v<T>) {
      for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
          double acc = 0;
          for (int64_t k = 0; k < K; ++k)
            acc += static_cast<double>(static_cast<compute_t<T>>(pa[m * a_sm + k * a_sk])) *
                   static_cast<double>(static_cast<compute_t<T>>(pb[k * b_sk + n * b_sn]));
          double v = alpha * acc;
          if (pc) v += beta * static_cast<double>(static_cast<compute_t<T>>(pc[cmap[static_cast<size_t>(m * N + n)]]));
          py[m * N + n] = to_storage<T>(v);
        }
    } else {
      using U = wide_unsigned_t<T>;
      bool integral = alpha == std::trunc(alpha) && beta == std::trunc(beta) && std::fabs(alpha) < 9.2e18 &&
                      std::fabs(beta) < 9.2e18;
      U ua = integral ? static_cast<U>(static_cast<int64_t>(alpha)) : U(0);
      U ub = integral ? static_cast<U>(static_cast<int64_t>(beta)) : U(0);
      for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
          U acc = 0;
          for (int64_t k = 0; k < K; ++k)
            acc = static_cast<U>(
                acc + static_cast<U>(static_cast<U>(pa[m * a_sm + k * a_sk]) * static_cast<U>(pb[k * b_sk + n * b_sn])));
          U cv = pc ? static_cast<U>(pc[cmap[static_cast<size_t>(m * N + n)]]) : U(0);
          if (integral) {
            py[m * N + n] = static_cast<T>(static_cast<U>(static_cast<U>(ua * acc) + static_cast<U>(ub * cv)));
          } else {
            double v = alpha * static_cast<double>(static_cast<T>(acc)) + beta * static_cast<double>(static_cast<T>(cv));
            py[m * N + n] = saturating_cast<T>(std::trunc(v));
          }
        }
    }
    return y;
  }));
}
}  // namespace
// One kernel: GemmParams says whether C must be [M, N] (versions 1 and 6 without broadcast).
SONNX_PARAMS("", "Gemm", (1, 6, 7, 9, 11, 13), GemmParams);
SONNX_KERNEL("", "Gemm", 1, gemm, Accuracy::Rounding);
SONNX_KERNEL("", "Gemm", 7, gemm, Accuracy::Rounding);
namespace {
// [M, N] from A (M x K, or K x M with transA) and B (K x N, or N x K with transB); C broadcasts to it.
void gemm_shape(InferContext& ctx) {
  DType t = common_elem(ctx, {0, 1, 2});
  const Dims* a = ctx.input_shape(0);
  const Dims* b = ctx.input_shape(1);
  require_rank(ctx, 0, 2, "A");
  require_rank(ctx, 1, 2, "B");
  GemmParams p = GemmParams::read(ctx, ctx.version());
  bool ta = p.trans_a, tb = p.trans_b;
  Dim m = a ? (*a)[ta ? 1 : 0] : Dim{}, ka = a ? (*a)[ta ? 0 : 1] : Dim{};
  Dim n = b ? (*b)[tb ? 0 : 1] : Dim{}, kb = b ? (*b)[tb ? 1 : 0] : Dim{};
  unify_dim(ctx, ka, kb, "the contracted dimensions of A and B");
  Dims out{m, n};
  if (const Dims* c = ctx.input_shape(2)) {
    auto bc = broadcast_shapes(ctx, {&out, c});
    if (bc->size() != 2) ctx.fail("C does not broadcast to [M, N]");
  }
  ctx.set_output(0, t, out);
}
}  // namespace
SONNX_SHAPE_RULE("", "Gemm", (1, 6, 7, 9, 11, 13), gemm_shape);
}  // namespace sonnx
