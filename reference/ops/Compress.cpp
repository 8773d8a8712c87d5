// Compress: keeps the slices along `axis` (or, without axis, the elements of the flattened input)
// whose entry in the 1-D boolean condition is true. A condition shorter than the axis drops the
// rest; entries past the end are allowed only when false.
#include "op_params.h"
#include "params/indexing.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> compress(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& cond = ctx.input(1);
  if (cond.dtype() != DType::Bool) ctx.fail("condition must be a bool tensor");
  if (cond.rank() != 1) ctx.fail("condition must be 1-D");
  CompressParams p = CompressParams::read(ctx, ctx.version());
  bool has_axis = p.axis.has_value();
  int64_t axis = 0, n = x.size(), outer = 1, inner = 1;
  if (has_axis) {
    if (x.rank() == 0) ctx.fail("input must have rank >= 1 when axis is given");
    axis = normalize_axis(ctx, *p.axis, x.rank());
    n = x.dim(axis);
    outer = element_count(x.shape(), 0, static_cast<size_t>(axis));
    inner = element_count(x.shape(), static_cast<size_t>(axis) + 1, x.shape().size());
  }
  const bool* c = cond.data<bool>();
  std::vector<int64_t> kept;
  for (int64_t j = 0; j < cond.size(); ++j) {
    if (!c[j]) continue;
    if (j >= n) ctx.fail("condition selects index " + std::to_string(j) + " beyond the axis of size " + std::to_string(n));
    kept.push_back(j);
  }
  int64_t m = static_cast<int64_t>(kept.size());
  Shape out_shape{m};
  if (has_axis) {
    out_shape = x.shape();
    out_shape[static_cast<size_t>(axis)] = m;
  }
  std::vector<int64_t> map;
  map.reserve(static_cast<size_t>(shape_size(out_shape)));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j : kept)
      for (int64_t i = 0; i < inner; ++i) map.push_back((o * n + j) * inner + i);
  return one(take(x, out_shape, map));
}
}  // namespace
SONNX_PARAMS("", "Compress", (9, 11), CompressParams);
SONNX_KERNEL("", "Compress", 9, compress, Accuracy::Exact);
namespace {
// 1-D (no axis) or the input with the axis dim unknown.
void compress_shape(InferContext& ctx) {
  DType c = ctx.input_elem(1);
  if (c != DType::Undefined && c != DType::Bool) ctx.fail("the condition must be bool");
  require_rank(ctx, 1, 1, "the condition");
  const Dims* x = ctx.input_shape(0);
  CompressParams p = CompressParams::read(ctx, ctx.version());
  if (!p.axis) return ctx.set_output(0, ctx.input_elem(0), Dims{Dim{}});
  if (!x) return ctx.set_output(0, ctx.input_elem(0), std::nullopt);
  int64_t axis = infer_axis(ctx, *p.axis, static_cast<int64_t>(x->size()));
  Dims o = *x;
  o[static_cast<size_t>(axis)] = Dim{};
  ctx.set_output(0, ctx.input_elem(0), o);
}
}  // namespace
SONNX_SHAPE_RULE("", "Compress", (9, 11), compress_shape);
}  // namespace sonnx
