// Concat: joins tensors along an axis; all other dimensions must agree. Version 1 defaults the
// axis to 1; from version 4 it is required; negative axes are accepted (documented from 11).
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> concat(OpContext& ctx) {
  if (ctx.num_inputs() == 0) ctx.fail("at least one input is required");
  if (ctx.version() >= 4 && !ctx.has_attr("axis")) ctx.fail("attribute 'axis' is required");
  const Tensor& first = ctx.input(0);
  int64_t rank = first.rank();
  if (rank == 0) ctx.fail("cannot concatenate scalars");
  int64_t axis = normalize_axis(ctx, ctx.attr_int("axis", 1), rank);
  Shape out_shape = first.shape();
  out_shape[static_cast<size_t>(axis)] = 0;
  for (size_t k = 0; k < ctx.num_inputs(); ++k) {
    const Tensor& t = ctx.input(k);
    if (t.dtype() != first.dtype()) ctx.fail("inputs have different element types");
    if (t.rank() != rank) ctx.fail("inputs have different ranks");
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis && t.dim(d) != first.dim(d))
        ctx.fail("input shapes " + shape_str(first.shape()) + " and " + shape_str(t.shape()) +
                 " differ outside the concatenation axis");
    out_shape[static_cast<size_t>(axis)] += t.dim(axis);
  }
  Tensor out(first.dtype(), out_shape);
  // View every tensor as [outer, axis_dim * inner]: each input contributes one contiguous block
  // per outer index.
  int64_t outer = element_count(out_shape, 0, static_cast<size_t>(axis));
  int64_t inner = element_count(out_shape, static_cast<size_t>(axis) + 1, out_shape.size());
  int64_t out_row = out_shape[static_cast<size_t>(axis)] * inner;
  visit_dtype(first.dtype(), [&]<class T>() {
    T* dst = out.data<T>();
    int64_t offset = 0;
    for (size_t k = 0; k < ctx.num_inputs(); ++k) {
      const Tensor& t = ctx.input(k);
      const T* src = t.data<T>();
      int64_t row = t.dim(axis) * inner;
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t j = 0; j < row; ++j) dst[o * out_row + offset + j] = src[o * row + j];
      offset += row;
    }
  });
  return one(std::move(out));
}
}  // namespace
SONNX_KERNEL("", "Concat", 1, concat, Accuracy::Exact);
SONNX_KERNEL("", "Concat", 4, concat, Accuracy::Exact);
}  // namespace sonnx
