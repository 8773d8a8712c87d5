// RandomUniformLike: like RandomUniform, with the shape of the input tensor; the element type is the
// `dtype` attribute, else the input's (which must then be a floating type).
#include "op_params.h"
#include "params/random.h"
#include "support/shape.h"
#include "support/random.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> random_uniform_like(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  RandomParams p = RandomParams::read(ctx, ctx.version());
  double low = p.low, high = p.high;
  NodeRng rng(ctx, p.seed);
  return one(
      random_float_tensor(ctx, p.output_type(x.dtype()), x.shape(), [&] { return low + (high - low) * rng.uniform01(); }));
}
}  // namespace
SONNX_KERNEL("", "RandomUniformLike", 1, random_uniform_like, Accuracy::Random);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "RandomUniformLike", 22, random_uniform_like, Accuracy::Random);
SONNX_PARAMS("", "RandomUniformLike", (1, 22), RandomParams);
SONNX_SHAPE_RULE("", "RandomUniformLike", (1, 22), random_shape_rule);
}  // namespace sonnx
