// Cast and CastLike: the shape rules (the kernels, in Cast.cpp and CastLike.cpp, are kept apart
// while the element types grow).
#include "reference/infer/fold.h"
#include "params/cast.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {
// A partial value of integers stays one under an integer cast (values that do not fit become unknown).
void keep_partial(InferContext& ctx, DType to) {
  if (!is_integer(to) || !is_integer(ctx.input_elem(0))) return;
  auto p = ctx.input_partial(0);
  if (!p) return;
  for (auto& d : p->elems)
    if (d.value && !int_tensor(to, {*d.value}, true)) d = Dim{};
  ctx.set_output_partial(0, std::move(*p));
}

void cast_shape(InferContext& ctx) {
  DType to = CastParams::read(ctx, ctx.version()).to;  // Undefined: a type sonnx does not model yet
  const Dims* x = ctx.input_shape(0);
  ctx.set_output(0, to, x ? std::optional<Dims>(*x) : std::nullopt);
  keep_partial(ctx, to);
}

void cast_like_shape(InferContext& ctx) {
  DType to = ctx.input_elem(1);
  const Dims* x = ctx.input_shape(0);
  ctx.set_output(0, to, x ? std::optional<Dims>(*x) : std::nullopt);
  if (to != DType::Undefined) keep_partial(ctx, to);
}
}  // namespace
SONNX_SHAPE_RULE("", "Cast", (1, 6, 9, 13, 19, 21, 23, 24, 25), cast_shape);
SONNX_SHAPE_RULE("", "CastLike", (15, 19, 21, 23, 24, 25), cast_like_shape);
}  // namespace sonnx
