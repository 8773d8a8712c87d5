// SequenceEmpty: an empty sequence whose element type is the `dtype` attribute (default float).
#include "support/shape.h"
#include "support/random.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> sequence_empty(OpContext& ctx) { return {Value::make_sequence({}, dtype_attr(ctx, DType::Float))}; }
}  // namespace
SONNX_KERNEL("", "SequenceEmpty", 11, sequence_empty, Accuracy::Exact);
namespace {
void sequence_empty_shape(InferContext& ctx) {
  int64_t d = ctx.attr_int("dtype", static_cast<int64_t>(DType::Float));
  if (d <= 0 || d > 1000 || !is_valid_dtype(static_cast<int32_t>(d))) ctx.fail("dtype is not a data type: " + std::to_string(d));
  ctx.set_output(0, sequence_of(tensor_type(static_cast<DType>(d))));
}
}  // namespace
SONNX_SHAPE_RULE("", "SequenceEmpty", (11), sequence_empty_shape);
}  // namespace sonnx
