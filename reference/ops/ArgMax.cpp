// ArgMax: the int64 index of the maximum along `axis` (default 0); keepdims (default 1) keeps the
// axis as size 1. Version 11 documents negative axes (accepted in every version); version 12 adds
// select_last_index (ties pick the last occurrence instead of the first); 13 adds bfloat16.
// NaN counts as the maximum (numpy.argmax). An empty axis has no index and traps.
#include "support/reduce.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> argmax(OpContext& ctx) { return arg_extreme(ctx, /*want_max=*/true); }
}  // namespace
SONNX_KERNEL("", "ArgMax", 1, argmax, Accuracy::Exact);
}  // namespace sonnx
