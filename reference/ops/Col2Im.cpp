// Col2Im: the shape rule (the kernel is still to come).
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {
// [N, C, image_shape...] with C = input dim 1 / prod(block_shape).
void col2im_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  require_rank(ctx, 0, 3, "input");
  const Dims* x = ctx.input_shape(0);
  auto image = ctx.input_partial(1);
  auto block = ctx.input_ints(2);
  Dim c;
  if (x && (*x)[1].value && block) {
    int64_t p = 1;
    for (int64_t b : *block) {
      if (b < 1 || b > (int64_t{1} << 20)) ctx.fail("block_shape values must be positive");
      p *= b;
      if (p > kMaxDimValue) ctx.fail("block_shape is too large");
    }
    if (*(*x)[1].value % p != 0) ctx.fail("the input's dim 1 is not a multiple of the block size");
    c = known_dim(*(*x)[1].value / p);
  }
  if (!image) return ctx.set_output(0, t, std::nullopt);
  Dims o{x ? (*x)[0] : Dim{}, c};
  o.insert(o.end(), image->elems.begin(), image->elems.end());
  ctx.set_output(0, t, o);
}
}  // namespace
SONNX_SHAPE_RULE("", "Col2Im", (18), col2im_shape);
}  // namespace sonnx
