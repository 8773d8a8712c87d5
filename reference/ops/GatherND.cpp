// GatherND: indices is a tensor of index tuples of length k = indices.shape[-1] into data
// (after b = batch_dims leading batch dimensions shared by data and indices, version 12+); each
// tuple selects an element or a slice data[batch..., tuple, :]. Output shape:
// indices.shape[:-1] + data.shape[b+k:]. Negative indices count from the end; out of range traps.
#include "op_params.h"
#include "params/indexing.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> gather_nd(OpContext& ctx) {
  const Tensor& data = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  int64_t r = data.rank(), q = indices.rank();
  int64_t b = GatherNDParams::read(ctx, ctx.version()).batch_dims;
  if (r < 1 || q < 1) ctx.fail("data and indices must have rank >= 1");
  if (b < 0 || b >= std::min(q, r)) ctx.fail("batch_dims must be in [0, min(rank(data), rank(indices)))");
  for (int64_t d = 0; d < b; ++d)
    if (data.dim(d) != indices.dim(d)) ctx.fail("batch dimensions of data and indices differ");
  int64_t k = indices.dim(q - 1);
  if (k < 1 || k > r - b) ctx.fail("indices.shape[-1] must be in [1, rank(data) - batch_dims]");
  std::vector<int64_t> idx = int_values(ctx, indices, "indices");

  Shape out_shape(indices.shape().begin(), indices.shape().end() - 1);
  out_shape.insert(out_shape.end(), data.shape().begin() + b + k, data.shape().end());
  int64_t batches = element_count(data.shape(), 0, static_cast<size_t>(b));
  int64_t tuples_per_batch = element_count(indices.shape(), static_cast<size_t>(b), static_cast<size_t>(q - 1));
  int64_t slice = element_count(data.shape(), static_cast<size_t>(b + k), static_cast<size_t>(r));
  int64_t batch_stride = element_count(data.shape(), static_cast<size_t>(b), static_cast<size_t>(r));
  auto strides = strides_of(data.shape());

  std::vector<int64_t> map;
  map.reserve(static_cast<size_t>(shape_size(out_shape)));
  for (int64_t bi = 0; bi < batches; ++bi)
    for (int64_t t = 0; t < tuples_per_batch; ++t) {
      const int64_t* tuple = idx.data() + (bi * tuples_per_batch + t) * k;
      int64_t base = bi * batch_stride;
      for (int64_t j = 0; j < k; ++j)
        base += checked_index(ctx, tuple[j], data.dim(b + j), "index") * strides[static_cast<size_t>(b + j)];
      for (int64_t i = 0; i < slice; ++i) map.push_back(base + i);
    }
  return one(take(data, out_shape, map));
}
}  // namespace
SONNX_PARAMS("", "GatherND", (11, 12, 13), GatherNDParams);
SONNX_KERNEL("", "GatherND", 11, gather_nd, Accuracy::Exact);
namespace {
// indices[:-1] + data[batch_dims + indices[-1]:], the batch dims in front.
void gather_nd_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  const Dims* x = ctx.input_shape(0);
  const Dims* idx = ctx.input_shape(1);
  int64_t b = GatherNDParams::read(ctx, ctx.version()).batch_dims;
  if (!x || !idx || idx->empty() || !idx->back().value) {
    ctx.set_output(0, t, std::nullopt);
    return;
  }
  int64_t r = static_cast<int64_t>(x->size()), q = static_cast<int64_t>(idx->size());
  int64_t last = *idx->back().value;
  if (b < 0 || b >= std::min(r, q)) ctx.fail("batch_dims " + std::to_string(b) + " is out of range");
  if (last < 1 || last > r - b) ctx.fail("the last indices dimension " + std::to_string(last) + " is out of range");
  Dims out(idx->begin(), idx->end() - 1);
  out.insert(out.end(), x->begin() + b + last, x->end());
  ctx.set_output(0, t, out);
}
}  // namespace
SONNX_SHAPE_RULE("", "GatherND", (11, 12, 13), gather_nd_shape);
}  // namespace sonnx
