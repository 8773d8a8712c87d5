// Split: cuts a tensor along an axis into as many parts as the node has outputs. The part lengths
// come from the `split` attribute (versions 1, 2, 11) or input (version 1 optionally, 13+); without
// them the axis is divided into equal parts. Lengths must sum to the axis size.
// Version 18 adds the `num_outputs` attribute (exclusive with the `split` input; it must equal the
// node's output count; without either the output count is used): parts of ceil(dim / num_outputs),
// the last one smaller when the axis does not divide evenly (a trap when that leaves it negative,
// e.g. 5 into 4 parts of 2).
// Relies on ops/movement.mlw SplitLens.split_lens_sum: the output lengths (split input, num_outputs chunks with a smaller last one, or equal parts) are nonnegative and add up to the axis.
// Relies on ops/movement.mlw SplitConcat.split_concat: Concat of the outputs along the split axis is the input.
#include "op_params.h"
#include "params/movement.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> split(OpContext& ctx) {
  SplitParams p = SplitParams::read(ctx, ctx.version());
  // The split input: version 1 (any number type, as Cast reads it) and from 13 (integers, 1-D).
  std::optional<std::vector<int64_t>> given;
  if (ctx.has_input(1) && ctx.version() < 2) given = int_values_any(ctx, ctx.input(1), "split");
  if (ctx.has_input(1) && ctx.version() >= 13) {
    if (ctx.input(1).rank() != 1) ctx.fail("the split input must be 1-D");
    given = int_values(ctx, ctx.input(1), "split");
  }
  const Tensor& x = ctx.input(0);
  if (x.rank() == 0) ctx.fail("cannot split a scalar");
  int64_t axis = normalize_axis(ctx, p.axis, x.rank());
  int64_t dim = x.dim(axis);
  std::vector<int64_t> lengths;
  if (std::string why = p.lengths(dim, ctx.num_outputs(), given ? &*given : nullptr, lengths); !why.empty()) ctx.fail(why);

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

}  // namespace
// One kernel: SplitParams and the version say where the lengths come from.
SONNX_PARAMS("", "Split", (1, 2, 11, 13, 18), SplitParams);
SONNX_KERNEL("", "Split", 1, split, Accuracy::Exact);
SONNX_KERNEL("", "Split", 2, split, Accuracy::Exact);
SONNX_KERNEL("", "Split", 13, split, Accuracy::Exact);
SONNX_KERNEL("", "Split", 18, split, Accuracy::Exact);
namespace {
// Split sizes from the attribute (before 13) or the input (13 on); else equal parts, the last
// smaller (18 with num_outputs), or equal (before 18: must divide evenly).
void split_shape(InferContext& ctx) {
  SplitParams p = SplitParams::read(ctx, ctx.version());
  DType t = ctx.input_elem(0);
  size_t n = ctx.num_outputs();
  const Dims* x = ctx.input_shape(0);
  if (!x) {
    for (size_t i = 0; i < n; ++i) ctx.set_output(i, t, std::nullopt);
    return;
  }
  int64_t r = static_cast<int64_t>(x->size());
  int64_t axis = infer_axis(ctx, p.axis, r);
  std::optional<std::vector<int64_t>> given;  // the split input's values (version 1, and from 13)
  if (ctx.has_input(1) && (ctx.version() < 2 || ctx.version() >= 13)) {
    given = ctx.input_ints(1);
    if (!given) {
      Dims unknown = *x;
      unknown[static_cast<size_t>(axis)] = Dim{};
      for (size_t i = 0; i < n; ++i) ctx.set_output(i, t, unknown);
      return;
    }
  }
  const Dim& d = (*x)[static_cast<size_t>(axis)];
  std::vector<Dim> sizes;
  if (d.value) {
    std::vector<int64_t> lengths;
    if (std::string why = p.lengths(*d.value, n, given ? &*given : nullptr, lengths); !why.empty()) ctx.fail(why);
    for (int64_t len : lengths) sizes.push_back(known_dim(len));
  } else if (given || p.split) {
    const std::vector<int64_t>& split = given ? *given : *p.split;
    if (split.size() != n)
      ctx.fail("split has " + std::to_string(split.size()) + " sizes for " + std::to_string(n) + " outputs");
    for (int64_t len : split) {
      if (len < 0) ctx.fail("split sizes must be non-negative");
      sizes.push_back(size_dim(ctx, len, "split"));
    }
  } else {
    sizes.assign(n, Dim{});
  }
  for (size_t i = 0; i < n; ++i) {
    Dims o = *x;
    o[static_cast<size_t>(axis)] = sizes[i];
    ctx.set_output(i, t, o);
  }
}
}  // namespace
SONNX_SHAPE_RULE("", "Split", (1, 2, 11, 13, 18), split_shape);
}  // namespace sonnx
