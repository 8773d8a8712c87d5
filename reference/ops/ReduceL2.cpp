// ReduceL2: the square root of the sum of squares (L2 norm) along the given axes; keepdims (default 1) keeps the reduced
// dims as size 1. Versions 1, 11 and 13 take `axes` as an attribute (absent or empty = all axes;
// version 11 documents negative axes, which the kernel accepts in every version).
// Version 18 takes `axes` as an optional int64 input instead; when it is absent or empty the
// tensor is reduced over all axes, or over no axis if noop_with_empty_axes=1 (the element step
// of a composite reduction still applies, e.g. ReduceLogSum gives log x).
// Empty reduction: 0. Integers: computed in double, truncated like Cast.
// Floating types are reduced in double and rounded once to the element type (support/reduce.h).
#include "op_params.h"
#include "params/reduce.h"
#include "support/shape.h"
#include "support/indexing.h"
#include "support/reduce.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> reduce_L2(OpContext& ctx) { return reduce_kernel(ctx, ReduceKind::L2); }
}  // namespace
SONNX_PARAMS("", "ReduceL2", (1, 11, 13, 18), ReduceParams);
SONNX_KERNEL("", "ReduceL2", 1, reduce_L2, Accuracy::Rounding);
SONNX_KERNEL("", "ReduceL2", 18, reduce_L2, Accuracy::Rounding);
namespace {
void reduce_l2_shape(InferContext& ctx) { reduce_rule(ctx, ctx.input_elem(0)); }
}  // namespace
SONNX_SHAPE_RULE("", "ReduceL2", (1, 11, 13, 18), reduce_l2_shape);
}  // namespace sonnx
