// Tile: numpy.tile without broadcasting. From version 6, `repeats` (1-D int64, one non-negative
// count per axis) repeats the whole tensor along every axis. Version 1 repeats along a single
// axis: inputs are the data, `tiles` (a scalar count) and `axis` (a scalar axis).
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
Tensor tile(const OpContext& ctx, const Tensor& x, const std::vector<int64_t>& repeats) {
  size_t rank = x.shape().size();
  if (repeats.size() != rank)
    ctx.fail("repeats has " + std::to_string(repeats.size()) + " entries for an input of rank " + std::to_string(rank));
  Shape out_shape(rank);
  for (size_t d = 0; d < rank; ++d) {
    if (repeats[d] < 0) ctx.fail("repeats must be non-negative");
    out_shape[d] = checked_mul(ctx, x.shape()[d], repeats[d]);
  }
  auto in_strides = strides_of(x.shape());
  std::vector<int64_t> map(static_cast<size_t>(shape_size(out_shape)));
  for_each_index(out_shape, [&](const std::vector<int64_t>& idx, int64_t lin) {
    int64_t src = 0;
    for (size_t d = 0; d < rank; ++d) src += (idx[d] % x.shape()[d]) * in_strides[d];  // dims > 0 when reached
    map[static_cast<size_t>(lin)] = src;
  });
  return take(x, out_shape, map);
}

std::vector<Value> tile_v1(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (ctx.input(1).size() != 1 || ctx.input(2).size() != 1) ctx.fail("tiles and axis must be scalars");
  int64_t tiles = int_values_any(ctx, ctx.input(1), "tiles")[0];
  int64_t axis = normalize_axis(ctx, int_values_any(ctx, ctx.input(2), "axis")[0], x.rank());
  std::vector<int64_t> repeats(static_cast<size_t>(x.rank()), 1);
  repeats[static_cast<size_t>(axis)] = tiles;
  return one(tile(ctx, x, repeats));
}

std::vector<Value> tile_v6(OpContext& ctx) {
  const Tensor& repeats = ctx.input(1);
  if (repeats.rank() != 1) ctx.fail("repeats must be a 1-D tensor");
  return one(tile(ctx, ctx.input(0), int_values(ctx, repeats, "repeats")));
}
}  // namespace
SONNX_KERNEL("", "Tile", 1, tile_v1, Accuracy::Exact);
SONNX_KERNEL("", "Tile", 6, tile_v6, Accuracy::Exact);
namespace {
// Each dim times its repeat (version 1: one axis times `tiles`).
void tile_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  const Dims* x = ctx.input_shape(0);
  if (!x) {
    ctx.set_output(0, t, std::nullopt);
    return;
  }
  Dims out = *x;
  std::vector<int64_t> reps(x->size(), 1);
  if (ctx.version() < 6) {
    auto tiles = ctx.input_ints(1);
    auto axis = ctx.input_ints(2);
    if (!tiles || !axis || tiles->size() != 1 || axis->size() != 1) {
      ctx.set_output(0, t, Dims(x->size()));
      return;
    }
    reps[static_cast<size_t>(infer_axis(ctx, (*axis)[0], static_cast<int64_t>(x->size())))] = (*tiles)[0];
  } else {
    auto r = ctx.input_ints(1);
    if (!r) {
      ctx.set_output(0, t, Dims(x->size()));
      return;
    }
    if (r->size() != x->size())
      ctx.fail("repeats has " + std::to_string(r->size()) + " entries for an input of rank " + std::to_string(x->size()));
    reps = *r;
  }
  for (size_t i = 0; i < out.size(); ++i) {
    if (reps[i] < 0) ctx.fail("repeats must be non-negative");
    if (out[i].value) {
      int64_t v;
      if (__builtin_mul_overflow(*out[i].value, reps[i], &v)) ctx.fail("the tiled dimension overflows");
      out[i] = size_dim(ctx, v, "tiling");
    } else if (reps[i] == 0) {
      out[i] = known_dim(0);
    } else if (reps[i] != 1) {
      out[i] = Dim{};
    }
  }
  ctx.set_output(0, t, out);
}
}  // namespace
SONNX_SHAPE_RULE("", "Tile", (1, 6, 13), tile_shape);
}  // namespace sonnx
