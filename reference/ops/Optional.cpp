// Optional: an optional holding the input (tensor or sequence), or an empty optional when the
// input is omitted (the `type` attribute then names the element type, which a Value does not carry).
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> optional_op(OpContext& ctx) {
  if (!ctx.has_input(0)) {
    if (!ctx.has_attr("type")) ctx.fail("an empty optional needs the 'type' attribute");
    return {Value::make_optional(std::nullopt)};
  }
  const Value& v = ctx.value(0);
  if (!v.is_tensor() && !v.is_sequence()) ctx.fail("the input must be a tensor or a sequence");
  return {Value::make_optional(v)};
}
}  // namespace
SONNX_KERNEL("", "Optional", 15, optional_op, Accuracy::Exact);
}  // namespace sonnx
