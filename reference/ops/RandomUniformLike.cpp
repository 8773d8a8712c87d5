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
  return one(random_float_tensor(ctx, dtype_attr(ctx, x.dtype()), x.shape(),
                                     [&] { return low + (high - low) * rng.uniform01(); }));
}
}  // namespace
SONNX_KERNEL("", "RandomUniformLike", 1, random_uniform_like, Accuracy::Random);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "RandomUniformLike", 22, random_uniform_like, Accuracy::Random);
namespace {
DType dtype_attr(const InferContext& ctx, const char* name, DType def) {
  if (!ctx.has_attr(name)) return def;
  int64_t d = ctx.attr_int(name, 0);
  if (d <= 0 || d > 1000 || !is_valid_dtype(static_cast<int32_t>(d))) ctx.fail(std::string(name) + " is not a data type");
  return static_cast<DType>(d);
}
// The input's shape; dtype from the attribute, else the input's.
void random_like_shape(InferContext& ctx) {
  const Dims* x = ctx.input_shape(0);
  ctx.set_output(0, dtype_attr(ctx, "dtype", ctx.input_elem(0)), x ? std::optional<Dims>(*x) : std::nullopt);
}
}  // namespace
SONNX_SHAPE_RULE("", "RandomUniformLike", (1, 22), random_like_shape);
}  // namespace sonnx
