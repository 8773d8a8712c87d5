// Cast: converts every element to the type given by the attribute `to` (the conversion rules are
// written out at cast_tensor in support/cast.h).
// - Version 1: `to` is a string naming the type ("FLOAT", "INT64", ... as TensorProto.DataType).
// - Version 6: `to` is the TensorProto.DataType number. Version 9 adds string conversions,
//   13 bfloat16; the rules for the other types never change.
// - Version 19 adds the float8 types and `saturate`; 21 int4/uint4; 23 float4e2m1; 24 float8e8m0
//   and `round_mode`, and under saturation ±inf becomes ±max in the fnuz types (NaN before);
//   25 int2/uint2. A type is refused by the versions before the one that brings it.
// Relies on ops/elementwise.mlw UnaryOps.cast_exact: Cast keeps every value representable in the target type.
#include "op_params.h"
#include "params/cast.h"
#include "support/cast.h"

namespace sonnx {
using namespace support;
namespace {

// The target CastParams read, when this version casts to it.
DType checked_target(const OpContext& ctx, DType type) {
  if (type == DType::Undefined) ctx.fail("attribute 'to' is not a data type sonnx casts to");
  if (type == DType::Complex64 || type == DType::Complex128) ctx.fail("Cast to complex types is not defined");
  require_cast_type(ctx, type, "target");
  return type;
}

std::vector<Value> cast(OpContext& ctx) {
  CastParams p = CastParams::read(ctx, ctx.version());
  require_cast_type(ctx, ctx.input(0).dtype(), "input");
  return one(cast_tensor(ctx, ctx.input(0), checked_target(ctx, p.to), p.options));
}
}  // namespace
// One kernel: CastParams read the target and the options each version has.
SONNX_PARAMS("", "Cast", (1, 6, 9, 13, 19, 21, 23, 24, 25), CastParams);
SONNX_KERNEL("", "Cast", 1, cast, Accuracy::Rounding);
SONNX_KERNEL("", "Cast", 6, cast, Accuracy::Rounding);
SONNX_KERNEL("", "Cast", 19, cast, Accuracy::Rounding);
SONNX_KERNEL("", "Cast", 21, cast, Accuracy::Rounding);
SONNX_KERNEL("", "Cast", 23, cast, Accuracy::Rounding);
SONNX_KERNEL("", "Cast", 24, cast, Accuracy::Rounding);
SONNX_KERNEL("", "Cast", 25, cast, Accuracy::Rounding);
}  // namespace sonnx
