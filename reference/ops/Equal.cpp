// Equal: elementwise A == B, a bool tensor. Version 1 broadcasts B to A only when broadcast=1
// (legacy broadcasting); from version 7 both inputs broadcast multidirectionally. Versions 1 and 7
// take bool/int32/int64, 11 adds the other integer and float types, 13 bfloat16, 19 strings (equal
// when their bytes are). NaN equals nothing.
#include "op_params.h"
#include "params/broadcast.h"
#include "support/shape.h"
#include "support/elementwise.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {

Tensor equal(OpContext& ctx, const Tensor& a, const Tensor& b) {
  if (a.dtype() == DType::String && b.dtype() == DType::String) {
    if (ctx.version() < 19) ctx.fail("string inputs need Equal-19 or later");
    return binary_elementwise<std::string, bool>(ctx, a, b, [](const std::string& x, const std::string& y) { return x == y; });
  }
  return compare_elementwise(ctx, a, b, [](auto x, auto y) { return x == y; });
}
}  // namespace
SONNX_PARAMS("", "Equal", (1), LegacyBroadcastParams);
SONNX_KERNEL("", "Equal", 1, binary_legacy<equal>, Accuracy::Exact);
SONNX_KERNEL("", "Equal", 7, binary_multidirectional<equal>, Accuracy::Exact);
SONNX_KERNEL("", "Equal", 19, binary_multidirectional<equal>, Accuracy::Exact);
SONNX_SHAPE_RULE("", "Equal", (1, 7, 11, 13, 19), broadcast_bool_rule);
}  // namespace sonnx
