// RotaryEmbedding (version 23): rotary positional embeddings. X is (batch, num_heads, seq,
// head_size) or (batch, seq, hidden) with hidden = num_heads * head_size (num_heads attribute
// required then). For each batch b, position s and head h, the first rotary_embedding_dim
// elements of the head's vector v (rd; 0 or unset means head_size; must be even and at most
// head_size) are rotated in rd / 2 pairs, the rest copied unchanged. Pair k (k < rd / 2) is
// (v[k], v[k + rd/2]), or (v[2k], v[2k + 1]) when interleaved = 1, and becomes
//   (cos * x1 - sin * x2,  sin * x1 + cos * x2)
// with cos = cos_cache[p, k], sin = sin_cache[p, k] where p = position_ids[b, s] when the optional
// input position_ids (int64, (batch, seq)) is given (the caches then have shape (max_position,
// rd / 2)), otherwise cos_cache[b, s, k] (caches of shape (batch, seq, rd / 2)). A position out
// of the cache's range traps. The schema's function body computes each product and sum in T;
// this kernel computes in double and rounds once to T.
#include "op_params.h"
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
struct RotaryEmbeddingParams {
  bool interleaved = false;  // pairs (v[2k], v[2k + 1]) rather than (v[k], v[k + rd / 2])
  int64_t num_heads = 0;     // 0 when absent; a 3-D X needs one dividing its hidden size (checked by the kernel)
  // 0: the head size. Even and not negative (checked); at most the head size (checked by the kernel).
  int64_t rotary_embedding_dim = 0;

  static RotaryEmbeddingParams read(const AttrReader& r, int64_t /*version*/) {
    RotaryEmbeddingParams p;
    p.interleaved = r.attr_int("interleaved", 0) != 0;
    p.num_heads = r.attr_int("num_heads", 0);
    p.rotary_embedding_dim = r.attr_int("rotary_embedding_dim", 0);
    if (p.rotary_embedding_dim < 0 || p.rotary_embedding_dim % 2 != 0)
      r.fail("rotary_embedding_dim " + std::to_string(p.rotary_embedding_dim) + " must be even and not negative");
    return p;
  }
};

struct RopeLayout {
  int64_t batch, seq, heads, head_size, rot_dim;
  bool four_d;
  // The linear index of element 0 of the vector of (b, s, h).
  int64_t base(int64_t b, int64_t s, int64_t h) const {
    return four_d ? ((b * heads + h) * seq + s) * head_size : ((b * seq + s) * heads + h) * head_size;
  }
};

RopeLayout rope_layout(OpContext& ctx, const RotaryEmbeddingParams& p, const Tensor& x) {
  RopeLayout l{};
  if (x.rank() == 4) {
    l = {x.dim(0), x.dim(2), x.dim(1), x.dim(3), 0, true};
  } else if (x.rank() == 3) {
    int64_t heads = p.num_heads;
    if (heads < 1 || x.dim(2) % heads != 0)
      ctx.fail("a 3-D input needs a num_heads attribute dividing its hidden size " + std::to_string(x.dim(2)));
    l = {x.dim(0), x.dim(1), heads, x.dim(2) / heads, 0, false};
  } else {
    ctx.fail("X must be 3-D or 4-D, got shape " + shape_str(x.shape()));
  }
  l.rot_dim = p.rotary_embedding_dim;
  if (l.rot_dim == 0) l.rot_dim = l.head_size;
  if (l.rot_dim < 0 || l.rot_dim > l.head_size || l.rot_dim % 2 != 0)
    ctx.fail("rotary_embedding_dim " + std::to_string(l.rot_dim) + " must be even and at most the head size " +
             std::to_string(l.head_size));
  return l;
}

// For each (b, s), the row of the caches to use (row-major over the caches' leading dims).
std::vector<int64_t> cache_rows(OpContext& ctx, const RopeLayout& l, const Tensor& cache) {
  int64_t half = l.rot_dim / 2;
  std::vector<int64_t> rows(static_cast<size_t>(l.batch * l.seq));
  if (ctx.has_input(3)) {
    const Tensor& pos = ctx.input(3);
    require_type(ctx, pos, DType::Int64, "position_ids");
    if (pos.shape() != Shape{l.batch, l.seq}) ctx.fail("position_ids must have shape (batch, sequence_length)");
    if (cache.rank() != 2 || cache.dim(1) != half)
      ctx.fail("with position_ids the caches must have shape (max_position, " + std::to_string(half) + "), got " +
               shape_str(cache.shape()));
    std::vector<int64_t> p = pos.to_int64_vector();
    for (size_t i = 0; i < rows.size(); ++i) {
      if (p[i] < 0 || p[i] >= cache.dim(0))
        ctx.fail("position id " + std::to_string(p[i]) + " is outside the cache of " + std::to_string(cache.dim(0)) + " rows");
      rows[i] = p[i];
    }
    return rows;
  }
  if (cache.shape() != Shape{l.batch, l.seq, half})
    ctx.fail("without position_ids the caches must have shape (batch, sequence_length, " + std::to_string(half) + "), got " +
             shape_str(cache.shape()));
  for (size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<int64_t>(i);
  return rows;
}

std::vector<Value> rotary_embedding(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  RotaryEmbeddingParams p = RotaryEmbeddingParams::read(ctx, ctx.version());
  RopeLayout l = rope_layout(ctx, p, x);
  if (ctx.input(1).shape() != ctx.input(2).shape()) ctx.fail("cos_cache and sin_cache must have the same shape");
  std::vector<int64_t> rows = cache_rows(ctx, l, ctx.input(1));
  std::vector<double> xv = float_values(ctx, x);
  std::vector<double> cosv = float_values(ctx, ctx.input(1));
  std::vector<double> sinv = float_values(ctx, ctx.input(2));
  bool interleaved = p.interleaved;
  int64_t half = l.rot_dim / 2;
  std::vector<double> y = xv;
  for (int64_t b = 0; b < l.batch; ++b)
    for (int64_t s = 0; s < l.seq; ++s) {
      int64_t row = rows[static_cast<size_t>(b * l.seq + s)] * half;
      for (int64_t h = 0; h < l.heads; ++h) {
        int64_t base = l.base(b, s, h);
        for (int64_t k = 0; k < half; ++k) {
          auto i1 = static_cast<size_t>(base + (interleaved ? 2 * k : k));
          auto i2 = static_cast<size_t>(base + (interleaved ? 2 * k + 1 : k + half));
          double c = cosv[static_cast<size_t>(row + k)], sn = sinv[static_cast<size_t>(row + k)];
          y[i1] = c * xv[i1] - sn * xv[i2];
          y[i2] = sn * xv[i1] + c * xv[i2];
        }
      }
    }
  return one(float_tensor(ctx, x.dtype(), x.shape(), y));
}
}  // namespace
SONNX_PARAMS("", "RotaryEmbedding", (23), RotaryEmbeddingParams);
SONNX_KERNEL("", "RotaryEmbedding", 23, rotary_embedding, Accuracy::Rounding);
namespace {
void rotary_embedding_shape(InferContext& ctx) { same_as_input_rule(ctx); }
}  // namespace
SONNX_SHAPE_RULE("", "RotaryEmbedding", (23), rotary_embedding_shape);
}  // namespace sonnx
