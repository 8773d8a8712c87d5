// RMSNormalization: the shape rule (the kernel is still to come).
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {
void rms_norm_shape(InferContext& ctx) {
  if (auto r = ctx.input_rank(0)) infer_axis(ctx, ctx.attr_int("axis", -1), *r);
  same_as_input_rule(ctx);
}
}  // namespace
SONNX_SHAPE_RULE("", "RMSNormalization", (23), rms_norm_shape);
}  // namespace sonnx
