// Scaler (ai.onnx.ml 1): Y = (X - offset) * scale as float, computed in double and rounded once.
// offset and scale have one entry, applied to every element, or one per feature (X's last axis);
// both must be given and be of the same length.
#include "support/kernel.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> scaler(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const std::vector<float> offset = ctx.attr_floats("offset"), scale = ctx.attr_floats("scale");
  if (offset.empty() || offset.size() != scale.size()) ctx.fail("offset and scale must be given, of one length");
  const int64_t features = x.rank() == 0 ? 1 : x.dim(x.rank() - 1);
  const int64_t n = static_cast<int64_t>(offset.size());
  if (n != 1 && n != features)
    ctx.fail("offset and scale have " + std::to_string(n) + " entries; X has " + std::to_string(features) + " features");
  const std::vector<double> in = real_values(ctx, x);
  std::vector<double> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    size_t f = n == 1 ? 0 : i % static_cast<size_t>(n);
    out[i] = (in[i] - static_cast<double>(offset[f])) * static_cast<double>(scale[f]);
  }
  return one(float_tensor(ctx, DType::Float, x.shape(), out));
}

void scaler_shape(InferContext& ctx) {
  const Dims* x = ctx.input_shape(0);
  ctx.set_output(0, DType::Float, x ? std::optional<Dims>(*x) : std::nullopt);
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "Scaler", 1, scaler, Accuracy::Rounding);
SONNX_SHAPE_RULE("ai.onnx.ml", "Scaler", (1), scaler_shape);
}  // namespace sonnx
