// RandomUniform: a tensor of the `shape` attribute filled with samples uniform on [low, high)
// (rounding to float16 may reach high), element type `dtype` (default float). With a `seed`
// attribute the node draws from its own generator seeded from it, else from the run's generator.
#include "support/shape.h"
#include "support/random.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> random_uniform(OpContext& ctx) {
  double low = ctx.attr_float("low", 0.f), high = ctx.attr_float("high", 1.f);
  NodeRng rng(ctx);
  return one(random_float_tensor(ctx, dtype_attr(ctx, DType::Float), shape_attr(ctx),
                                 [&] { return low + (high - low) * rng.uniform01(); }));
}
}  // namespace
SONNX_KERNEL("", "RandomUniform", 1, random_uniform, Accuracy::Random);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "RandomUniform", 22, random_uniform, Accuracy::Random);
SONNX_SHAPE_RULE("", "RandomUniform", (1, 22), random_shape_rule);
}  // namespace sonnx
