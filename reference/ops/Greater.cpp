// Greater: elementwise A > B, a bool tensor. Version 1 broadcasts B to A only when broadcast=1
// (legacy broadcasting); from version 7 both inputs broadcast multidirectionally. Version 9 adds
// integer types, 13 bfloat16. Comparisons with NaN are false.
#include "op_params.h"
#include "params/broadcast.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

Tensor greater(OpContext& ctx, const Tensor& a, const Tensor& b) {
  return compare_elementwise(ctx, a, b, [](auto x, auto y) { return x > y; });
}
}  // namespace
SONNX_PARAMS("", "Greater", (1), LegacyBroadcastParams);
SONNX_KERNEL("", "Greater", 1, binary_legacy<greater>, Accuracy::Exact);
SONNX_KERNEL("", "Greater", 7, binary_multidirectional<greater>, Accuracy::Exact);
SONNX_SHAPE_RULE("", "Greater", (1, 7, 9, 13), broadcast_bool_rule);
}  // namespace sonnx
