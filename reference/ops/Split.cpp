// Split: cuts a tensor along an axis into as many parts as the node has outputs. The part lengths
// come from the `split` attribute (versions 1, 2, 11) or input (version 1 optionally, 13+); without
// them the axis is divided into equal parts. Lengths must sum to the axis size.
// Version 18 adds the `num_outputs` attribute (exclusive with the `split` input; it must equal the
// node's output count; without either the output count is used): parts of ceil(dim / num_outputs),
// the last one smaller when the axis does not divide evenly (a trap when that leaves it negative,
// e.g. 5 into 4 parts of 2).
// Relies on ops/movement.mlw SplitLens.split_lens_sum: the output lengths (split input, num_outputs chunks with a smaller last one, or equal parts) are nonnegative and add up to the axis.
// Relies on ops/movement.mlw SplitConcat.split_concat: Concat of the outputs along the split axis is the input.
#include "support/shape.h"
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

std::vector<Value> split_v18(OpContext& ctx) {
  if (ctx.has_input(1)) {
    if (ctx.has_attr("num_outputs")) ctx.fail("the split input and the num_outputs attribute cannot both be given");
    return split_v13(ctx);
  }
  // Without either, the node's output count plays num_outputs (as in onnx's reference).
  int64_t n = ctx.attr_int("num_outputs", static_cast<int64_t>(ctx.num_outputs()));
  if (n < 1) ctx.fail("num_outputs must be at least 1, got " + std::to_string(n));
  if (n != static_cast<int64_t>(ctx.num_outputs()))
    ctx.fail("num_outputs is " + std::to_string(n) + " but the node has " + std::to_string(ctx.num_outputs()) + " outputs");
  const Tensor& x = ctx.input(0);
  if (x.rank() == 0) ctx.fail("cannot split a scalar");
  int64_t dim = x.dim(normalize_axis(ctx, ctx.attr_int("axis", 0), x.rank()));
  int64_t chunk = dim / n + (dim % n != 0 ? 1 : 0);
  std::vector<int64_t> lengths(static_cast<size_t>(n), chunk);
  lengths.back() = dim - chunk * (n - 1);
  if (lengths.back() < 0)
    ctx.fail("an axis of size " + std::to_string(dim) + " cannot be split into " + std::to_string(n) + " parts of " +
             std::to_string(chunk) + " with a smaller last part");
  return split_into(ctx, x, lengths, true);
}
}  // namespace
SONNX_KERNEL("", "Split", 1, split_v1, Accuracy::Exact);
SONNX_KERNEL("", "Split", 2, split_v2, Accuracy::Exact);
SONNX_KERNEL("", "Split", 13, split_v13, Accuracy::Exact);
SONNX_KERNEL("", "Split", 18, split_v18, Accuracy::Exact);
namespace {
// Split sizes from the attribute (before 13) or the input (13 on); else equal parts, the last
// smaller (18 with num_outputs), or equal (before 18: must divide evenly).
void split_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  size_t n = ctx.num_outputs();
  const Dims* x = ctx.input_shape(0);
  if (!x) {
    for (size_t i = 0; i < n; ++i) ctx.set_output(i, t, std::nullopt);
    return;
  }
  int64_t r = static_cast<int64_t>(x->size());
  int64_t axis = infer_axis(ctx, ctx.attr_int("axis", 0), r);
  std::optional<std::vector<int64_t>> split;
  if (ctx.version() < 13) {
    if (ctx.has_attr("split")) split = ctx.attr_ints("split");
    else if (ctx.version() < 2 && ctx.has_input(1)) split = ctx.input_ints(1);
  } else if (ctx.has_input(1)) {
    split = ctx.input_ints(1);
    if (!split) {
      Dims unknown = *x;
      unknown[static_cast<size_t>(axis)] = Dim{};
      for (size_t i = 0; i < n; ++i) ctx.set_output(i, t, unknown);
      return;
    }
  }
  const Dim& d = (*x)[static_cast<size_t>(axis)];
  std::vector<Dim> sizes;
  if (split) {
    if (split->size() != n)
      ctx.fail("split has " + std::to_string(split->size()) + " sizes for " + std::to_string(n) + " outputs");
    int64_t total = 0;
    for (int64_t s : *split) {
      if (s < 0) ctx.fail("split sizes must be non-negative");
      sizes.push_back(size_dim(ctx, s, "split"));
      total += s;
    }
    if (d.value && total != *d.value)
      ctx.fail("split sizes add up to " + std::to_string(total) + ", the axis has " + std::to_string(*d.value));
  } else {
    if (ctx.version() >= 18) {
      int64_t num = ctx.attr_int("num_outputs", -1);
      if (ctx.has_attr("num_outputs") && num != static_cast<int64_t>(n))
        ctx.fail("num_outputs is " + std::to_string(num) + " but the node has " + std::to_string(n) + " outputs");
    }
    if (!d.value) {
      sizes.assign(n, Dim{});
    } else if (ctx.version() >= 18) {
      int64_t chunk = (*d.value + static_cast<int64_t>(n) - 1) / static_cast<int64_t>(n);
      if (chunk * (static_cast<int64_t>(n) - 1) > *d.value)
        ctx.fail("an axis of size " + std::to_string(*d.value) + " cannot be split into " + std::to_string(n) + " parts of " +
                 std::to_string(chunk) + " with a smaller last part");
      int64_t left = *d.value;
      for (size_t i = 0; i < n; ++i) {
        int64_t s = std::min(chunk, left);
        sizes.push_back(known_dim(s));
        left -= s;
      }
    } else {
      if (*d.value % static_cast<int64_t>(n) != 0)
        ctx.fail("the axis of size " + std::to_string(*d.value) + " does not split into " + std::to_string(n) + " equal parts");
      sizes.assign(n, known_dim(*d.value / static_cast<int64_t>(n)));
    }
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
