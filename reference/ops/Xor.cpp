// Xor: elementwise logical exclusive or of two bool tensors. Version 1 broadcasts B to A only when broadcast=1 (legacy
// broadcasting); from version 7 both inputs broadcast multidirectionally.
#include "op_params.h"
#include "params/broadcast.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

Tensor xor_tensors(OpContext& ctx, const Tensor& a, const Tensor& b) {
  require_type(ctx, a, DType::Bool, "input A");
  require_type(ctx, b, DType::Bool, "input B");
  return binary_elementwise<bool, bool>(ctx, a, b, [](bool x, bool y) { return x != y; });
}
}  // namespace
SONNX_PARAMS("", "Xor", (1), LegacyBroadcastParams);
SONNX_KERNEL("", "Xor", 1, binary_legacy<xor_tensors>, Accuracy::Exact);
SONNX_KERNEL("", "Xor", 7, binary_multidirectional<xor_tensors>, Accuracy::Exact);
SONNX_SHAPE_RULE("", "Xor", (1, 7), broadcast_bool_rule);
}  // namespace sonnx
