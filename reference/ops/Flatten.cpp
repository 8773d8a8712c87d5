// Flatten: reshapes to 2-D [d_0*...*d_(axis-1), d_axis*...*d_n]; axis in [-r, r] (negative from
// version 11; accepted throughout), default 1.
// Relies on ops/movement.mlw Flatten.flatten_is_reshape: Flatten is the Reshape to (prod d[:axis], prod d[axis:]), keeping the element count.
#include "op_params.h"
#include "params/movement.h"
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> flatten(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  int64_t rank = x.rank();
  FlattenParams p = FlattenParams::read(ctx, ctx.version());
  std::optional<int64_t> a = p.axis_for(rank);
  if (!a)
    ctx.fail("axis " + std::to_string(p.axis) + " is out of range [-" + std::to_string(rank) + ", " + std::to_string(rank) +
             "]");
  int64_t axis = *a;
  Shape out{element_count(x.shape(), 0, static_cast<size_t>(axis)),
            element_count(x.shape(), static_cast<size_t>(axis), x.shape().size())};
  return one(x.reshaped(out));
}
}  // namespace
SONNX_PARAMS("", "Flatten", (1, 9, 11, 13, 21, 23, 24, 25), FlattenParams);
SONNX_KERNEL("", "Flatten", 1, flatten, Accuracy::Exact);

// Versions 21, 23, 24, 25 only widen the type lists (the documents' text and
// structure are unchanged): the same kernel.
SONNX_KERNEL("", "Flatten", 21, flatten, Accuracy::Exact);
SONNX_KERNEL("", "Flatten", 23, flatten, Accuracy::Exact);
SONNX_KERNEL("", "Flatten", 24, flatten, Accuracy::Exact);
SONNX_KERNEL("", "Flatten", 25, flatten, Accuracy::Exact);
namespace {
// [d0*...*d(axis-1), d(axis)*...*d(r-1)]; axis in [0, r] (negative from version 11).
void flatten_shape(InferContext& ctx) {
  FlattenParams p = FlattenParams::read(ctx, ctx.version());
  const Dims* x = ctx.input_shape(0);
  if (!x) {
    ctx.set_output(0, ctx.input_elem(0), Dims(2));
    return;
  }
  int64_t r = static_cast<int64_t>(x->size());
  std::optional<int64_t> a = p.axis_for(r);
  if (!a) ctx.fail("axis " + std::to_string(p.axis) + " is out of range for rank " + std::to_string(r));
  int64_t axis = *a;
  Dims outer(x->begin(), x->begin() + axis), inner(x->begin() + axis, x->end());
  auto dim_of = [](const Dims& d) {
    if (d.size() == 1) return d[0];
    auto p = dims_product(d);
    return p ? known_dim(*p) : Dim{};
  };
  ctx.set_output(0, ctx.input_elem(0), Dims{dim_of(outer), dim_of(inner)});
}
}  // namespace
SONNX_SHAPE_RULE("", "Flatten", (1, 9, 11, 13, 21, 23, 24, 25), flatten_shape);
}  // namespace sonnx
