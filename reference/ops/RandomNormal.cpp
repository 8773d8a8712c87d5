// RandomNormal: a tensor of the `shape` attribute filled with samples of the normal distribution
// N(mean, scale^2), element type `dtype` (default float). With a `seed` attribute the node draws
// from its own generator seeded from it, else from the run's generator.
#include "support/shape.h"
#include "support/random.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> random_normal(OpContext& ctx) {
  double mean = ctx.attr_float("mean", 0.f), scale = ctx.attr_float("scale", 1.f);
  NodeRng rng(ctx);
  return one(
      random_float_tensor(ctx, dtype_attr(ctx, DType::Float), shape_attr(ctx), [&] { return mean + scale * rng.normal01(); }));
}
}  // namespace
SONNX_KERNEL("", "RandomNormal", 1, random_normal, Accuracy::Random);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "RandomNormal", 22, random_normal, Accuracy::Random);
SONNX_SHAPE_RULE("", "RandomNormal", (1, 22), random_shape_rule);
}  // namespace sonnx
