// AveragePool: the mean over each window of X. The sum covers the input elements of the window;
// the divisor is their number, or with count_include_pad=1 the number of window positions inside
// the padded input [−pad_begin, in + pad_end) (positions past the end padding, which ceil_mode can
// create, never count).
// Version history: 1 (padding never counted); 7 adds count_include_pad; 10 adds ceil_mode;
// 11 rewords auto_pad; 19 adds dilations (the padded-count divisor counts dilated positions);
// 22 adds bfloat16 and states that windows starting in the end padding are ignored (as here
// from 10 on). Absent attributes reproduce the older behaviour, so one kernel serves all.
// 11 rewords auto_pad. Absent attributes reproduce the older behaviour, so one kernel serves all.
#include "op_params.h"
#include "params/pool.h"
#include "support/shape.h"
#include "support/window.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> average_pool(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  PoolParams params = PoolParams::read(ctx, ctx.version());
  PoolSetup s = pool_setup(ctx, params, x.shape());
  bool include_pad = params.count_include_pad;
  if (!include_pad) require_windows_meet_input(ctx, s.g);  // no mean of no element
  const WindowGeometry& g = s.g;
  // Per axis and output index: how many kernel positions fall inside the padded input.
  std::vector<std::vector<int64_t>> padded_count(g.rank());
  for (size_t d = 0; d < g.rank(); ++d) {
    padded_count[d].resize(static_cast<size_t>(g.out[d]));
    for (int64_t o = 0; o < g.out[d]; ++o) {
      int64_t cnt = 0;
      for (int64_t k = 0; k < g.kernel[d]; ++k) {
        int64_t i = o * g.strides[d] - g.pad_begin[d] + k * g.dilations[d];
        if (i >= -g.pad_begin[d] && i < g.in[d] + g.pad_end[d]) ++cnt;
      }
      padded_count[d][static_cast<size_t>(o)] = cnt;
    }
  }
  return one(visit_float(ctx, x.dtype(), [&]<class T>() {
    Tensor out(x.dtype(), s.out_shape);
    const T* px = x.data<T>();
    T* py = out.data<T>();
    pool_loop(s, [&](int64_t p, int64_t o, const std::vector<int64_t>& idx, const std::vector<Tap>& taps) {
      const T* plane = px + p * s.in_plane;
      double sum = 0;
      for (const Tap& t : taps) sum += static_cast<double>(static_cast<compute_t<T>>(plane[t.in_off]));
      double count = static_cast<double>(taps.size());
      if (include_pad) {
        int64_t c = 1;
        for (size_t d = 0; d < idx.size(); ++d) c *= padded_count[d][static_cast<size_t>(idx[d])];
        count = static_cast<double>(c);
      }
      py[p * s.out_plane + o] = to_storage<T>(sum / count);
    });
    return out;
  }));
}
}  // namespace
SONNX_PARAMS("", "AveragePool", (1, 7, 10, 11, 19, 22), PoolParams);
SONNX_KERNEL("", "AveragePool", 1, average_pool, Accuracy::Rounding);
SONNX_KERNEL("", "AveragePool", 19, average_pool, Accuracy::Rounding);
SONNX_KERNEL("", "AveragePool", 22, average_pool, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "AveragePool", (1, 7, 10, 11, 19, 22), pool_shape_rule);
}  // namespace sonnx
