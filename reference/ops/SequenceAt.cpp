// SequenceAt: the tensor at `position` of the sequence; position in [-n, n-1], negative from the back.
#include "support/control_flow.h"
#include "support/sequence.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> sequence_at(OpContext& ctx) {
  const Value& seq = sequence_input(ctx, 0);
  int64_t n = static_cast<int64_t>(seq.sequence.size());
  int64_t pos = scalar_int_input(ctx, 1, "position");
  if (pos < -n || pos >= n)
    ctx.fail("position " + std::to_string(pos) + " is outside [" + std::to_string(-n) + ", " + std::to_string(n - 1) + "]");
  if (pos < 0) pos += n;
  return {seq.sequence[static_cast<size_t>(pos)]};
}
}  // namespace
SONNX_KERNEL("", "SequenceAt", 11, sequence_at, Accuracy::Exact);
}  // namespace sonnx
