// HannWindow (version 17): the Hann window: w[k] = 0.5 - 0.5*cos(2*pi*k/N).
// N = size (periodic=1, default) or size-1 (periodic=0); output [size] of type output_datatype.
// The coefficients are the float constants of the schema's function body; see support/spectral.h.
#include "op_params.h"
#include "params/window_function.h"
#include "support/shape.h"
#include "support/spectral.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> hann_window(OpContext& ctx) {
  return cosine_window(ctx, WindowFunctionParams::read(ctx, ctx.version()), 0.5f, 0.5f, 0.0f);
}
}  // namespace
SONNX_PARAMS("", "HannWindow", (17), WindowFunctionParams);
SONNX_KERNEL("", "HannWindow", 17, hann_window, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "HannWindow", (17), cosine_window_shape);
}  // namespace sonnx
