// GlobalLpPool: the Lp norm (sum |x|^p)^(1/p) of each (n, c) plane of X [N, C, D...]; Y is
// [N, C, 1, ..., 1]. Version 1 types p as a float (default 2.0), version 2 as an integer (default 2).
#include "op_params.h"
#include "params/pool.h"
#include "support/shape.h"
#include "support/window.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> global_lp_pool_with(OpContext& ctx, double p_norm) {
  return one(global_pool(ctx, ctx.input(0), [p_norm]<class T>(const T* plane, int64_t n) {
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += std::pow(std::fabs(static_cast<double>(static_cast<compute_t<T>>(plane[i]))), p_norm);
    return to_storage<T>(std::pow(sum, 1.0 / p_norm));
  }));
}

std::vector<Value> global_lp_pool(OpContext& ctx) { return global_lp_pool_with(ctx, PoolParams::read(ctx, ctx.version()).p); }
}  // namespace
SONNX_PARAMS("", "GlobalLpPool", (1, 2, 22), PoolParams);
SONNX_KERNEL("", "GlobalLpPool", 1, global_lp_pool, Accuracy::Rounding);
SONNX_KERNEL("", "GlobalLpPool", 2, global_lp_pool, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "GlobalLpPool", 22, global_lp_pool, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "GlobalLpPool", (1, 2, 22), global_pool_shape_rule);
}  // namespace sonnx
