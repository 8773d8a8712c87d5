// HammingWindow (version 17): the Hamming window: w[k] = 25/46 - 21/46*cos(2*pi*k/N).
// N = size (periodic=1, default) or size-1 (periodic=0); output [size] of type output_datatype.
// The coefficients are the float constants of the schema's function body; see support/spectral.h.
#include "support/shape.h"
#include "support/spectral.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> hamming_window(OpContext& ctx) { return cosine_window(ctx, 0.54347825050354f, 0.45652174949645996f, 0.0f); }
}  // namespace
SONNX_KERNEL("", "HammingWindow", 17, hamming_window, Accuracy::Rounding);
namespace {
// A 1-D window of `size` (a scalar input) elements of output_datatype (float by default).
void window_fn_shape(InferContext& ctx) {
  int64_t d = ctx.attr_int("output_datatype", static_cast<int64_t>(DType::Float));
  if (d <= 0 || d > 1000 || !is_valid_dtype(static_cast<int32_t>(d))) ctx.fail("output_datatype is not a data type");
  require_rank(ctx, 0, 0, "size");
  Dim n;
  if (auto v = ctx.input_ints(0); v && v->size() == 1) n = size_dim(ctx, (*v)[0], "size");
  ctx.set_output(0, static_cast<DType>(d), Dims{n});
}
}  // namespace
SONNX_SHAPE_RULE("", "HammingWindow", (17), window_fn_shape);
}  // namespace sonnx
