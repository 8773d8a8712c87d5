// SequenceEmpty: an empty sequence whose element type is the `dtype` attribute (default float).
#include "support/random.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> sequence_empty(OpContext& ctx) {
  return {Value::make_sequence({}, dtype_attr(ctx, DType::Float))};
}
}  // namespace
SONNX_KERNEL("", "SequenceEmpty", 11, sequence_empty, Accuracy::Exact);
}  // namespace sonnx
