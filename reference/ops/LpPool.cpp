// LpPool: the Lp norm over each window of X, (sum |x|^p)^(1/p); padding contributes nothing
// (it would contribute |0|^p = 0 anyway). Version 1 types p as a float (default 2.0), versions 2
// and 11 as an integer (default 2); 11 only rewords auto_pad. Version 18 adds ceil_mode and
// dilations (window geometry as MaxPool's, support/window.h); 22 adds bfloat16.
// and 11 as an integer (default 2); 11 only rewords auto_pad.
#include "op_params.h"
#include "params/pool.h"
#include "support/shape.h"
#include "support/window.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> lp_pool(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  PoolParams params = PoolParams::read(ctx, ctx.version());
  double p_norm = params.p;
  PoolSetup s = pool_setup(ctx, params, x.shape());
  return one(visit_float(ctx, x.dtype(), [&]<class T>() {
    Tensor out(x.dtype(), s.out_shape);
    const T* px = x.data<T>();
    T* py = out.data<T>();
    pool_loop(s, [&](int64_t p, int64_t o, const std::vector<int64_t>&, const std::vector<Tap>& taps) {
      const T* plane = px + p * s.in_plane;
      double sum = 0;
      for (const Tap& t : taps)
        sum += std::pow(std::fabs(static_cast<double>(static_cast<compute_t<T>>(plane[t.in_off]))), p_norm);
      py[p * s.out_plane + o] = to_storage<T>(std::pow(sum, 1.0 / p_norm));
    });
    return out;
  }));
}

}  // namespace
SONNX_PARAMS("", "LpPool", (1, 2, 11, 18, 22), PoolParams);
SONNX_KERNEL("", "LpPool", 1, lp_pool, Accuracy::Rounding);
SONNX_KERNEL("", "LpPool", 2, lp_pool, Accuracy::Rounding);
SONNX_KERNEL("", "LpPool", 18, lp_pool, Accuracy::Rounding);
SONNX_KERNEL("", "LpPool", 22, lp_pool, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "LpPool", (1, 2, 11, 18, 22), pool_shape_rule);
}  // namespace sonnx
