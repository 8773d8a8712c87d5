// Cast: converts every element to the type given by the attribute `to` (the conversion rules are
// written out at cast_tensor in support/cast.h).
// - Version 1: `to` is a string naming the type ("FLOAT", "INT64", ... as TensorProto.DataType).
// - Version 6: `to` is the TensorProto.DataType number. Version 9 adds string conversions,
//   13 bfloat16; the rules for the other types never change.
// - Version 19 adds the float8 types and `saturate`; 21 int4/uint4; 23 float4e2m1; 24 float8e8m0
//   and `round_mode`, and under saturation ±inf becomes ±max in the fnuz types (NaN before);
//   25 int2/uint2. A type is refused by the versions before the one that brings it.
// Relies on ops/elementwise.mlw UnaryOps.cast_exact: Cast keeps every value representable in the target type.
#include "support/cast.h"

namespace sonnx {
using namespace support;
namespace {

DType checked_target(const OpContext& ctx, int64_t to) {
  if (to < 0 || to > std::numeric_limits<int32_t>::max() || !is_valid_dtype(static_cast<int32_t>(to)))
    ctx.fail("attribute 'to' is not a valid data type: " + std::to_string(to));
  auto type = static_cast<DType>(to);
  if (type == DType::Complex64 || type == DType::Complex128) ctx.fail("Cast to complex types is not defined");
  require_cast_type(ctx, type, "target");
  return type;
}

std::vector<Value> cast_v6(OpContext& ctx) {
  if (!ctx.has_attr("to")) ctx.fail("attribute 'to' is required");
  require_cast_type(ctx, ctx.input(0).dtype(), "input");
  return one(cast_tensor(ctx, ctx.input(0), checked_target(ctx, ctx.attr_int("to", 0))));
}

std::vector<Value> cast_v1(OpContext& ctx) {
  const Attribute* a = ctx.attr("to");
  if (!a) ctx.fail("attribute 'to' is required");
  if (a->type == Attribute::Type::Int) return cast_v6(ctx);  // tolerated: the later integer form
  std::string name = ctx.attr_string("to", "");
  for (char& c : name)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');  // "FLOAT16" → "float16"
  DType type = dtype_from_name(name);
  if (type == DType::Undefined) ctx.fail("attribute 'to' names no data type: \"" + ctx.attr_string("to", "") + "\"");
  require_cast_type(ctx, ctx.input(0).dtype(), "input");
  return one(cast_tensor(ctx, ctx.input(0), checked_target(ctx, static_cast<int64_t>(type))));
}

std::vector<Value> cast_v19(OpContext& ctx) {
  if (!ctx.has_attr("to")) ctx.fail("attribute 'to' is required");
  require_cast_type(ctx, ctx.input(0).dtype(), "input");
  DType to = checked_target(ctx, ctx.attr_int("to", 0));
  return one(cast_tensor(ctx, ctx.input(0), to, cast_options(ctx)));
}
}  // namespace
SONNX_KERNEL("", "Cast", 1, cast_v1, Accuracy::Rounding);
SONNX_KERNEL("", "Cast", 6, cast_v6, Accuracy::Rounding);
SONNX_KERNEL("", "Cast", 19, cast_v19, Accuracy::Rounding);
SONNX_KERNEL("", "Cast", 21, cast_v19, Accuracy::Rounding);
SONNX_KERNEL("", "Cast", 23, cast_v19, Accuracy::Rounding);
SONNX_KERNEL("", "Cast", 24, cast_v19, Accuracy::Rounding);
SONNX_KERNEL("", "Cast", 25, cast_v19, Accuracy::Rounding);
}  // namespace sonnx
