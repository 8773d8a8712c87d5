// CumSum: running sums along an axis (a scalar input). exclusive=1 leaves out the current element
// (the first sum is 0); reverse=1 sums from the end. Integers wrap; float16/bfloat16 accumulate
// in float and round each output.
#include "op_params.h"
#include "params/indexing.h"
#include "support/shape.h"
#include "support/indexing.h"
#include "support/reduce.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> cumsum(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() == 0) ctx.fail("input must have rank >= 1");
  int64_t axis = normalize_axis(ctx, int_scalar(ctx, ctx.input(1), "axis"), x.rank());
  CumSumParams p = CumSumParams::read(ctx, ctx.version());
  return one(running_along_axis<false>(ctx, x, axis, p.exclusive, p.reverse));
}
}  // namespace
// Floating sums round (the order is fixed, but backends may sum differently).
SONNX_PARAMS("", "CumSum", (11, 14), CumSumParams);
SONNX_KERNEL("", "CumSum", 11, cumsum, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "CumSum", (11, 14), same_as_input_rule);
}  // namespace sonnx
