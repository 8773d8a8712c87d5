// ReverseSequence: for each batch entry b, reverses the first sequence_lens[b] steps along the
// time axis and copies the rest unchanged. batch_axis and time_axis are 0 and 1 in some order;
// each length must lie in [0, time steps].
#include "op_params.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
struct ReverseSequenceParams {
  int64_t batch_axis = 1, time_axis = 0;  // 0 and 1 in some order
  static ReverseSequenceParams read(const AttrReader& r, int64_t /*version*/) {
    ReverseSequenceParams p{r.attr_int("batch_axis", 1), r.attr_int("time_axis", 0)};
    if (!((p.batch_axis == 0 && p.time_axis == 1) || (p.batch_axis == 1 && p.time_axis == 0)))
      r.fail("batch_axis and time_axis must be 0 and 1 in some order");
    return p;
  }
};

std::vector<Value> reverse_sequence(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& lens_t = ctx.input(1);
  if (x.rank() < 2) ctx.fail("input must have rank >= 2");
  ReverseSequenceParams p = ReverseSequenceParams::read(ctx, ctx.version());
  int64_t batch_axis = p.batch_axis, time_axis = p.time_axis;
  std::vector<int64_t> lens = int_values(ctx, lens_t, "sequence_lens");
  if (lens_t.rank() != 1 || lens_t.size() != x.dim(batch_axis))
    ctx.fail("sequence_lens must be 1-D with one entry per batch element");
  int64_t steps = x.dim(time_axis);
  for (int64_t l : lens)
    if (l < 0 || l > steps) ctx.fail("sequence length " + std::to_string(l) + " is outside [0, " + std::to_string(steps) + "]");
  auto strides = strides_of(x.shape());
  std::vector<int64_t> map(static_cast<size_t>(x.size()));
  for_each_index(x.shape(), [&](const std::vector<int64_t>& idx, int64_t lin) {
    int64_t t = idx[static_cast<size_t>(time_axis)];
    int64_t len = lens[static_cast<size_t>(idx[static_cast<size_t>(batch_axis)])];
    int64_t src_t = t < len ? len - 1 - t : t;
    map[static_cast<size_t>(lin)] = lin + (src_t - t) * strides[static_cast<size_t>(time_axis)];
  });
  return one(take(x, x.shape(), map));
}
}  // namespace
SONNX_PARAMS("", "ReverseSequence", (10), ReverseSequenceParams);
SONNX_KERNEL("", "ReverseSequence", 10, reverse_sequence, Accuracy::Exact);
SONNX_SHAPE_RULE("", "ReverseSequence", (10), same_as_input_rule);
}  // namespace sonnx
