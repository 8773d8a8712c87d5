// RMSNormalization (version 23): normalizes X by its root mean square over the dims [axis, r)
// (axis default -1, allowed range [-r, r)) and scales:
//   RMS = sqrt(mean of X^2 over those dims + epsilon),  Y = X / RMS * scale
// scale (type V, which Y has too) broadcasts unidirectionally to X's shape. The schema's function
// body computes the first stage in stash_type precision (float by default), casts the normalized
// X back to X's type and multiplies in that precision; this kernel computes everything in double
// and rounds Y once to V (stash_type is checked to name a floating type, then not needed).
#include "op_params.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {
struct RMSNormalizationParams {
  int64_t axis = -1;  // the first normalized dim; its range [-r, r) is checked against X's rank
  float epsilon = 1e-5f;
  DType stash_type = DType::Float;  // a floating type (checked); computing in double satisfies any of them

  static RMSNormalizationParams read(const AttrReader& r, int64_t /*version*/) {
    RMSNormalizationParams p;
    p.axis = r.attr_int("axis", -1);
    p.epsilon = r.attr_float("epsilon", 1e-5f);
    p.stash_type = r.attr_floating_type("stash_type", DType::Float);
    return p;
  }
};

std::vector<Value> rms_norm(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& scale = ctx.input(1);
  RMSNormalizationParams p = RMSNormalizationParams::read(ctx, ctx.version());
  int64_t rank = x.rank();
  int64_t axis = p.axis;
  if (axis < -rank || axis >= rank) ctx.fail("axis " + std::to_string(axis) + " is out of range [-r, r)");
  if (axis < 0) axis += rank;
  auto epsilon = static_cast<double>(p.epsilon);
  if (broadcast_shapes(ctx, x.shape(), scale.shape()) != x.shape())
    ctx.fail("scale of shape " + shape_str(scale.shape()) + " does not broadcast to X's shape " + shape_str(x.shape()));
  std::vector<double> xv = float_values(ctx, x);
  std::vector<double> sv = float_values(ctx, broadcast_to(scale, x.shape()));
  auto cols = static_cast<size_t>(element_count(x.shape(), static_cast<size_t>(axis)));
  std::vector<double> y(xv.size());
  for (size_t base = 0; base < xv.size(); base += cols) {
    double sum_sq = 0;
    for (size_t i = 0; i < cols; ++i) sum_sq += xv[base + i] * xv[base + i];
    double rms = std::sqrt(sum_sq / static_cast<double>(cols) + epsilon);
    for (size_t i = 0; i < cols; ++i) y[base + i] = xv[base + i] / rms * sv[base + i];
  }
  return one(float_tensor(ctx, scale.dtype(), x.shape(), y));
}
}  // namespace
SONNX_PARAMS("", "RMSNormalization", (23), RMSNormalizationParams);
SONNX_KERNEL("", "RMSNormalization", 23, rms_norm, Accuracy::Rounding);
namespace {
// Y has X's shape and scale's element type (V).
void rms_norm_shape(InferContext& ctx) {
  RMSNormalizationParams p = RMSNormalizationParams::read(ctx, ctx.version());
  if (auto r = ctx.input_rank(0)) infer_axis(ctx, p.axis, *r);
  const Dims* x = ctx.input_shape(0);
  ctx.set_output(0, ctx.input_elem(1), x ? std::optional<Dims>(*x) : std::nullopt);
}
}  // namespace
SONNX_SHAPE_RULE("", "RMSNormalization", (23), rms_norm_shape);
}  // namespace sonnx
