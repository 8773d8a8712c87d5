// PRelu: elementwise slope * x for x < 0, x otherwise.
// - Versions 1 and 6: the schema only says a one-element slope is shared by all elements. We accept
//   that, a slope unidirectionally broadcastable to X, and (as the Caffe2 operator these versions
//   come from did) a 1-D slope of X's channel count (dimension 1) applied per channel.
// - Version 7 on: slope broadcasts unidirectionally to X (numpy rules, result has X's shape).
//   Version 9 adds integer types, 16 bfloat16.
// Integer products wrap.
#include "op_params.h"
#include "params/legacy.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

template <class T>
T prelu_one(T x, T slope) {
  if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_signed_v<T>) return x < T(0) ? wrap_mul<T>(slope, x) : x;
    else return x;  // unsigned x is never negative
  } else {
    auto c = static_cast<compute_t<T>>(x);
    return c < compute_t<T>(0) ? to_storage<T>(static_cast<compute_t<T>>(slope) * c) : x;
  }
}

// X with slope already broadcast (or indexed) to X's shape through `slope_index`.
Tensor prelu_apply(OpContext& ctx, const Tensor& x, const Tensor& slope, const std::vector<int64_t>& slope_index) {
  return visit_real(ctx, x.dtype(), [&]<class T>() {
    Tensor out(x.dtype(), x.shape());
    const T* px = x.data<T>();
    const T* ps = slope.data<T>();
    T* po = out.data<T>();
    for (int64_t i = 0; i < x.size(); ++i) po[i] = prelu_one<T>(px[i], ps[slope_index[static_cast<size_t>(i)]]);
    return out;
  });
}

bool unidirectional(const Shape& from, const Shape& to) {
  if (from.size() > to.size()) return false;
  size_t off = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i)
    if (from[i] != 1 && from[i] != to[off + i]) return false;
  return true;
}

std::vector<Value> prelu_v7(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& slope = ctx.input(1);
  require_same_type(ctx, x, slope);
  if (!unidirectional(slope.shape(), x.shape()))
    ctx.fail("slope shape " + shape_str(slope.shape()) + " does not broadcast unidirectionally to X shape " +
             shape_str(x.shape()));
  return one(prelu_apply(ctx, x, slope, broadcast_index_map(slope.shape(), x.shape())));
}

std::vector<Value> prelu_v1(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& slope = ctx.input(1);
  require_same_type(ctx, x, slope);
  if (slope.size() == 1) return one(prelu_apply(ctx, x, slope, std::vector<int64_t>(static_cast<size_t>(x.size()), 0)));
  if (unidirectional(slope.shape(), x.shape()))
    return one(prelu_apply(ctx, x, slope, broadcast_index_map(slope.shape(), x.shape())));
  if (slope.rank() == 1 && x.rank() >= 2 && slope.dim(0) == x.dim(1)) {
    // Per channel: slope[c] for every element whose index along dimension 1 is c.
    Shape channel_shape(static_cast<size_t>(x.rank()), 1);
    channel_shape[1] = slope.dim(0);
    return one(prelu_apply(ctx, x, slope, broadcast_index_map(channel_shape, x.shape())));
  }
  ctx.fail("slope shape " + shape_str(slope.shape()) + " does not fit X shape " + shape_str(x.shape()));
}
}  // namespace
// Version 1's only attribute is the legacy consumed_inputs.
SONNX_PARAMS("", "PRelu", (1), LegacyConsumedInputsParams);
SONNX_KERNEL("", "PRelu", 1, prelu_v1, Accuracy::Rounding);
SONNX_KERNEL("", "PRelu", 7, prelu_v7, Accuracy::Rounding);
namespace {
// Versions 1 and 6 keep X's shape; from 7 the slope broadcasts to X (unidirectionally).
void prelu_shape(InferContext& ctx) {
  DType t = common_elem(ctx, {0, 1});
  const Dims* x = ctx.input_shape(0);
  if (ctx.version() < 7 || !x) {
    ctx.set_output(0, t, x ? std::optional<Dims>(*x) : std::nullopt);
    return;
  }
  auto b = broadcast_shapes(ctx, {x, ctx.input_shape(1)});
  if (b && b->size() != x->size()) ctx.fail("the slope has a higher rank than X");
  ctx.set_output(0, t, b);
}
}  // namespace
SONNX_SHAPE_RULE("", "PRelu", (1, 6, 7, 9, 16), prelu_shape);
}  // namespace sonnx
