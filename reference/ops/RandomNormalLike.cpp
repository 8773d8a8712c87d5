// RandomNormalLike: like RandomNormal, with the shape of the input tensor; the element type is the
// `dtype` attribute, else the input's (which must then be a floating type).
#include "op_params.h"
#include "params/random.h"
#include "support/shape.h"
#include "support/random.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> random_normal_like(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  RandomParams p = RandomParams::read(ctx, ctx.version());
  double mean = p.mean, scale = p.scale;
  NodeRng rng(ctx, p.seed);
  return one(random_float_tensor(ctx, p.output_type(x.dtype()), x.shape(), [&] { return mean + scale * rng.normal01(); }));
}
}  // namespace
SONNX_KERNEL("", "RandomNormalLike", 1, random_normal_like, Accuracy::Random);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "RandomNormalLike", 22, random_normal_like, Accuracy::Random);
SONNX_PARAMS("", "RandomNormalLike", (1, 22), RandomParams);
SONNX_SHAPE_RULE("", "RandomNormalLike", (1, 22), random_shape_rule);
}  // namespace sonnx
