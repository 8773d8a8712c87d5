// SequenceAt: the tensor at `position` of the sequence; position in [-n, n-1], negative from the back.
#include "support/shape.h"
#include "support/control_flow.h"
#include "support/sequence.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> sequence_at(OpContext& ctx) {
  const Value& seq = sequence_input(ctx, 0);
  int64_t n = static_cast<int64_t>(seq.sequence.size());
  int64_t pos = scalar_int_input(ctx, 1, "position");
  if (pos < -n || pos >= n)
    ctx.fail("position " + std::to_string(pos) + " is outside [" + std::to_string(-n) + ", " + std::to_string(n - 1) + "]");
  if (pos < 0) pos += n;
  return {seq.sequence[static_cast<size_t>(pos)]};
}
}  // namespace
SONNX_KERNEL("", "SequenceAt", 11, sequence_at, Accuracy::Exact);
namespace {
void sequence_at_shape(InferContext& ctx) {
  const TypeInfo* s = ctx.input_type(0);
  if (s && s->kind != TypeInfo::Kind::Sequence) ctx.fail("input 0 must be a sequence, got " + s->str());
  if (s && s->inner) ctx.set_output(0, *s->inner);
}
}  // namespace
SONNX_SHAPE_RULE("", "SequenceAt", (11), sequence_at_shape);
}  // namespace sonnx
