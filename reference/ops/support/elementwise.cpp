// Relies on ops/ops.mlw Broadcast.broadcast_comm: multidirectional broadcasting is commutative.
// Relies on ops/ops.mlw Broadcast.broadcast_assoc: multidirectional broadcasting is associative where defined.
// Relies on ops/ops.mlw Index.bidx_valid: broadcast indices are valid in each operand.
#include "elementwise.h"
#include "reference/ops/params/broadcast.h"

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
  LegacyBroadcastParams p = LegacyBroadcastParams::read(ctx, ctx.version());
  Shape b_full;
  if (std::string why = p.b_shape(a.shape(), b.shape(), b_full); !why.empty()) ctx.fail(why);
  if (!p.broadcast) return b;
  return broadcast_to(b.reshaped(b_full), a.shape());
}

}  // namespace sonnx::support
