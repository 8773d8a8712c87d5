// StringConcat: the shape rule (the kernel is still to come).
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {
void string_concat_shape(InferContext& ctx) {
  ctx.set_output(0, DType::String, broadcast_shapes(ctx, {ctx.input_shape(0), ctx.input_shape(1)}));
}
}  // namespace
SONNX_SHAPE_RULE("", "StringConcat", (20), string_concat_shape);
}  // namespace sonnx
