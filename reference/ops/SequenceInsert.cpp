// SequenceInsert: a copy of the sequence with `tensor` inserted before `position` (default: at the
// end). position is in [-n, n]; a negative one counts from the back (-1 = before the last element).
#include "support/shape.h"
#include "support/control_flow.h"
#include "support/sequence.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> sequence_insert(OpContext& ctx) {
  const Value& seq = sequence_input(ctx, 0);
  const Tensor& t = ctx.input(1);
  DType elem = sequence_elem_type(seq);
  if (elem != DType::Undefined && elem != t.dtype())
    ctx.fail("cannot insert a " + std::string(dtype_name(t.dtype())) + " tensor into a sequence of " +
             std::string(dtype_name(elem)));
  int64_t n = static_cast<int64_t>(seq.sequence.size());
  int64_t pos = n;
  if (ctx.has_input(2)) {
    pos = scalar_int_input(ctx, 2, "position");
    if (pos < -n || pos > n)
      ctx.fail("position " + std::to_string(pos) + " is outside [" + std::to_string(-n) + ", " + std::to_string(n) + "]");
    if (pos < 0) pos += n;
  }
  std::vector<Value> elems = seq.sequence;
  elems.insert(elems.begin() + pos, Value(t));
  return {Value::make_sequence(std::move(elems), t.dtype())};
}
}  // namespace
SONNX_KERNEL("", "SequenceInsert", 11, sequence_insert, Accuracy::Exact);
namespace {
// The sequence's element type must be the tensor's; the elements' shape is the union.
void sequence_insert_shape(InferContext& ctx) {
  const TypeInfo* s = ctx.input_type(0);
  const TypeInfo* t = ctx.input_type(1);
  if (s && s->kind != TypeInfo::Kind::Sequence) ctx.fail("input 0 must be a sequence, got " + s->str());
  if (!s || !s->inner) return ctx.set_output(0, sequence_of(t ? *t : TypeInfo{}));
  ctx.set_output(0, sequence_of(t ? union_type(ctx, *s->inner, *t, "the inserted tensor") : *s->inner));
}
}  // namespace
SONNX_SHAPE_RULE("", "SequenceInsert", (11), sequence_insert_shape);
}  // namespace sonnx
