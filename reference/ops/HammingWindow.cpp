// HammingWindow (version 17): the Hamming window: w[k] = 25/46 - 21/46*cos(2*pi*k/N).
// N = size (periodic=1, default) or size-1 (periodic=0); output [size] of type output_datatype.
// The coefficients are the float constants of the schema's function body; see support/spectral.h.
#include "op_params.h"
#include "params/window_function.h"
#include "support/shape.h"
#include "support/spectral.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> hamming_window(OpContext& ctx) {
  return cosine_window(ctx, WindowFunctionParams::read(ctx, ctx.version()), 0.54347825050354f, 0.45652174949645996f, 0.0f);
}
}  // namespace
SONNX_PARAMS("", "HammingWindow", (17), WindowFunctionParams);
SONNX_KERNEL("", "HammingWindow", 17, hamming_window, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "HammingWindow", (17), cosine_window_shape);
}  // namespace sonnx
