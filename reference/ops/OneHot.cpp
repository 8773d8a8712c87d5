// OneHot: output rank = rank(indices) + 1, the new axis (position `axis`, default -1 = last) of
// size depth; the element is values[1] (on) where the new-axis coordinate equals the index and
// values[0] (off) elsewhere. Non-integer indices and depth convert to int64 as Cast does.
// Version 9: indices outside [0, depth) give all-off rows; version 11 also accepts [-depth, -1]
// (counting from the end).
#include "op_params.h"
#include "params/indexing.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> one_hot(OpContext& ctx) {
  const Tensor& indices_t = ctx.input(0);
  const Tensor& depth_t = ctx.input(1);
  const Tensor& values = ctx.input(2);
  if (depth_t.size() != 1) ctx.fail("depth must be a scalar");
  if (values.rank() != 1 || values.size() != 2) ctx.fail("values must be a 1-D tensor of two elements [off, on]");
  int64_t depth = cast_tensor(ctx, depth_t, DType::Int64).data<int64_t>()[0];
  if (depth < 0) ctx.fail("depth must be non-negative");
  std::vector<int64_t> idx = cast_tensor(ctx, indices_t, DType::Int64).to_int64_vector();
  int64_t r = indices_t.rank();
  int64_t axis = OneHotParams::read(ctx, ctx.version()).axis;
  if (axis < -r - 1 || axis > r) ctx.fail("axis " + std::to_string(axis) + " is out of range");
  if (axis < 0) axis += r + 1;

  Shape out_shape = indices_t.shape();
  out_shape.insert(out_shape.begin() + axis, depth);
  int64_t outer = element_count(indices_t.shape(), 0, static_cast<size_t>(axis));
  int64_t inner = element_count(indices_t.shape(), static_cast<size_t>(axis), indices_t.shape().size());
  bool negative_ok = ctx.version() >= 11;
  std::vector<int64_t> map;  // 0 = off, 1 = on: positions in `values`
  map.reserve(static_cast<size_t>(shape_size(out_shape)));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t c = 0; c < depth; ++c)
      for (int64_t i = 0; i < inner; ++i) {
        int64_t v = idx[static_cast<size_t>(o * inner + i)];
        if (negative_ok && v < 0 && v >= -depth) v += depth;
        map.push_back(v == c ? 1 : 0);
      }
  return one(take(values, out_shape, map));
}
}  // namespace
SONNX_PARAMS("", "OneHot", (9, 11), OneHotParams);
SONNX_KERNEL("", "OneHot", 9, one_hot, Accuracy::Exact);
SONNX_KERNEL("", "OneHot", 11, one_hot, Accuracy::Exact);
namespace {
// indices' shape with depth inserted at axis; the values' element type.
void one_hot_shape(InferContext& ctx) {
  require_rank(ctx, 2, 1, "values");
  const Dims* x = ctx.input_shape(0);
  DType t = ctx.input_elem(2);
  if (!x) return ctx.set_output(0, t, std::nullopt);
  int64_t r = static_cast<int64_t>(x->size()) + 1;
  int64_t axis = infer_axis(ctx, OneHotParams::read(ctx, ctx.version()).axis, r);
  Dim depth;
  if (const Tensor* d = ctx.input_value(1); d && d->size() == 1) {
    double v = d->as_double(0);
    if (!(v >= 1 && v <= static_cast<double>(kMaxDimValue))) ctx.fail("depth must be positive");
    depth = known_dim(static_cast<int64_t>(v));
  }
  Dims o = *x;
  o.insert(o.begin() + axis, depth);
  ctx.set_output(0, t, o);
}
}  // namespace
SONNX_SHAPE_RULE("", "OneHot", (9, 11), one_hot_shape);
}  // namespace sonnx
