// ScatterND: a copy of data where each index tuple indices[i] (length k = indices.shape[-1])
// receives the slice updates[i] (an element when k = rank(data), else data.shape[k:]), replacing
// it or, from version 16, combined with it by reduction "add" / "mul" (version 18 adds "max" /
// "min": NaN propagates; for bool max = or, min = and). Updates apply in
// row-major order of i. updates.shape must be indices.shape[:-1] + data.shape[k:]. Negative
// indices count from the end (as in GatherND); out of range traps.
#include "op_params.h"
#include "params/scatter.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> scatter_nd(OpContext& ctx) {
  const Tensor& data = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  const Tensor& updates = ctx.input(2);
  Reduction reduction = ScatterParams::read(ctx, ctx.version()).reduction;
  int64_t r = data.rank(), q = indices.rank();
  if (r < 1 || q < 1) ctx.fail("data and indices must have rank >= 1");
  if (updates.dtype() != data.dtype()) ctx.fail("updates and data have different element types");
  int64_t k = indices.dim(q - 1);
  if (k < 1 || k > r) ctx.fail("indices.shape[-1] must be in [1, rank(data)]");
  Shape want(indices.shape().begin(), indices.shape().end() - 1);
  want.insert(want.end(), data.shape().begin() + k, data.shape().end());
  if (updates.shape() != want) ctx.fail("updates has shape " + shape_str(updates.shape()) + ", expected " + shape_str(want));
  ScatterSlices slices = scatter_nd_slices(ctx, data.shape(),
                                           indices);  // not a structured binding: the lambdas capture it (clang 14)
  const std::vector<int64_t>& base = slices.base;     // where each tuple's slice starts
  int64_t tuples = static_cast<int64_t>(base.size()), slice = slices.slice;
  Tensor out = data;
  if (reduction == Reduction::None) {  // a plain copy: any element type
    visit_element_width(data.dtype(), [&]<size_t N>() {
      for (int64_t t = 0; t < tuples; ++t)
        for (int64_t i = 0; i < slice; ++i) move_element<N>(updates, t * slice + i, out, base[static_cast<size_t>(t)] + i);
    });
    return one(std::move(out));
  }
  visit_dtype(data.dtype(), [&]<class T>() {
    T* dst = out.data<T>();
    const T* src = updates.data<T>();
    for (int64_t t = 0; t < tuples; ++t)
      for (int64_t i = 0; i < slice; ++i) {
        int64_t at = base[static_cast<size_t>(t)] + i;
        dst[at] = reduce_values<T>(ctx, reduction, dst[at], src[t * slice + i]);
      }
  });
  return one(std::move(out));
}
}  // namespace
SONNX_PARAMS("", "ScatterND", (11, 13, 16, 18), ScatterParams);
SONNX_KERNEL("", "ScatterND", 11, scatter_nd, Accuracy::Exact);
// With reduction add/mul the result is floating-point arithmetic.
SONNX_KERNEL("", "ScatterND", 16, scatter_nd, Accuracy::Rounding);
SONNX_KERNEL("", "ScatterND", 18, scatter_nd, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "ScatterND", (11, 13, 16, 18), same_as_input_rule);
}  // namespace sonnx
