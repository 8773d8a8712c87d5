// CastLike: converts every element of `input` to the element type of `target_type` (version 15),
// with Cast's rules (see cast_tensor in support/cast.h). Only target_type's type is used.
#include "support/cast.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> cast_like(OpContext& ctx) {
  return one(cast_tensor(ctx, ctx.input(0), ctx.input(1).dtype()));
}
}  // namespace
SONNX_KERNEL("", "CastLike", 15, cast_like, Accuracy::Rounding);
}  // namespace sonnx
