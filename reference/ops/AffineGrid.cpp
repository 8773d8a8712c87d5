// AffineGrid: the shape rule (the kernel is still to come).
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {
// theta [N, 2, 3] and size (N, C, H, W) give [N, H, W, 2]; [N, 3, 4] and (N, C, D, H, W) [N, D, H, W, 3].
void affine_grid_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  auto size = ctx.input_partial(1);
  if (!size) return ctx.set_output(0, t, std::nullopt);
  if (size->elems.size() != 4 && size->elems.size() != 5) ctx.fail("size must have 4 or 5 elements");
  Dims o{size->elems[0]};
  o.insert(o.end(), size->elems.begin() + 2, size->elems.end());
  o.push_back(known_dim(static_cast<int64_t>(size->elems.size()) - 2));
  ctx.set_output(0, t, o);
}
}  // namespace
SONNX_SHAPE_RULE("", "AffineGrid", (20), affine_grid_shape);
}  // namespace sonnx
