// SequenceErase: a copy of the sequence without the element at `position` (default: the last one);
// position in [-n, n-1], negative from the back. Erasing from an empty sequence traps.
#include "support/shape.h"
#include "support/control_flow.h"
#include "support/sequence.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> sequence_erase(OpContext& ctx) {
  const Value& seq = sequence_input(ctx, 0);
  int64_t n = static_cast<int64_t>(seq.sequence.size());
  int64_t pos = n - 1;
  if (ctx.has_input(1)) pos = scalar_int_input(ctx, 1, "position");
  if (pos < -n || pos >= n)
    ctx.fail("position " + std::to_string(pos) + " is outside [" + std::to_string(-n) + ", " + std::to_string(n - 1) +
             "] (sequence of length " + std::to_string(n) + ")");
  if (pos < 0) pos += n;
  std::vector<Value> elems = seq.sequence;
  elems.erase(elems.begin() + pos);
  return {Value::make_sequence(std::move(elems), sequence_elem_type(seq))};
}
}  // namespace
SONNX_KERNEL("", "SequenceErase", 11, sequence_erase, Accuracy::Exact);
namespace {
void sequence_erase_shape(InferContext& ctx) {
  const TypeInfo* s = ctx.input_type(0);
  if (s && s->kind != TypeInfo::Kind::Sequence) ctx.fail("input 0 must be a sequence, got " + s->str());
  if (s) ctx.set_output(0, *s);
}
}  // namespace
SONNX_SHAPE_RULE("", "SequenceErase", (11), sequence_erase_shape);
}  // namespace sonnx
