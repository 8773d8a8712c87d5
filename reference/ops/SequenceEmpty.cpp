// SequenceEmpty: an empty sequence whose element type is the `dtype` attribute (default float).
#include "util_e1.h"

namespace sonnx {
namespace {
std::vector<Value> sequence_empty(OpContext& ctx) {
  return {Value::make_sequence({}, e1::dtype_attr(ctx, DType::Float))};
}
}  // namespace
SONNX_KERNEL("", "SequenceEmpty", 11, sequence_empty, Accuracy::Exact);
}  // namespace sonnx
