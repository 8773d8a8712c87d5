// GatherElements: out[p] = data[p with p[axis] replaced by indices[p]]; indices has data's rank
// and gives the output shape. Negative indices count from the end; any index outside data traps.
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> gather_elements(OpContext& ctx) {
  const Tensor& data = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  int64_t rank = data.rank();
  if (rank == 0) ctx.fail("data must have rank >= 1");
  if (indices.rank() != rank) ctx.fail("indices must have the same rank as data");
  int64_t axis = normalize_axis(ctx, ctx.attr_int("axis", 0), rank);
  std::vector<int64_t> idx = int_values(ctx, indices, "indices");
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && indices.dim(d) > data.dim(d))
      ctx.fail("indices shape " + shape_str(indices.shape()) + " exceeds data shape " + shape_str(data.shape()) +
               " outside the axis");
  auto strides = strides_of(data.shape());
  std::vector<int64_t> map(idx.size());
  for_each_index(indices.shape(), [&](const std::vector<int64_t>& p, int64_t lin) {
    int64_t src = 0;
    for (size_t d = 0; d < p.size(); ++d) {
      int64_t coord = static_cast<int64_t>(d) == axis
                          ? checked_index(ctx, idx[static_cast<size_t>(lin)], data.dim(axis), "index")
                          : p[d];
      src += coord * strides[d];
    }
    map[static_cast<size_t>(lin)] = src;
  });
  return one(take(data, indices.shape(), map));
}
}  // namespace
SONNX_KERNEL("", "GatherElements", 11, gather_elements, Accuracy::Exact);
}  // namespace sonnx
