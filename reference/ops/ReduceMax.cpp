// ReduceMax: the maximum of the elements along the given axes; keepdims (default 1) keeps the reduced
// dims as size 1. Versions 1, 11 and 13 take `axes` as an attribute (absent or empty = all axes;
// version 11 documents negative axes, which the kernel accepts in every version).
// Version 12 added int8/uint8, 13 bfloat16; the semantics are unchanged. NaN propagates.
// Version 18 takes `axes` as an optional int64 input instead; when it is absent or empty the
// tensor is reduced over all axes, or returned unchanged if noop_with_empty_axes=1.
// Version 20 adds bool, ordered false < true (Max is "any", Min is "all"; empty: false).
// Empty reduction: -inf for floating types, the lowest value for integers.
// Floating types are reduced in double and rounded once to the element type (support/reduce.h).
#include "op_params.h"
#include "params/reduce.h"
#include "support/shape.h"
#include "support/indexing.h"
#include "support/reduce.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> reduce_Max(OpContext& ctx) { return reduce_kernel(ctx, ReduceKind::Max); }
}  // namespace
SONNX_PARAMS("", "ReduceMax", (1, 11, 12, 13, 18, 20), ReduceParams);
SONNX_KERNEL("", "ReduceMax", 1, reduce_Max, Accuracy::Exact);
SONNX_KERNEL("", "ReduceMax", 18, reduce_Max, Accuracy::Exact);
SONNX_KERNEL("", "ReduceMax", 20, reduce_Max, Accuracy::Exact);
namespace {
void reduce_max_shape(InferContext& ctx) { reduce_rule(ctx, ctx.input_elem(0)); }
}  // namespace
SONNX_SHAPE_RULE("", "ReduceMax", (1, 11, 12, 13, 18, 20), reduce_max_shape);
}  // namespace sonnx
