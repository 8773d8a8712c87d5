// ReduceMean: the arithmetic mean of the elements along the given axes; keepdims (default 1) keeps the reduced
// dims as size 1. Versions 1, 11 and 13 take `axes` as an attribute (absent or empty = all axes;
// version 11 documents negative axes, which the kernel accepts in every version).
// Version 18 takes `axes` as an optional int64 input instead; when it is absent or empty the
// tensor is reduced over all axes, or returned unchanged if noop_with_empty_axes=1.
// Empty reduction: NaN (0/0) for floating types; a trap for integers (division by zero).
// Integers: the exact mean truncated toward zero.
// Floating types are reduced in double and rounded once to the element type (support/reduce.h).
// Relies on ops/reduce.mlw Reduce.mean_is_sum_div_count: ReduceMean equals ReduceSum divided by the number of reduced elements.
#include "op_params.h"
#include "params/reduce.h"
#include "support/shape.h"
#include "support/indexing.h"
#include "support/reduce.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> reduce_Mean(OpContext& ctx) { return reduce_kernel(ctx, ReduceKind::Mean); }
}  // namespace
SONNX_PARAMS("", "ReduceMean", (1, 11, 13, 18), ReduceParams);
SONNX_KERNEL("", "ReduceMean", 1, reduce_Mean, Accuracy::Rounding);
SONNX_KERNEL("", "ReduceMean", 18, reduce_Mean, Accuracy::Rounding);
namespace {
void reduce_mean_shape(InferContext& ctx) { reduce_rule(ctx, ctx.input_elem(0)); }
}  // namespace
SONNX_SHAPE_RULE("", "ReduceMean", (1, 11, 13, 18), reduce_mean_shape);
}  // namespace sonnx
