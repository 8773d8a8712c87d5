// RandomUniformLike: like RandomUniform, with the shape of the input tensor; the element type is the
// `dtype` attribute, else the input's (which must then be a floating type).
#include "support/shape.h"
#include "support/random.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> random_uniform_like(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  double low = ctx.attr_float("low", 0.f), high = ctx.attr_float("high", 1.f);
  NodeRng rng(ctx);
  return one(
      random_float_tensor(ctx, dtype_attr(ctx, x.dtype()), x.shape(), [&] { return low + (high - low) * rng.uniform01(); }));
}
}  // namespace
SONNX_KERNEL("", "RandomUniformLike", 1, random_uniform_like, Accuracy::Random);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "RandomUniformLike", 22, random_uniform_like, Accuracy::Random);
SONNX_SHAPE_RULE("", "RandomUniformLike", (1, 22), random_like_shape_rule);
}  // namespace sonnx
