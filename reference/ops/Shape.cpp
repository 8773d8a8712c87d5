// Shape: the input's dimensions as a 1-D int64 tensor. Version 15 adds start/end (negative values
// count from the back; both clamp to [0, rank]) to return a part of the shape.
// Relies on ops/shape_ops.mlw ShapeOp.shape_reads_valid: after normalisation and clamping of start and end to [0, rank], Shape reads only dimensions of the input.
#include "op_params.h"
#include "params/indexing.h"
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> shape(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  int64_t rank = x.rank();
  int64_t start = 0, end = rank;
  ShapeParams::read(ctx, ctx.version()).range(rank, start, end);
  std::vector<int64_t> dims;
  for (int64_t d = start; d < end; ++d) dims.push_back(x.dim(d));
  return one(Tensor::from_vector<int64_t>({static_cast<int64_t>(dims.size())}, dims));
}
}  // namespace
SONNX_PARAMS("", "Shape", (1, 13, 15, 19, 21, 23, 24, 25), ShapeParams);
SONNX_KERNEL("", "Shape", 1, shape, Accuracy::Exact);
SONNX_KERNEL("", "Shape", 15, shape, Accuracy::Exact);

// Versions 19, 21, 23, 24, 25 only widen the type lists (the documents' text and
// structure are unchanged): the same kernel.
SONNX_KERNEL("", "Shape", 19, shape, Accuracy::Exact);
SONNX_KERNEL("", "Shape", 21, shape, Accuracy::Exact);
SONNX_KERNEL("", "Shape", 23, shape, Accuracy::Exact);
SONNX_KERNEL("", "Shape", 24, shape, Accuracy::Exact);
SONNX_KERNEL("", "Shape", 25, shape, Accuracy::Exact);
namespace {
// The input's dims as a 1-D int64 value; from version 15 the slice [start, end) of them (clamped).
void shape_shape(InferContext& ctx) {
  const Dims* x = ctx.input_shape(0);
  if (!x) {
    ctx.set_output(0, DType::Int64, Dims{Dim{}});
    return;
  }
  int64_t r = static_cast<int64_t>(x->size());
  int64_t start = 0, end = r;
  ShapeParams::read(ctx, ctx.version()).range(r, start, end);
  PartialValue p;
  for (int64_t i = start; i < end; ++i) p.elems.push_back((*x)[static_cast<size_t>(i)]);
  ctx.set_output(0, DType::Int64, Dims{known_dim(static_cast<int64_t>(p.elems.size()))});
  ctx.set_output_partial(0, std::move(p));
}
}  // namespace
SONNX_SHAPE_RULE("", "Shape", (1, 13, 15, 19, 21, 23, 24, 25), shape_shape);
}  // namespace sonnx
