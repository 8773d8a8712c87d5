// Not: elementwise logical negation of a bool tensor (version 1).
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> not_kernel(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  require_type(ctx, x, DType::Bool, "input X");
  return one(unary_elementwise<bool, bool>(x, [](bool v) { return !v; }));
}
}  // namespace
SONNX_KERNEL("", "Not", 1, not_kernel, Accuracy::Exact);
SONNX_SHAPE_RULE("", "Not", (1), same_as_input_rule);
}  // namespace sonnx
