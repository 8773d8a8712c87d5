// Cast: converts every element to the type given by the attribute `to` (the conversion rules are
// written out at cast_tensor in support/cast.h).
// - Version 1: `to` is a string naming the type ("FLOAT", "INT64", ... as TensorProto.DataType).
// - Version 6: `to` is the TensorProto.DataType number. Version 9 adds string conversions,
//   13 bfloat16; the rules for the other types never change.
#include "support/cast.h"

namespace sonnx {
using namespace support;
namespace {

DType checked_target(const OpContext& ctx, int64_t to) {
  if (to < 0 || to > std::numeric_limits<int32_t>::max() || !is_valid_dtype(static_cast<int32_t>(to)))
    ctx.fail("attribute 'to' is not a valid data type: " + std::to_string(to));
  auto type = static_cast<DType>(to);
  if (type == DType::Complex64 || type == DType::Complex128) ctx.fail("Cast to complex types is not defined");
  return type;
}

std::vector<Value> cast_v6(OpContext& ctx) {
  if (!ctx.has_attr("to")) ctx.fail("attribute 'to' is required");
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
  return one(cast_tensor(ctx, ctx.input(0), checked_target(ctx, static_cast<int64_t>(type))));
}
}  // namespace
SONNX_KERNEL("", "Cast", 1, cast_v1, Accuracy::Rounding);
SONNX_KERNEL("", "Cast", 6, cast_v6, Accuracy::Rounding);
}  // namespace sonnx
