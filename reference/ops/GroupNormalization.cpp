// GroupNormalization: the shape rule (the kernel is still to come).
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {
void group_norm_shape(InferContext& ctx) {
  if (ctx.attr_int("num_groups", 0) < 1) ctx.fail("num_groups must be positive");
  same_as_input_rule(ctx);
}
}  // namespace
SONNX_SHAPE_RULE("", "GroupNormalization", (18, 21), group_norm_shape);
}  // namespace sonnx
