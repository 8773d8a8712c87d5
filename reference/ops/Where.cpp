// Where: elementwise condition ? X : Y, all three inputs broadcasting multidirectionally
// (version 9; 16 adds bfloat16). X and Y may have any element type, including string and complex.
#include "support/shape.h"
#include "support/elementwise.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> where(OpContext& ctx) {
  const Tensor& cond = ctx.input(0);
  const Tensor& x = ctx.input(1);
  const Tensor& y = ctx.input(2);
  require_type(ctx, cond, DType::Bool, "condition");
  require_same_type(ctx, x, y);
  Shape out_shape = broadcast_shapes(ctx, {cond.shape(), x.shape(), y.shape()});
  auto ic = broadcast_index_map(cond.shape(), out_shape);
  auto ix = broadcast_index_map(x.shape(), out_shape);
  auto iy = broadcast_index_map(y.shape(), out_shape);
  Tensor out(x.dtype(), out_shape);
  const bool* pc = cond.data<bool>();
  visit_element_width(x.dtype(), [&]<size_t N>() {  // a selection: any element type
    for (int64_t i = 0; i < out.size(); ++i) {
      auto k = static_cast<size_t>(i);
      if (pc[ic[k]]) move_element<N>(x, ix[k], out, i);
      else move_element<N>(y, iy[k], out, i);
    }
  });
  return one(std::move(out));
}
}  // namespace
SONNX_KERNEL("", "Where", 9, where, Accuracy::Exact);
namespace {
void where_shape(InferContext& ctx) {
  DType c = ctx.input_elem(0);
  if (c != DType::Undefined && c != DType::Bool) ctx.fail("the condition must be bool, got " + std::string(dtype_name(c)));
  DType t = common_elem(ctx, {1, 2});
  ctx.set_output(0, t, broadcast_shapes(ctx, {ctx.input_shape(0), ctx.input_shape(1), ctx.input_shape(2)}));
}
}  // namespace
SONNX_SHAPE_RULE("", "Where", (9, 16), where_shape);
}  // namespace sonnx
