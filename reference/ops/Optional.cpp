// Optional: an optional holding the input (tensor or sequence), or an empty optional when the
// input is omitted (the `type` attribute then names the element type, which a Value does not carry).
#include "op_params.h"
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
struct OptionalParams {
  const TypeInfo* type = nullptr;  // the `type` attribute (in the node), null when absent
  static OptionalParams read(const AttrReader& r, int64_t /*version*/) {
    const Attribute* a = r.attr("type");
    if (!a) return {};
    if (a->type != Attribute::Type::TypeProto) r.fail("attribute 'type' must be a type");
    return {&a->tp};
  }
};

std::vector<Value> optional_op(OpContext& ctx) {
  OptionalParams p = OptionalParams::read(ctx, ctx.version());
  if (!ctx.has_input(0)) {
    if (!p.type) ctx.fail("an empty optional needs the 'type' attribute");
    return {Value::make_optional(std::nullopt)};
  }
  const Value& v = ctx.value(0);
  if (!v.is_tensor() && !v.is_sequence()) ctx.fail("the input must be a tensor or a sequence");
  return {Value::make_optional(v)};
}
}  // namespace
SONNX_PARAMS("", "Optional", (15), OptionalParams);
SONNX_KERNEL("", "Optional", 15, optional_op, Accuracy::Exact);
namespace {
// optional(type): from the `type` attribute, else the input's.
void optional_shape(InferContext& ctx) {
  OptionalParams p = OptionalParams::read(ctx, ctx.version());
  if (p.type) return ctx.set_output(0, optional_of(*p.type));
  if (!ctx.has_input(0)) ctx.fail("an Optional without input needs the 'type' attribute");
  const TypeInfo* t = ctx.input_type(0);
  ctx.set_output(0, optional_of(t ? *t : TypeInfo{}));
}
}  // namespace
SONNX_SHAPE_RULE("", "Optional", (15), optional_shape);
}  // namespace sonnx
