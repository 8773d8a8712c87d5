// SequenceConstruct: a sequence holding the input tensors in order (all of one element type).
#include "support/shape.h"
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
namespace {
// A sequence of the inputs: their common element type, the union of their shapes.
void sequence_construct_shape(InferContext& ctx) {
  std::vector<size_t> all;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) all.push_back(i);
  DType t = common_elem(ctx, all);
  TypeInfo u;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    const TypeInfo* in = ctx.input_type(i);
    if (!in) return ctx.set_output(0, sequence_of(tensor_type(t)));
    u = i == 0 ? *in : union_type(ctx, u, *in, "input " + std::to_string(i));
  }
  ctx.set_output(0, sequence_of(u));
}
}  // namespace
SONNX_SHAPE_RULE("", "SequenceConstruct", (11), sequence_construct_shape);
}  // namespace sonnx
