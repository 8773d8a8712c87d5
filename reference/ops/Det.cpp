// Det (version 11): determinants of the square matrices in the last two dims of X [*, M, M];
// Y has shape [*] (a scalar for a 2-D X). Computed in double by Gaussian elimination with partial
// pivoting (det = product of the pivots, sign flipped per row swap) and rounded once to the element
// type. M = 0 gives 1 (the empty product). A matrix containing NaN gives NaN.
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
double determinant(std::vector<double> a, int64_t m) {
  auto at = [&](int64_t r, int64_t c) -> double& { return a[static_cast<size_t>(r * m + c)]; };
  for (double e : a)
    if (std::isnan(e)) return e;
  double det = 1;
  for (int64_t k = 0; k < m; ++k) {
    int64_t pivot = k;
    for (int64_t r = k + 1; r < m; ++r)
      if (std::fabs(at(r, k)) > std::fabs(at(pivot, k))) pivot = r;
    if (at(pivot, k) == 0) return 0;  // singular (the sign of zero is not significant here)
    if (pivot != k) {
      for (int64_t c = 0; c < m; ++c) std::swap(at(k, c), at(pivot, c));
      det = -det;
    }
    det *= at(k, k);
    for (int64_t r = k + 1; r < m; ++r) {
      double f = at(r, k) / at(k, k);
      for (int64_t c = k; c < m; ++c) at(r, c) -= f * at(k, c);
    }
  }
  return det;
}

std::vector<Value> det(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() < 2) ctx.fail("input must have shape [*, M, M]");
  int64_t m = x.dim(x.rank() - 1);
  if (x.dim(x.rank() - 2) != m) ctx.fail("the last two dims must be equal, got " + shape_str(x.shape()));
  Shape out_shape(x.shape().begin(), x.shape().end() - 2);
  int64_t batch = shape_size(out_shape);
  std::vector<double> xv = float_values(ctx, x);
  std::vector<double> y(static_cast<size_t>(batch));
  auto mm = static_cast<size_t>(m * m);
  for (size_t b = 0; b < y.size(); ++b) {
    std::vector<double> mat(xv.begin() + static_cast<std::ptrdiff_t>(b * mm),
                            xv.begin() + static_cast<std::ptrdiff_t>((b + 1) * mm));
    y[b] = determinant(std::move(mat), m);
  }
  return one(float_tensor(ctx, x.dtype(), out_shape, y));
}
}  // namespace
SONNX_KERNEL("", "Det", 11, det, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "Det", 22, det, Accuracy::Rounding);
namespace {
// The batch dims of a stack of square matrices.
void det_shape(InferContext& ctx) {
  const Dims* x = ctx.input_shape(0);
  if (!x) return ctx.set_output(0, ctx.input_elem(0), std::nullopt);
  if (x->size() < 2) ctx.fail("the input must have rank at least 2");
  unify_dim(ctx, (*x)[x->size() - 1], (*x)[x->size() - 2], "the matrices must be square");
  ctx.set_output(0, ctx.input_elem(0), Dims(x->begin(), x->end() - 2));
}
}  // namespace
SONNX_SHAPE_RULE("", "Det", (11, 22), det_shape);
}  // namespace sonnx
