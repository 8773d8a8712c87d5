// Gather: picks entries of `data` along `axis` by `indices`; the output shape is
// data.shape[:axis] + indices.shape + data.shape[axis+1:]. Negative indices count from the end
// (documented from version 11); indices outside [-s, s-1] trap.
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> gather(OpContext& ctx) {
  const Tensor& data = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  if (data.rank() == 0) ctx.fail("data must have rank >= 1");
  int64_t axis = normalize_axis(ctx, ctx.attr_int("axis", 0), data.rank());
  std::vector<int64_t> idx = int_values(ctx, indices, "indices");
  int64_t dim = data.dim(axis);
  for (auto& i : idx) i = checked_index(ctx, i, dim, "index");

  Shape out_shape(data.shape().begin(), data.shape().begin() + axis);
  out_shape.insert(out_shape.end(), indices.shape().begin(), indices.shape().end());
  out_shape.insert(out_shape.end(), data.shape().begin() + axis + 1, data.shape().end());
  int64_t outer = element_count(data.shape(), 0, static_cast<size_t>(axis));
  int64_t inner = element_count(data.shape(), static_cast<size_t>(axis) + 1, data.shape().size());
  std::vector<int64_t> map;
  map.reserve(static_cast<size_t>(shape_size(out_shape)));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k : idx)
      for (int64_t i = 0; i < inner; ++i) map.push_back((o * dim + k) * inner + i);
  return one(take(data, out_shape, map));
}
}  // namespace
SONNX_KERNEL("", "Gather", 1, gather, Accuracy::Exact);
}  // namespace sonnx
