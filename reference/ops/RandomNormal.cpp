// RandomNormal: a tensor of the `shape` attribute filled with samples of the normal distribution
// N(mean, scale^2), element type `dtype` (default float). With a `seed` attribute the node draws
// from its own generator seeded from it, else from the run's generator.
#include "op_params.h"
#include "params/random.h"
#include "support/shape.h"
#include "support/random.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> random_normal(OpContext& ctx) {
  RandomParams p = RandomParams::read(ctx, ctx.version());
  double mean = p.mean, scale = p.scale;
  NodeRng rng(ctx, p.seed);
  return one(random_float_tensor(ctx, p.output_type(DType::Float), p.shape, [&] { return mean + scale * rng.normal01(); }));
}
}  // namespace
SONNX_KERNEL("", "RandomNormal", 1, random_normal, Accuracy::Random);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "RandomNormal", 22, random_normal, Accuracy::Random);
SONNX_PARAMS("", "RandomNormal", (1, 22), RandomParams);
SONNX_SHAPE_RULE("", "RandomNormal", (1, 22), random_shape_rule);
}  // namespace sonnx
