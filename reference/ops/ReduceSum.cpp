// ReduceSum: the sum of the elements along the given axes; keepdims (default 1) keeps the reduced
// dims as size 1. Versions 1 and 11 take `axes` as an attribute (absent or empty = all axes;
// version 11 documents negative axes, which the kernel accepts in both versions).
// Version 13 takes `axes` as an optional int64 input instead; when it is absent or empty the
// tensor is reduced over all axes, or returned unchanged if noop_with_empty_axes=1.
// Empty reduction: 0. Integers wrap modulo 2^bits.
// Floating types are reduced in double and rounded once to the element type (support/reduce.h).
// Relies on ops/reduce.mlw Reduce.reduce_reads_valid: every element ReduceSum adds is an element of X (merge of a valid output index and a valid index of the reduced axes is a valid input index).
#include "op_params.h"
#include "params/reduce.h"
#include "support/shape.h"
#include "support/indexing.h"
#include "support/reduce.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> reduce_Sum(OpContext& ctx) { return reduce_kernel(ctx, ReduceKind::Sum); }
}  // namespace
SONNX_PARAMS("", "ReduceSum", (1, 11, 13), ReduceParams);
SONNX_KERNEL("", "ReduceSum", 1, reduce_Sum, Accuracy::Rounding);
SONNX_KERNEL("", "ReduceSum", 13, reduce_Sum, Accuracy::Rounding);
namespace {
void reduce_sum_shape(InferContext& ctx) { reduce_rule(ctx, ctx.input_elem(0)); }
}  // namespace
SONNX_SHAPE_RULE("", "ReduceSum", (1, 11, 13), reduce_sum_shape);
}  // namespace sonnx
