// GreaterOrEqual: elementwise A >= B, a bool tensor, with multidirectional broadcasting (version 12;
// 16 adds bfloat16). Comparisons with NaN are false.
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

Tensor greater_or_equal(OpContext& ctx, const Tensor& a, const Tensor& b) {
  return compare_elementwise(ctx, a, b, [](auto x, auto y) { return x >= y; });
}
}  // namespace
SONNX_KERNEL("", "GreaterOrEqual", 12, binary_multidirectional<greater_or_equal>, Accuracy::Exact);
SONNX_SHAPE_RULE("", "GreaterOrEqual", (12, 16), broadcast_bool_rule);
}  // namespace sonnx
