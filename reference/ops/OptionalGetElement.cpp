// OptionalGetElement: the value held by the optional input; an empty optional traps (the spec calls
// it an error). A plain tensor or sequence input (allowed from version 18) is returned as is.
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
}  // namespace sonnx
