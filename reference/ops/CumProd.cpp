// CumProd-26: running products along an axis (a 0-D int32/int64 input). exclusive=1 leaves out the
// current element (the first product is 1); reverse=1 multiplies from the end. As CumSum does,
// the running product is kept in the element type's arithmetic (float for float16/bfloat16,
// rounding each output); integers wrap.
#include "op_params.h"
#include "params/indexing.h"
#include "support/indexing.h"
#include "support/reduce.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> cumprod(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() == 0) ctx.fail("input must have rank >= 1");
  if (ctx.input(1).rank() != 0) ctx.fail("axis must be a 0-D tensor");
  int64_t axis = normalize_axis(ctx, int_scalar(ctx, ctx.input(1), "axis"), x.rank());
  CumSumParams p = CumSumParams::read(ctx, ctx.version());
  return one(running_along_axis<true>(ctx, x, axis, p.exclusive, p.reverse));
}
}  // namespace
// The attributes of CumSum (exclusive, reverse), with the same meaning: its struct.
SONNX_PARAMS("", "CumProd", (26), CumSumParams);
SONNX_KERNEL("", "CumProd", 26, cumprod, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "CumProd", (26), same_as_input_rule);
}  // namespace sonnx
