// Multinomial: input [batch, classes] of unnormalized log-probabilities; output [batch, sample_size]
// of class indices (int32 by default, or int64 via `dtype`), each drawn with probability
// softmax(row)[c]. -inf logits have probability 0; NaN, +inf or a row of only -inf traps. With a
// `seed` attribute the node draws from its own generator seeded from it, else from the run's.
#include <limits>

#include "op_params.h"
#include "params/random.h"
#include "support/shape.h"
#include "support/cast.h"
#include "support/random.h"

namespace sonnx {
using namespace support;
namespace {
struct MultinomialParams {
  DType dtype = DType::Int32;  // the output's: int32 or int64 (checked)
  int64_t sample_size = 1;     // draws per row (checked not negative)
  std::optional<float> seed;   // the node's own generator's seed; absent: the run's generator
  static MultinomialParams read(const AttrReader& r, int64_t /*version*/) {
    MultinomialParams p;
    p.dtype = r.attr_dtype("dtype").value_or(DType::Int32);
    if (p.dtype != DType::Int32 && p.dtype != DType::Int64) r.fail("dtype must be int32 or int64");
    p.sample_size = r.attr_int("sample_size", 1);
    if (p.sample_size < 0) r.fail("sample_size must not be negative");
    if (r.has_attr("seed")) p.seed = r.attr_float("seed", 0.0f);
    return p;
  }
};

std::vector<Value> multinomial(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (!is_float(x.dtype())) ctx.fail("input must be a floating tensor");
  if (x.rank() != 2) ctx.fail("input must have shape [batch_size, class_size], got " + shape_str(x.shape()));
  MultinomialParams p = MultinomialParams::read(ctx, ctx.version());
  int64_t sample_size = p.sample_size;
  int64_t batch = x.dim(0), classes = x.dim(1);
  NodeRng rng(ctx, p.seed);
  Tensor out(DType::Int64, {batch, sample_size});
  std::vector<double> cumulative(static_cast<size_t>(classes));
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<double> logits;
    double max = -std::numeric_limits<double>::infinity();
    for (int64_t c = 0; c < classes; ++c) {
      double v = x.as_double(b * classes + c);
      if (std::isnan(v) || v == std::numeric_limits<double>::infinity())
        ctx.fail("row " + std::to_string(b) + " has a NaN or +inf logit");
      logits.push_back(v);
      max = std::max(max, v);
    }
    if (max == -std::numeric_limits<double>::infinity()) ctx.fail("row " + std::to_string(b) + " has no possible class");
    double total = 0;
    for (int64_t c = 0; c < classes; ++c) {
      total += std::exp(logits[static_cast<size_t>(c)] - max);  // exp(-inf) = 0
      cumulative[static_cast<size_t>(c)] = total;
    }
    for (int64_t s = 0; s < sample_size; ++s) {
      double r = rng.uniform01() * total;
      int64_t pick = -1;
      for (int64_t c = 0; c < classes && pick < 0; ++c)
        if (r < cumulative[static_cast<size_t>(c)]) pick = c;
      if (pick < 0)  // r landed on total through rounding: the last class with positive weight
        for (int64_t c = classes - 1; c >= 0 && pick < 0; --c)
          if (logits[static_cast<size_t>(c)] != -std::numeric_limits<double>::infinity()) pick = c;
      out.data<int64_t>()[b * sample_size + s] = pick;
    }
  }
  return one(p.dtype == DType::Int64 ? out : cast_tensor(ctx, out, DType::Int32));
}
}  // namespace
SONNX_PARAMS("", "Multinomial", (7, 22), MultinomialParams);
SONNX_KERNEL("", "Multinomial", 7, multinomial, Accuracy::Random);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "Multinomial", 22, multinomial, Accuracy::Random);
namespace {
// [batch, sample_size] of int32 by default.
void multinomial_shape(InferContext& ctx) {
  MultinomialParams p = MultinomialParams::read(ctx, ctx.version());
  require_rank(ctx, 0, 2, "input");
  const Dims* x = ctx.input_shape(0);
  Dim b = x ? (*x)[0] : Dim{};
  ctx.set_output(0, p.dtype, Dims{b, size_dim(ctx, p.sample_size, "sample_size")});
}
}  // namespace
SONNX_SHAPE_RULE("", "Multinomial", (7, 22), multinomial_shape);
}  // namespace sonnx
