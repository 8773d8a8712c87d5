// StringConcat (version 20): Z = X + Y elementwise on string tensors (the bytes of Y's element
// appended to X's), with multidirectional broadcasting.
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> string_concat(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& y = ctx.input(1);
  require_type(ctx, x, DType::String, "X");
  require_type(ctx, y, DType::String, "Y");
  return one(
      binary_elementwise<std::string, std::string>(ctx, x, y, [](const std::string& a, const std::string& b) { return a + b; }));
}

void string_concat_shape(InferContext& ctx) {
  ctx.set_output(0, DType::String, broadcast_shapes(ctx, {ctx.input_shape(0), ctx.input_shape(1)}));
}
}  // namespace
SONNX_KERNEL("", "StringConcat", 20, string_concat, Accuracy::Exact);
SONNX_SHAPE_RULE("", "StringConcat", (20), string_concat_shape);
}  // namespace sonnx
