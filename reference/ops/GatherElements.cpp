// GatherElements: out[p] = data[p with p[axis] replaced by indices[p]]; indices has data's rank
// and gives the output shape. Negative indices count from the end; any index outside data traps.
#include "op_params.h"
#include "params/movement.h"
#include "support/shape.h"
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
  int64_t axis = normalize_axis(ctx, GatherParams::read(ctx, ctx.version()).axis, rank);
  return one(take(data, indices.shape(), axis_index_map(ctx, data.shape(), indices, axis)));
}
}  // namespace
SONNX_PARAMS("", "GatherElements", (11, 13), GatherParams);
SONNX_KERNEL("", "GatherElements", 11, gather_elements, Accuracy::Exact);
namespace {
// The output has the indices' shape; ranks must agree.
void gather_elements_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  const Dims* x = ctx.input_shape(0);
  const Dims* idx = ctx.input_shape(1);
  if (x && idx && x->size() != idx->size()) ctx.fail("data and indices must have the same rank");
  if (x) infer_axis(ctx, GatherParams::read(ctx, ctx.version()).axis, static_cast<int64_t>(x->size()));
  ctx.set_output(0, t, idx ? std::optional<Dims>(*idx) : std::nullopt);
}
}  // namespace
SONNX_SHAPE_RULE("", "GatherElements", (11, 13), gather_elements_shape);
}  // namespace sonnx
