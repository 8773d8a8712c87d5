// GlobalAveragePool: the mean of each (n, c) plane of X [N, C, D...]; Y is [N, C, 1, ..., 1].
#include "support/shape.h"
#include "support/window.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> global_average_pool(OpContext& ctx) {
  return one(global_pool(ctx, ctx.input(0), []<class T>(const T* plane, int64_t n) {
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += static_cast<double>(static_cast<compute_t<T>>(plane[i]));
    return to_storage<T>(sum / static_cast<double>(n));  // an empty plane gives NaN
  }));
}
}  // namespace
SONNX_KERNEL("", "GlobalAveragePool", 1, global_average_pool, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "GlobalAveragePool", 22, global_average_pool, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "GlobalAveragePool", (1, 22), global_pool_shape_rule);
}  // namespace sonnx
