// Not: elementwise logical negation of a bool tensor (version 1).
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
}  // namespace sonnx
