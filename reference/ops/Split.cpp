// Split: cuts a tensor along an axis into as many parts as the node has outputs. The part lengths
// come from the `split` attribute (versions 1, 2, 11) or input (version 1 optionally, 13+); without
// them the axis is divided into equal parts. Lengths must sum to the axis size.
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> split_into(const OpContext& ctx, const Tensor& x, std::vector<int64_t> lengths, bool given) {
  size_t parts = ctx.num_outputs();
  if (parts == 0) ctx.fail("at least one output is required");
  if (x.rank() == 0) ctx.fail("cannot split a scalar");
  int64_t axis = normalize_axis(ctx, ctx.attr_int("axis", 0), x.rank());
  int64_t dim = x.dim(axis);
  if (!given) {
    if (dim % static_cast<int64_t>(parts) != 0)
      ctx.fail("axis of size " + std::to_string(dim) + " cannot be split into " + std::to_string(parts) + " equal parts");
    lengths.assign(parts, dim / static_cast<int64_t>(parts));
  }
  if (lengths.size() != parts)
    ctx.fail("split has " + std::to_string(lengths.size()) + " lengths for " + std::to_string(parts) + " outputs");
  int64_t total = 0;
  for (int64_t len : lengths) {
    if (len < 0) ctx.fail("split lengths must be non-negative");
    if (len > dim) ctx.fail("split length larger than the axis");
    total += len;  // each ≤ dim, so no overflow for any real number of outputs
  }
  if (total != dim) ctx.fail("split lengths sum to " + std::to_string(total) + " but the axis has size " + std::to_string(dim));

  int64_t outer = element_count(x.shape(), 0, static_cast<size_t>(axis));
  int64_t inner = element_count(x.shape(), static_cast<size_t>(axis) + 1, x.shape().size());
  std::vector<Value> outs;
  int64_t start = 0;
  for (int64_t len : lengths) {
    Shape s = x.shape();
    s[static_cast<size_t>(axis)] = len;
    std::vector<int64_t> map;
    map.reserve(static_cast<size_t>(shape_size(s)));
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t a = start; a < start + len; ++a)
        for (int64_t i = 0; i < inner; ++i) map.push_back((o * dim + a) * inner + i);
    outs.emplace_back(take(x, s, map));
    start += len;
  }
  return outs;
}

std::vector<Value> split_v1(OpContext& ctx) {
  if (ctx.has_input(1)) return split_into(ctx, ctx.input(0), int_values_any(ctx, ctx.input(1), "split"), true);
  return split_into(ctx, ctx.input(0), ctx.attr_ints("split"), ctx.has_attr("split"));
}

std::vector<Value> split_v2(OpContext& ctx) {
  return split_into(ctx, ctx.input(0), ctx.attr_ints("split"), ctx.has_attr("split"));
}

std::vector<Value> split_v13(OpContext& ctx) {
  if (!ctx.has_input(1)) return split_into(ctx, ctx.input(0), {}, false);
  const Tensor& s = ctx.input(1);
  if (s.rank() != 1) ctx.fail("the split input must be 1-D");
  return split_into(ctx, ctx.input(0), int_values(ctx, s, "split"), true);
}
}  // namespace
SONNX_KERNEL("", "Split", 1, split_v1, Accuracy::Exact);
SONNX_KERNEL("", "Split", 2, split_v2, Accuracy::Exact);
SONNX_KERNEL("", "Split", 13, split_v13, Accuracy::Exact);
}  // namespace sonnx
