// CastLike: converts every element of `input` to the element type of `target_type` (version 15),
// with Cast's rules (see cast_tensor in support/cast.h). Only target_type's type is used.
// Versions 19, 21, 23, 24, 25 follow Cast of the same version: its types and its `saturate` and
// (24+) `round_mode` attributes.
#include "op_params.h"
#include "params/cast.h"
#include "support/cast.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> cast_like(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  DType to = ctx.input(1).dtype();
  require_cast_type(ctx, x.dtype(), "input");
  require_cast_type(ctx, to, "target");
  return one(cast_tensor(ctx, x, to, CastParams::read(ctx, ctx.version()).options));
}
}  // namespace
SONNX_PARAMS("", "CastLike", (15, 19, 21, 23, 24, 25), CastParams);
SONNX_KERNEL("", "CastLike", 15, cast_like, Accuracy::Rounding);
SONNX_KERNEL("", "CastLike", 19, cast_like, Accuracy::Rounding);
SONNX_KERNEL("", "CastLike", 21, cast_like, Accuracy::Rounding);
SONNX_KERNEL("", "CastLike", 23, cast_like, Accuracy::Rounding);
SONNX_KERNEL("", "CastLike", 24, cast_like, Accuracy::Rounding);
SONNX_KERNEL("", "CastLike", 25, cast_like, Accuracy::Rounding);
}  // namespace sonnx
