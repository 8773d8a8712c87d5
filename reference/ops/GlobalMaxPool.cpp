// GlobalMaxPool: the maximum of each (n, c) plane of X [N, C, D...]; Y is [N, C, 1, ..., 1].
// A NaN in the plane makes the result NaN; an empty plane gives −∞.
#include "support/shape.h"
#include "support/window.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> global_max_pool(OpContext& ctx) {
  return one(global_pool(ctx, ctx.input(0), []<class T>(const T* plane, int64_t n) {
    using C = compute_t<T>;
    C best = -std::numeric_limits<C>::infinity();
    for (int64_t i = 0; i < n; ++i) {
      C v = static_cast<C>(plane[i]);
      if (std::isnan(v)) return to_storage<T>(v);
      if (v > best) best = v;
    }
    return to_storage<T>(best);
  }));
}
}  // namespace
SONNX_KERNEL("", "GlobalMaxPool", 1, global_max_pool, Accuracy::Exact);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "GlobalMaxPool", 22, global_max_pool, Accuracy::Exact);
SONNX_SHAPE_RULE("", "GlobalMaxPool", (1, 22), global_pool_shape_rule);
}  // namespace sonnx
