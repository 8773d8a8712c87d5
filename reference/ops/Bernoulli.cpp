// Bernoulli: for each probability p of the input, 1 with probability p and 0 otherwise, in the
// element type `dtype` (default: the input's). p outside [0, 1] (or NaN) traps. With a `seed`
// attribute the node draws from its own generator seeded from it, else from the run's generator.
#include "support/shape.h"
#include "support/cast.h"
#include "support/random.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> bernoulli(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  DType out_type = dtype_attr(ctx, x.dtype());
  NodeRng rng(ctx);
  Tensor bits(DType::Bool, x.shape());
  visit_float(ctx, x.dtype(), [&]<class T>() {
    const T* p = x.data<T>();
    for (int64_t i = 0; i < x.size(); ++i) {
      double prob = static_cast<double>(static_cast<compute_t<T>>(p[i]));
      if (!(prob >= 0.0 && prob <= 1.0)) ctx.fail("probability " + std::to_string(prob) + " is outside [0, 1]");
      bits.data<bool>()[i] = rng.uniform01() < prob;
    }
    return 0;
  });
  if (out_type == DType::Bool) return one(bits);
  if (out_type != DType::Float && out_type != DType::Double && out_type != DType::Float16 && out_type != DType::BFloat16 &&
      !is_integer(out_type))
    ctx.fail("output element type " + std::string(dtype_name(out_type)) + " is not supported");
  return one(cast_tensor(ctx, bits, out_type));
}
}  // namespace
SONNX_KERNEL("", "Bernoulli", 15, bernoulli, Accuracy::Random);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "Bernoulli", 22, bernoulli, Accuracy::Random);
SONNX_SHAPE_RULE("", "Bernoulli", (15, 22), random_like_shape_rule);
}  // namespace sonnx
