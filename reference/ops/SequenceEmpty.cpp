// SequenceEmpty: an empty sequence whose element type is the `dtype` attribute (default float).
#include "op_params.h"
#include "params/random.h"
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
struct SequenceEmptyParams {
  DType dtype = DType::Float;  // the element type (checked to name a data type)
  static SequenceEmptyParams read(const AttrReader& r, int64_t /*version*/) {
    return {r.attr_dtype("dtype").value_or(DType::Float)};
  }
};

std::vector<Value> sequence_empty(OpContext& ctx) {
  return {Value::make_sequence({}, SequenceEmptyParams::read(ctx, ctx.version()).dtype)};
}
}  // namespace
SONNX_PARAMS("", "SequenceEmpty", (11), SequenceEmptyParams);
SONNX_KERNEL("", "SequenceEmpty", 11, sequence_empty, Accuracy::Exact);
namespace {
void sequence_empty_shape(InferContext& ctx) {
  ctx.set_output(0, sequence_of(tensor_type(SequenceEmptyParams::read(ctx, ctx.version()).dtype)));
}
}  // namespace
SONNX_SHAPE_RULE("", "SequenceEmpty", (11), sequence_empty_shape);
}  // namespace sonnx
