// DynamicQuantizeLinear: quantizes float x to uint8 with a scale and zero point chosen from x's
// range, following the operator's function body step by step in float arithmetic:
//   lo = min(min(x), 0), hi = max(max(x), 0), y_scale = (hi - lo) / 255,
//   y_zero_point = round(clip(0 - lo / y_scale, 0, 255)),
//   y = saturate(round(x / y_scale) + y_zero_point)
// (rounding half to even). An all-zero x gives y_scale 0 and the 0/0 = NaN steps become 0, as a
// cast of NaN does here. A NaN in x makes the range NaN.
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> dynamic_quantize(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.dtype() != DType::Float) ctx.fail("x must be float, got " + std::string(dtype_name(x.dtype())));
  const float* px = x.data<float>();
  float lo = std::numeric_limits<float>::infinity(), hi = -std::numeric_limits<float>::infinity();
  bool nan = false;
  for (int64_t i = 0; i < x.size(); ++i) {
    if (std::isnan(px[i])) nan = true;
    lo = std::min(lo, px[i]);
    hi = std::max(hi, px[i]);
  }
  if (nan) lo = hi = std::numeric_limits<float>::quiet_NaN();
  if (!nan) {
    lo = std::min(lo, 0.0f);
    hi = std::max(hi, 0.0f);
  }
  float scale = (hi - lo) / 255.0f;
  float zp_f = 0.0f - lo / scale;
  if (!std::isnan(zp_f)) zp_f = std::clamp(zp_f, 0.0f, 255.0f);
  uint8_t zp = saturating_cast<uint8_t>(round_half_even(static_cast<double>(zp_f)));
  Tensor y(DType::UInt8, x.shape());
  uint8_t* py = y.data<uint8_t>();
  for (int64_t i = 0; i < x.size(); ++i) {
    float q = px[i] / scale;
    py[i] = saturating_cast<uint8_t>(round_half_even(static_cast<double>(q)) + static_cast<double>(zp));
  }
  std::vector<Value> out;
  out.emplace_back(std::move(y));
  out.emplace_back(Tensor::scalar<float>(scale));
  out.emplace_back(Tensor::scalar<uint8_t>(zp));
  return out;
}
}  // namespace
SONNX_KERNEL("", "DynamicQuantizeLinear", 11, dynamic_quantize, Accuracy::Rounding);
namespace {
void dynamic_quantize_shape(InferContext& ctx) {
  const Dims* x = ctx.input_shape(0);
  ctx.set_output(0, DType::UInt8, x ? std::optional<Dims>(*x) : std::nullopt);
  ctx.set_output(1, DType::Float, Dims{});
  ctx.set_output(2, DType::UInt8, Dims{});
}
}  // namespace
SONNX_SHAPE_RULE("", "DynamicQuantizeLinear", (11), dynamic_quantize_shape);
}  // namespace sonnx
