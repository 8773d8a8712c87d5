// SplitToSequence: splits `input` along `axis` into a sequence of tensors.
//   split omitted: pieces of length 1; with keepdims=0 the split axis is removed from each piece.
//   split scalar s: pieces of length s, the last one shorter when the dim is not a multiple of s.
//   split 1-D: pieces of the given lengths, which must sum to the dim.
// The spec says split lengths must be positive; a scalar split of 0 traps, but zero entries in a 1-D
// split are accepted as empty pieces, because ONNX's own backend test (test_sequence_model8, "split
// zero length") splits an empty tensor by [0, 0, 0] into three empty tensors. Negative lengths trap.
// keepdims only applies when split is omitted.
#include <algorithm>

#include "op_params.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
struct SplitToSequenceParams {
  int64_t axis = 0;      // in [-rank, rank - 1] (checked against the input's rank where it is known)
  bool keepdims = true;  // without the split input: keep the split axis (length 1) or remove it
  static SplitToSequenceParams read(const AttrReader& r, int64_t /*version*/) {
    return {r.attr_int("axis", 0), r.attr_int("keepdims", 1) != 0};
  }
};

std::vector<Value> split_to_sequence(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  SplitToSequenceParams p = SplitToSequenceParams::read(ctx, ctx.version());
  if (x.rank() == 0) ctx.fail("cannot split a rank-0 tensor");
  int64_t axis = normalize_axis(ctx, p.axis, x.rank());
  int64_t dim = x.dim(axis);

  std::vector<int64_t> lengths;
  bool squeeze = false;
  if (!ctx.has_input(1)) {
    lengths.assign(static_cast<size_t>(dim), 1);
    squeeze = !p.keepdims;
  } else {
    const Tensor& split = ctx.input(1);
    if (split.dtype() != DType::Int32 && split.dtype() != DType::Int64) ctx.fail("split must be int32 or int64");
    std::vector<int64_t> s = split.to_int64_vector();
    if (split.rank() == 0) {
      if (s[0] <= 0) ctx.fail("a scalar split must be positive, got " + std::to_string(s[0]));
      for (int64_t start = 0; start < dim; start += lengths.back()) lengths.push_back(std::min(s[0], dim - start));
    } else if (split.rank() == 1) {
      int64_t sum = 0;
      for (int64_t v : s) {
        if (v < 0) ctx.fail("split lengths must not be negative, got " + std::to_string(v));
        if (v > dim - sum) ctx.fail("split lengths sum to more than the dim " + std::to_string(dim));
        sum += v;
      }
      if (sum != dim) ctx.fail("split lengths sum to " + std::to_string(sum) + ", not the dim " + std::to_string(dim));
      lengths = s;
    } else {
      ctx.fail("split must be a scalar or a 1-D tensor");
    }
  }

  std::vector<Value> pieces;
  int64_t start = 0;
  for (int64_t len : lengths) {
    pieces.emplace_back(squeeze ? take_axis(x, axis, start) : slice_axis(x, axis, start, len));
    start += len;
  }
  return {Value::make_sequence(std::move(pieces), x.dtype())};
}
}  // namespace
SONNX_PARAMS("", "SplitToSequence", (11, 24), SplitToSequenceParams);
SONNX_KERNEL("", "SplitToSequence", 11, split_to_sequence, Accuracy::Exact);

// Version 24 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "SplitToSequence", 24, split_to_sequence, Accuracy::Exact);
namespace {
// Without `split` the pieces have the axis removed (keepdims=0) or of size 1; with a scalar split
// every piece but maybe the last has that size; with a 1-D split the sizes vary.
void split_to_sequence_shape(InferContext& ctx) {
  SplitToSequenceParams p = SplitToSequenceParams::read(ctx, ctx.version());
  DType t = ctx.input_elem(0);
  const Dims* x = ctx.input_shape(0);
  if (!x) return ctx.set_output(0, sequence_of(tensor_type(t)));
  int64_t axis = infer_axis(ctx, p.axis, static_cast<int64_t>(x->size()));
  Dims out = *x;
  if (!ctx.has_input(1)) {
    if (p.keepdims) out[static_cast<size_t>(axis)] = known_dim(1);
    else out.erase(out.begin() + axis);
  } else {
    auto split = ctx.input_ints(1);
    const Dims* ss = ctx.input_shape(1);
    Dim piece;
    if (split && ss && ss->empty() && (*x)[static_cast<size_t>(axis)].value &&
        *(*x)[static_cast<size_t>(axis)].value % (*split)[0] == 0)
      piece = known_dim((*split)[0]);
    else if (split && ss && ss->size() == 1 && !split->empty() &&
             std::all_of(split->begin(), split->end(), [&](int64_t v) { return v == (*split)[0]; }))
      piece = known_dim((*split)[0]);
    out[static_cast<size_t>(axis)] = piece;
  }
  ctx.set_output(0, sequence_of(tensor_type(t, out)));
}
}  // namespace
SONNX_SHAPE_RULE("", "SplitToSequence", (11, 24), split_to_sequence_shape);
}  // namespace sonnx
