// ScatterElements: writes updates into a copy of data at positions whose `axis` coordinate comes
// from indices (see scatter_elements). Version 16 adds reduction = none / add / mul, version 18
// max / min (NaN propagates; for bool max = or, min = and).
// from indices (see scatter_elements). Version 16 adds reduction = none / add / mul.
#include "op_params.h"
#include "params/scatter.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> scatter_elements(OpContext& ctx) {
  ScatterParams p = ScatterParams::read(ctx, ctx.version());
  return one(support::scatter_elements(ctx, ctx.input(0), ctx.input(1), ctx.input(2), p.axis, p.reduction));
}
}  // namespace
SONNX_PARAMS("", "ScatterElements", (11, 13, 16, 18), ScatterParams);
SONNX_KERNEL("", "ScatterElements", 11, scatter_elements, Accuracy::Exact);
// With reduction add/mul the result is floating-point arithmetic.
SONNX_KERNEL("", "ScatterElements", 16, scatter_elements, Accuracy::Rounding);
SONNX_KERNEL("", "ScatterElements", 18, scatter_elements, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "ScatterElements", (11, 13, 16, 18), same_as_input_rule);
}  // namespace sonnx
