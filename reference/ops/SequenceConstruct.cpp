// SequenceConstruct: a sequence holding the input tensors in order (all of one element type).
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> sequence_construct(OpContext& ctx) {
  std::vector<Value> elems;
  DType elem = DType::Undefined;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    const Tensor& t = ctx.input(i);
    if (i == 0) elem = t.dtype();
    else if (t.dtype() != elem) ctx.fail("inputs have different element types");
    elems.emplace_back(t);
  }
  return {Value::make_sequence(std::move(elems), elem)};
}
}  // namespace
SONNX_KERNEL("", "SequenceConstruct", 11, sequence_construct, Accuracy::Exact);
}  // namespace sonnx
