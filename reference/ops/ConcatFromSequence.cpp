// ConcatFromSequence: concatenates the tensors of a sequence along `axis` (new_axis=0, like
// numpy.concatenate: axis in [-r, r-1]) or stacks them along a new axis (new_axis=1, like
// numpy.stack: axis in [-r-1, r]). An empty sequence has no defined result and traps.
#include "op_params.h"
#include "support/shape.h"
#include "support/sequence.h"

namespace sonnx {
using namespace support;
namespace {
struct ConcatFromSequenceParams {
  // Required; in [-r, r - 1] for the elements' rank r, [-r - 1, r] with new_axis (checked against
  // the rank where it is known).
  int64_t axis = 0;
  bool new_axis = false;  // stack on a new axis (new_axis=1) instead of concatenating (0)
  static ConcatFromSequenceParams read(const AttrReader& r, int64_t /*version*/) {
    if (!r.has_attr("axis")) r.fail("attribute 'axis' is required");
    int64_t new_axis = r.attr_int("new_axis", 0);
    if (new_axis != 0 && new_axis != 1) r.fail("new_axis must be 0 or 1");
    return {r.attr_int("axis", 0), new_axis == 1};
  }
};

std::vector<Value> concat_from_sequence(OpContext& ctx) {
  ConcatFromSequenceParams p = ConcatFromSequenceParams::read(ctx, ctx.version());
  const Value& seq = sequence_input(ctx, 0);
  if (seq.sequence.empty()) ctx.fail("cannot concatenate an empty sequence");
  std::vector<Tensor> parts;
  for (const Value& v : seq.sequence) {
    if (!v.is_tensor()) ctx.fail("sequence elements must be tensors");
    parts.push_back(v.tensor);
  }
  int64_t rank = parts[0].rank();
  if (p.new_axis) return one(stack_axis(ctx, parts, normalize_axis(ctx, p.axis, rank + 1)));
  if (rank == 0) ctx.fail("cannot concatenate rank-0 tensors without new_axis=1");
  return one(concat_axis(ctx, parts, normalize_axis(ctx, p.axis, rank)));
}
}  // namespace
SONNX_PARAMS("", "ConcatFromSequence", (11), ConcatFromSequenceParams);
SONNX_KERNEL("", "ConcatFromSequence", 11, concat_from_sequence, Accuracy::Exact);
namespace {
// The elements joined on `axis` (or stacked on a new one with new_axis=1): the other dims are
// the elements' where they agree; the joined dim is unknown (the length is not).
void concat_from_sequence_shape(InferContext& ctx) {
  ConcatFromSequenceParams p = ConcatFromSequenceParams::read(ctx, ctx.version());
  const TypeInfo* s = ctx.input_type(0);
  if (s && s->kind != TypeInfo::Kind::Sequence) ctx.fail("input 0 must be a sequence, got " + s->str());
  if (!s || !s->inner) return;
  const TypeInfo& e = *s->inner;
  if (!e.shape) return ctx.set_output(0, e.elem, std::nullopt);
  int64_t r = static_cast<int64_t>(e.shape->size()) + (p.new_axis ? 1 : 0);
  int64_t axis = infer_axis(ctx, p.axis, r);
  Dims out = *e.shape;
  if (p.new_axis) out.insert(out.begin() + axis, Dim{});
  else out[static_cast<size_t>(axis)] = Dim{};
  ctx.set_output(0, e.elem, out);
}
}  // namespace
SONNX_SHAPE_RULE("", "ConcatFromSequence", (11), concat_from_sequence_shape);
}  // namespace sonnx
