// GlobalLpPool: the Lp norm (sum |x|^p)^(1/p) of each (n, c) plane of X [N, C, D...]; Y is
// [N, C, 1, ..., 1]. Version 1 types p as a float (default 2.0), version 2 as an integer (default 2).
#include "util_d.h"

namespace sonnx {
namespace {
using namespace opsd;

std::vector<Value> global_lp_pool_with(OpContext& ctx, double p_norm) {
  const Tensor& x = ctx.input(0);
  if (x.rank() < 2) ctx.fail("input X must have rank at least 2 (N, C, ...), got " + shape_str(x.shape()));
  Shape out_shape(static_cast<size_t>(x.rank()), 1);
  out_shape[0] = x.dim(0);
  out_shape[1] = x.dim(1);
  int64_t planes = x.dim(0) * x.dim(1);
  int64_t plane = shape_size(Shape(x.shape().begin() + 2, x.shape().end()));
  return one(visit_float(ctx, x.dtype(), [&]<class T>() {
    Tensor out(x.dtype(), out_shape);
    const T* px = x.data<T>();
    T* py = out.data<T>();
    for (int64_t p = 0; p < planes; ++p) {
      double sum = 0;
      for (int64_t i = 0; i < plane; ++i)
        sum += std::pow(std::fabs(static_cast<double>(static_cast<compute_t<T>>(px[p * plane + i]))), p_norm);
      py[p] = to_storage<T>(std::pow(sum, 1.0 / p_norm));
    }
    return out;
  }));
}

std::vector<Value> global_lp_pool_v1(OpContext& ctx) { return global_lp_pool_with(ctx, ctx.attr_float("p", 2.0f)); }
std::vector<Value> global_lp_pool_v2(OpContext& ctx) {
  return global_lp_pool_with(ctx, static_cast<double>(ctx.attr_int("p", 2)));
}
}  // namespace
SONNX_KERNEL("", "GlobalLpPool", 1, global_lp_pool_v1, Accuracy::Rounding);
SONNX_KERNEL("", "GlobalLpPool", 2, global_lp_pool_v2, Accuracy::Rounding);
}  // namespace sonnx
