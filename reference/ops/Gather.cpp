// Gather: picks entries of `data` along `axis` by `indices`; the output shape is
// data.shape[:axis] + indices.shape + data.shape[axis+1:]. Negative indices count from the end
// (documented from version 11); indices outside [-s, s-1] trap.
// Relies on ops/movement.mlw Gather.gather_reads_valid: indices in [-d, d) (negative ones normalised) read inside data.
#include "op_params.h"
#include "params/movement.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> gather(OpContext& ctx) {
  const Tensor& data = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  if (data.rank() == 0) ctx.fail("data must have rank >= 1");
  int64_t axis = normalize_axis(ctx, GatherParams::read(ctx, ctx.version()).axis, data.rank());
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
SONNX_PARAMS("", "Gather", (1, 11, 13), GatherParams);
SONNX_KERNEL("", "Gather", 1, gather, Accuracy::Exact);
namespace {
// data[:axis] + indices + data[axis+1:]; a 1-D partial value gathered with known indices.
void gather_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  DType it = ctx.input_elem(1);
  if (it != DType::Undefined && it != DType::Int32 && it != DType::Int64)
    ctx.fail("indices must be int32 or int64, got " + std::string(dtype_name(it)));
  const Dims* x = ctx.input_shape(0);
  const Dims* idx = ctx.input_shape(1);
  if (!x || !idx) {
    ctx.set_output(0, t, std::nullopt);
    return;
  }
  int64_t r = static_cast<int64_t>(x->size());
  if (r == 0) ctx.fail("data must have rank at least 1");
  int64_t axis = infer_axis(ctx, GatherParams::read(ctx, ctx.version()).axis, r);
  Dims out(x->begin(), x->begin() + axis);
  out.insert(out.end(), idx->begin(), idx->end());
  out.insert(out.end(), x->begin() + axis + 1, x->end());
  ctx.set_output(0, t, out);
  auto p = ctx.input_partial(0);
  auto ind = ctx.input_ints(1);
  if (!p || p->scalar || !ind || idx->size() > 1) return;
  int64_t n = static_cast<int64_t>(p->elems.size());
  PartialValue g;
  g.scalar = idx->empty();
  for (int64_t i : *ind) {
    if (i < -n || i >= n)
      ctx.fail("index " + std::to_string(i) + " is out of range for a dimension of size " + std::to_string(n));
    g.elems.push_back(p->elems[static_cast<size_t>(i < 0 ? i + n : i)]);
  }
  ctx.set_output_partial(0, std::move(g));
}
}  // namespace
SONNX_SHAPE_RULE("", "Gather", (1, 11, 13), gather_shape);
}  // namespace sonnx
