// ReduceMax: the maximum of the elements along the given axes; keepdims (default 1) keeps the reduced
// dims as size 1. Versions 1, 11 and 13 take `axes` as an attribute (absent or empty = all axes;
// version 11 documents negative axes, which the kernel accepts in every version).
// Version 12 added int8/uint8, 13 bfloat16; the semantics are unchanged. NaN propagates.
// Empty reduction: -inf for floating types, the lowest value for integers.
// Floating types are reduced in double and rounded once to the element type (util_c.h).
#include "util_c.h"

namespace sonnx {
namespace {
std::vector<Value> reduce_Max_v1(OpContext& ctx) { return util_c::reduce_with_axes_attribute(ctx, util_c::ReduceKind::Max); }
}  // namespace
SONNX_KERNEL("", "ReduceMax", 1, reduce_Max_v1, Accuracy::Exact);
}  // namespace sonnx
