// OptionalHasElement: a bool scalar, true when the optional input holds a value. Version 18 makes
// the input optional and accepts plain tensors and sequences: a tensor or sequence counts as
// present, an omitted input as absent (one kernel serves both versions).
// OptionalHasElement: a bool scalar, true when the optional input holds a value. A plain tensor or
// sequence (allowed from version 18) counts as present, an omitted input as absent.
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> optional_has_element(OpContext& ctx) {
  bool has = false;
  if (ctx.has_input(0)) {
    const Value& v = ctx.value(0);
    if (v.is_optional()) has = v.optional != nullptr;
    else if (v.is_tensor() || v.is_sequence()) has = true;
    // Kind::None: no value at all, i.e. absent.
  }
  return one(Tensor::scalar<bool>(has));
}
}  // namespace
SONNX_KERNEL("", "OptionalHasElement", 15, optional_has_element, Accuracy::Exact);
SONNX_KERNEL("", "OptionalHasElement", 18, optional_has_element, Accuracy::Exact);
namespace {
void optional_has_element_shape(InferContext& ctx) { ctx.set_output(0, DType::Bool, Dims{}); }
}  // namespace
SONNX_SHAPE_RULE("", "OptionalHasElement", (15, 18), optional_has_element_shape);
}  // namespace sonnx
