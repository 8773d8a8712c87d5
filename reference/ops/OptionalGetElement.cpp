// OptionalGetElement: the value held by the optional input; an empty optional traps (the spec calls
// it an error). Version 18 also accepts a plain tensor or sequence, returned as is (the kernel
// accepts them in version 15 too; the validator holds version 15 to optional types).
// it an error). A plain tensor or sequence input (allowed from version 18) is returned as is.
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> optional_get_element(OpContext& ctx) {
  const Value& v = ctx.value(0);
  if (v.is_tensor() || v.is_sequence()) return {v};
  if (!v.is_optional()) ctx.fail("the input must be an optional, a tensor or a sequence");
  if (!v.optional) ctx.fail("the optional input is empty");
  return {*v.optional};
}
}  // namespace
SONNX_KERNEL("", "OptionalGetElement", 15, optional_get_element, Accuracy::Exact);
SONNX_KERNEL("", "OptionalGetElement", 18, optional_get_element, Accuracy::Exact);
namespace {
// The optional's content; version 18 also accepts a tensor or sequence, returned as is.
void optional_get_element_shape(InferContext& ctx) {
  const TypeInfo* t = ctx.input_type(0);
  if (!t) return;
  if (t->kind == TypeInfo::Kind::Optional) {
    if (t->inner) ctx.set_output(0, *t->inner);
  } else if (ctx.version() >= 18) {
    ctx.set_output(0, *t);
  } else {
    ctx.fail("the input must be an optional, got " + t->str());
  }
}
}  // namespace
SONNX_SHAPE_RULE("", "OptionalGetElement", (15, 18), optional_get_element_shape);
}  // namespace sonnx
