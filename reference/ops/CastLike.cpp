// CastLike: converts every element of `input` to the element type of `target_type` (version 15),
// with Cast's rules (see cast_element_type in util_a.h). Only target_type's type is used.
#include "util_a.h"

namespace sonnx {
namespace {
using namespace ops_a;

std::vector<Value> cast_like(OpContext& ctx) {
  return one(cast_element_type(ctx, ctx.input(0), ctx.input(1).dtype()));
}
}  // namespace
SONNX_KERNEL("", "CastLike", 15, cast_like, Accuracy::Rounding);
}  // namespace sonnx
