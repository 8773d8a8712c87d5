// Cast and CastLike: the shape rules (the kernels, in Cast.cpp and CastLike.cpp, are kept apart
// while the element types grow).
#include <cctype>

#include "reference/infer/fold.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {
// The target type: attribute `to` (a type name string in version 1, a TensorProto data type after).
DType cast_target(const InferContext& ctx) {
  const Attribute* a = ctx.attr("to");
  if (!a) ctx.fail("attribute 'to' is required");
  if (a->type == Attribute::Type::String) {
    std::string name;
    for (char c : a->s) name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    DType t = dtype_from_name(name);
    if (t == DType::Undefined) ctx.fail("attribute 'to' names no element type: '" + a->s + "'");
    return t;
  }
  int64_t v = ctx.attr_int("to", 0);
  if (v <= 0 || v > 1000) ctx.fail("attribute 'to' is not a data type: " + std::to_string(v));
  // A data type sonnx does not model yet (float8, int4, ...): the element type stays unknown.
  if (!is_valid_dtype(static_cast<int32_t>(v))) return DType::Undefined;
  return static_cast<DType>(v);
}

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
  DType to = cast_target(ctx);
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
