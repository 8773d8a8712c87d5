// SplitToSequence: splits `input` along `axis` into a sequence of tensors.
//   split omitted: pieces of length 1; with keepdims=0 the split axis is removed from each piece.
//   split scalar s: pieces of length s, the last one shorter when the dim is not a multiple of s.
//   split 1-D: pieces of the given lengths, which must sum to the dim.
// The spec says split lengths must be positive; a scalar split of 0 traps, but zero entries in a 1-D
// split are accepted as empty pieces, because ONNX's own backend test (test_sequence_model8, "split
// zero length") splits an empty tensor by [0, 0, 0] into three empty tensors. Negative lengths trap.
// keepdims only applies when split is omitted.
#include <algorithm>

#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> split_to_sequence(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() == 0) ctx.fail("cannot split a rank-0 tensor");
  int64_t axis = normalize_axis(ctx, ctx.attr_int("axis", 0), x.rank());
  int64_t keepdims = ctx.attr_int("keepdims", 1);
  int64_t dim = x.dim(axis);

  std::vector<int64_t> lengths;
  bool squeeze = false;
  if (!ctx.has_input(1)) {
    lengths.assign(static_cast<size_t>(dim), 1);
    squeeze = keepdims == 0;
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
SONNX_KERNEL("", "SplitToSequence", 11, split_to_sequence, Accuracy::Exact);

// Version 24 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "SplitToSequence", 24, split_to_sequence, Accuracy::Exact);
}  // namespace sonnx
