// SequenceLength: the number of elements of the sequence, as an int64 scalar.
#include "support/shape.h"
#include "support/sequence.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> sequence_length(OpContext& ctx) {
  const Value& seq = sequence_input(ctx, 0);
  return one(Tensor::scalar<int64_t>(static_cast<int64_t>(seq.sequence.size())));
}
}  // namespace
SONNX_KERNEL("", "SequenceLength", 11, sequence_length, Accuracy::Exact);
namespace {
void sequence_length_shape(InferContext& ctx) { ctx.set_output(0, DType::Int64, Dims{}); }
}  // namespace
SONNX_SHAPE_RULE("", "SequenceLength", (11), sequence_length_shape);
}  // namespace sonnx
