// GlobalAveragePool: the mean of each (n, c) plane of X [N, C, D...]; Y is [N, C, 1, ..., 1].
#include "util_d.h"

namespace sonnx {
namespace {
using namespace opsd;

std::vector<Value> global_average_pool(OpContext& ctx) {
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
      for (int64_t i = 0; i < plane; ++i) sum += static_cast<double>(static_cast<compute_t<T>>(px[p * plane + i]));
      py[p] = to_storage<T>(sum / static_cast<double>(plane));  // an empty plane gives NaN
    }
    return out;
  }));
}
}  // namespace
SONNX_KERNEL("", "GlobalAveragePool", 1, global_average_pool, Accuracy::Rounding);
}  // namespace sonnx
