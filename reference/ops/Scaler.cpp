// Scaler (ai.onnx.ml 1): Y = (X - offset) * scale as float, computed in double and rounded once.
// offset and scale have one entry, applied to every element, or one per feature (X's last axis);
// both must be given and be of the same length.
#include "op_params.h"
#include "params/ml_scaling.h"
#include "support/kernel.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> scaler(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const ScalerParams p = ScalerParams::read(ctx, ctx.version());
  const std::vector<float>& offset = p.offset;
  const std::vector<float>& scale = p.scale;
  const int64_t features = x.rank() == 0 ? 1 : x.dim(x.rank() - 1);
  if (std::string why = p.fits(features); !why.empty()) ctx.fail(why);
  const int64_t n = static_cast<int64_t>(offset.size());
  const std::vector<double> in = real_values(ctx, x);
  std::vector<double> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    size_t f = n == 1 ? 0 : i % static_cast<size_t>(n);
    out[i] = (in[i] - static_cast<double>(offset[f])) * static_cast<double>(scale[f]);
  }
  return one(float_tensor(ctx, DType::Float, x.shape(), out));
}

void scaler_shape(InferContext& ctx) {
  const ScalerParams p = ScalerParams::read(ctx, ctx.version());
  const Dims* x = ctx.input_shape(0);
  std::optional<int64_t> features;  // X's last dimension (1 for a scalar), when known
  if (x) features = x->empty() ? std::optional<int64_t>(1) : x->back().value;
  if (std::string why = features ? p.fits(*features) : ""; !why.empty()) ctx.fail(why);
  ctx.set_output(0, DType::Float, x ? std::optional<Dims>(*x) : std::nullopt);
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "Scaler", 1, scaler, Accuracy::Rounding);
SONNX_SHAPE_RULE("ai.onnx.ml", "Scaler", (1), scaler_shape);
SONNX_PARAMS("ai.onnx.ml", "Scaler", (1), ScalerParams);
}  // namespace sonnx
