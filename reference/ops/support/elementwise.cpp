// Relies on ops/ops.mlw Broadcast.broadcast_comm: multidirectional broadcasting is commutative.
// Relies on ops/ops.mlw Broadcast.broadcast_assoc: multidirectional broadcasting is associative where defined.
// Relies on ops/ops.mlw Index.bidx_valid: broadcast indices are valid in each operand.
#include "elementwise.h"

#include "indexing.h"

namespace sonnx::support {

Shape broadcast_shapes(const OpContext& ctx, const Shape& a, const Shape& b) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) ctx.fail("shapes " + shape_str(a) + " and " + shape_str(b) + " cannot be broadcast");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

Shape broadcast_shapes(const OpContext& ctx, const std::vector<Shape>& shapes) {
  Shape out;
  for (const auto& s : shapes) out = broadcast_shapes(ctx, out, s);
  return out;
}

std::vector<int64_t> broadcast_index_map(const Shape& in_shape, const Shape& out_shape) {
  size_t rank = out_shape.size();
  size_t offset = rank - in_shape.size();
  auto in_strides = strides_of(in_shape);
  // Effective stride per output dim: 0 where the input dim is missing or 1 (repeated).
  std::vector<int64_t> eff(rank, 0);
  for (size_t i = offset; i < rank; ++i) eff[i] = in_shape[i - offset] == 1 ? 0 : in_strides[i - offset];
  std::vector<int64_t> map(static_cast<size_t>(shape_size(out_shape)));
  for_each_index(out_shape, [&](const std::vector<int64_t>& idx, int64_t lin) {
    int64_t src = 0;
    for (size_t d = 0; d < rank; ++d) src += idx[d] * eff[d];
    map[static_cast<size_t>(lin)] = src;
  });
  return map;
}

Tensor broadcast_to(const Tensor& t, const Shape& out_shape) {
  return take(t, out_shape, broadcast_index_map(t.shape(), out_shape));  // any element type
}

Tensor legacy_broadcast(const OpContext& ctx, const Tensor& a, const Tensor& b) {
  if (ctx.attr_int("broadcast", 0) == 0) {
    if (a.shape() != b.shape())
      ctx.fail("shapes " + shape_str(a.shape()) + " and " + shape_str(b.shape()) + " differ and broadcast=0");
    return b;
  }
  int64_t rank_a = a.rank(), rank_b = b.rank();
  if (rank_b > rank_a) ctx.fail("legacy broadcast: B has higher rank than A");
  int64_t axis = ctx.has_attr("axis") ? ctx.attr_int("axis", 0) : rank_a - rank_b;
  if (axis < 0) axis += rank_a;
  // A scalar-like B of one element broadcasts everywhere.
  if (b.size() == 1) return broadcast_to(b.reshaped({}), a.shape());
  if (axis < 0 || axis + rank_b > rank_a) ctx.fail("legacy broadcast: axis out of range");
  Shape b_full(static_cast<size_t>(rank_a), 1);
  for (int64_t i = 0; i < rank_b; ++i) {
    int64_t d = b.dim(i);
    if (d != a.dim(axis + i) && d != 1)
      ctx.fail("legacy broadcast: shapes " + shape_str(a.shape()) + " and " + shape_str(b.shape()) + " do not match at axis");
    b_full[static_cast<size_t>(axis + i)] = d;
  }
  return broadcast_to(b.reshaped(b_full), a.shape());
}

}  // namespace sonnx::support
