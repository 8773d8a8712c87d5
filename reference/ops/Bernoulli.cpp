// Bernoulli: for each probability p of the input, 1 with probability p and 0 otherwise, in the
// element type `dtype` (default: the input's). p outside [0, 1] (or NaN) traps. With a `seed`
// attribute the node draws from its own generator seeded from it, else from the run's generator.
#include "op_params.h"
#include "params/random.h"
#include "support/shape.h"
#include "support/cast.h"
#include "support/random.h"

namespace sonnx {
using namespace support;
namespace {
struct BernoulliParams {
  // The output element type; absent: the input's. Checked: bool, an integer or a floating type.
  std::optional<DType> dtype;
  std::optional<float> seed;  // the node's own generator's seed; absent: the run's generator
  static BernoulliParams read(const AttrReader& r, int64_t /*version*/) {
    BernoulliParams p{r.attr_dtype("dtype"), std::nullopt};
    DType t = p.dtype.value_or(DType::Bool);
    if (t != DType::Bool && t != DType::Float && t != DType::Double && t != DType::Float16 && t != DType::BFloat16 &&
        !is_integer(t))
      r.fail("output element type " + std::string(dtype_name(t)) + " is not supported");
    if (r.has_attr("seed")) p.seed = r.attr_float("seed", 0.0f);
    return p;
  }
};

std::vector<Value> bernoulli(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  BernoulliParams params = BernoulliParams::read(ctx, ctx.version());
  DType out_type = params.dtype.value_or(x.dtype());  // a floating input type is a valid output type
  NodeRng rng(ctx, params.seed);
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
  return one(cast_tensor(ctx, bits, out_type));
}
}  // namespace
SONNX_PARAMS("", "Bernoulli", (15, 22), BernoulliParams);
SONNX_KERNEL("", "Bernoulli", 15, bernoulli, Accuracy::Random);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "Bernoulli", 22, bernoulli, Accuracy::Random);
namespace {
// The input's shape, of type `dtype` (the input's by default).
void bernoulli_shape(InferContext& ctx) {
  BernoulliParams p = BernoulliParams::read(ctx, ctx.version());
  const Dims* x = ctx.input_shape(0);
  ctx.set_output(0, p.dtype.value_or(ctx.input_elem(0)), x ? std::optional<Dims>(*x) : std::nullopt);
}
}  // namespace
SONNX_SHAPE_RULE("", "Bernoulli", (15, 22), bernoulli_shape);
}  // namespace sonnx
