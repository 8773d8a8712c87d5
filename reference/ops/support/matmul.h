// Matrix products (MatMul, Gemm, MatMulInteger, QLinearMatMul): numpy.matmul geometry with
// broadcast batch dimensions.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "elementwise.h"

namespace sonnx::support {

// Batched matrix-product geometry with numpy.matmul semantics: a 1-D A is a row vector [1,K]
// (the 1 is removed from the result), a 1-D B a column vector [K,1] (likewise); the batch
// dimensions (all but the last two) broadcast.
struct MatMulGeometry {
  int64_t M = 0, K = 0, N = 0;
  Shape out_shape;               // the result's shape
  Shape batch_shape;             // broadcast batch dims
  std::vector<int64_t> a_batch;  // for each batch index, the matrix index into A
  std::vector<int64_t> b_batch;  // likewise for B
  Shape a3, b3;                  // A and B viewed as [batches..., M, K] / [..., K, N]
};

inline MatMulGeometry matmul_geometry(const OpContext& ctx, const Shape& a_shape, const Shape& b_shape) {
  if (a_shape.empty() || b_shape.empty()) ctx.fail("MatMul inputs must have rank at least 1");
  MatMulGeometry g;
  Shape a = a_shape, b = b_shape;
  bool a_vec = a.size() == 1, b_vec = b.size() == 1;
  if (a_vec) a.insert(a.begin(), 1);
  if (b_vec) b.push_back(1);
  g.M = a[a.size() - 2];
  g.K = a[a.size() - 1];
  g.N = b[b.size() - 1];
  if (b[b.size() - 2] != g.K) ctx.fail("inner dimensions differ: " + shape_str(a_shape) + " x " + shape_str(b_shape));
  Shape ab(a.begin(), a.end() - 2), bb(b.begin(), b.end() - 2);
  g.batch_shape = broadcast_shapes(ctx, ab, bb);
  g.a_batch = broadcast_index_map(ab, g.batch_shape);
  g.b_batch = broadcast_index_map(bb, g.batch_shape);
  g.out_shape = g.batch_shape;
  if (!a_vec) g.out_shape.push_back(g.M);
  if (!b_vec) g.out_shape.push_back(g.N);
  g.a3 = a;
  g.b3 = b;
  return g;
}

}  // namespace sonnx::support
