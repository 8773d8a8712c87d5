// ReduceProd: the product of the elements along the given axes; keepdims (default 1) keeps the reduced
// dims as size 1. Versions 1, 11 and 13 take `axes` as an attribute (absent or empty = all axes;
// version 11 documents negative axes, which the kernel accepts in every version).
// Version 18 takes `axes` as an optional int64 input instead; when it is absent or empty the
// tensor is reduced over all axes, or returned unchanged if noop_with_empty_axes=1.
// Empty reduction: 1. Integers wrap modulo 2^bits.
// Floating types are reduced in double and rounded once to the element type (support/reduce.h).
#include "op_params.h"
#include "params/reduce.h"
#include "support/shape.h"
#include "support/indexing.h"
#include "support/reduce.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> reduce_Prod(OpContext& ctx) { return reduce_kernel(ctx, ReduceKind::Prod); }
}  // namespace
SONNX_PARAMS("", "ReduceProd", (1, 11, 13, 18), ReduceParams);
SONNX_KERNEL("", "ReduceProd", 1, reduce_Prod, Accuracy::Rounding);
SONNX_KERNEL("", "ReduceProd", 18, reduce_Prod, Accuracy::Rounding);
namespace {
void reduce_prod_shape(InferContext& ctx) { reduce_rule(ctx, ctx.input_elem(0)); }
}  // namespace
SONNX_SHAPE_RULE("", "ReduceProd", (1, 11, 13, 18), reduce_prod_shape);
}  // namespace sonnx
