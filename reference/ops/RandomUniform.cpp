// RandomUniform: a tensor of the `shape` attribute filled with samples uniform on [low, high)
// (rounding to float16 may reach high), element type `dtype` (default float). With a `seed`
// attribute the node draws from its own generator seeded from it, else from the run's generator.
#include "op_params.h"
#include "params/random.h"
#include "support/shape.h"
#include "support/random.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> random_uniform(OpContext& ctx) {
  RandomParams p = RandomParams::read(ctx, ctx.version());
  double low = p.low, high = p.high;
  NodeRng rng(ctx, p.seed);
  return one(
      random_float_tensor(ctx, p.output_type(DType::Float), p.shape, [&] { return low + (high - low) * rng.uniform01(); }));
}
}  // namespace
SONNX_KERNEL("", "RandomUniform", 1, random_uniform, Accuracy::Random);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "RandomUniform", 22, random_uniform, Accuracy::Random);
SONNX_PARAMS("", "RandomUniform", (1, 22), RandomParams);
SONNX_SHAPE_RULE("", "RandomUniform", (1, 22), random_shape_rule);
}  // namespace sonnx
