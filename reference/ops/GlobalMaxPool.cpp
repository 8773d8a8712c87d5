// GlobalMaxPool: the maximum of each (n, c) plane of X [N, C, D...]; Y is [N, C, 1, ..., 1].
// A NaN in the plane makes the result NaN; an empty plane gives −∞.
#include "util_d.h"

namespace sonnx {
namespace {
using namespace opsd;

std::vector<Value> global_max_pool(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() < 2) ctx.fail("input X must have rank at least 2 (N, C, ...), got " + shape_str(x.shape()));
  Shape out_shape(static_cast<size_t>(x.rank()), 1);
  out_shape[0] = x.dim(0);
  out_shape[1] = x.dim(1);
  int64_t planes = x.dim(0) * x.dim(1);
  int64_t plane = shape_size(Shape(x.shape().begin() + 2, x.shape().end()));
  return one(visit_float(ctx, x.dtype(), [&]<class T>() {
    using C = compute_t<T>;
    Tensor out(x.dtype(), out_shape);
    const T* px = x.data<T>();
    T* py = out.data<T>();
    for (int64_t p = 0; p < planes; ++p) {
      C best = -std::numeric_limits<C>::infinity();
      for (int64_t i = 0; i < plane; ++i) {
        C v = static_cast<C>(px[p * plane + i]);
        if (std::isnan(v)) {
          best = v;
          break;
        }
        if (v > best) best = v;
      }
      py[p] = to_storage<T>(best);
    }
    return out;
  }));
}
}  // namespace
SONNX_KERNEL("", "GlobalMaxPool", 1, global_max_pool, Accuracy::Exact);
}  // namespace sonnx
