// MaxPool: the maximum over each window of X (elements of the padding take no part).
// Version history: 1 (Y only); 8 adds the optional Indices output and storage_order; 10 adds
// ceil_mode and dilations; 11 rewords auto_pad; 12 adds int8/uint8; 22 adds bfloat16 and states
// that windows starting in the end padding are ignored (as here from 10 on). The attributes are absent in
// older versions (defaults reproduce the old behaviour), so one kernel serves every version.
//
// Indices: the position of the selected element in X flattened, padding not counted:
// (n*C + c) * prod(spatial) + the element's offset in its spatial plane, row-major
// (storage_order 0) or column-major (storage_order 1, the first spatial axis varying fastest).
// Ties keep the first element in row-major window order. A NaN in the window makes the result
// NaN (the first NaN is the one selected), as numpy's max does. A window with no element of the
// input has no maximum: the model is outside the specification and the kernel traps (inference
// reports it when the shape is known; spec/ops/MaxPool.md).
// Relies on ops/ops.mlw MaxPool.window_start: MaxPool windows start before the end padding, in both ceil modes.
// Relies on ops/conv.mlw Axis.window_meets_input: with pads at most (k-1)*d and H >= d every pooling window meets the input.
// Relies on ops/pooling.mlw MaxPoolNd.maxpool_unique: MaxPool values are unique, whatever storage_order and tie-breaking.
#include "op_params.h"
#include "params/pool.h"
#include "support/shape.h"
#include "support/indexing.h"
#include "support/window.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> max_pool(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  PoolParams params = PoolParams::read(ctx, ctx.version());
  PoolSetup s = pool_setup(ctx, params, x.shape());
  require_windows_meet_input(ctx, s.g);
  int64_t storage_order = params.storage_order;
  bool want_indices = ctx.has_output(1);

  // Column-major offset of each row-major spatial offset (only for storage_order 1).
  std::vector<int64_t> col_major;
  if (want_indices && storage_order == 1) {
    col_major.resize(static_cast<size_t>(s.in_plane));
    Shape in_sp(s.g.in.begin(), s.g.in.end());
    for_each_index(in_sp, [&](const std::vector<int64_t>& idx, int64_t lin) {
      int64_t off = 0;
      for (size_t d = idx.size(); d-- > 0;) off = off * in_sp[d] + idx[d];
      col_major[static_cast<size_t>(lin)] = off;
    });
  }

  Tensor indices(DType::Int64, s.out_shape);
  int64_t* pi = indices.data<int64_t>();
  Tensor y = visit_real(ctx, x.dtype(), [&]<class T>() {
    using C = compute_t<T>;
    Tensor out(x.dtype(), s.out_shape);
    const T* px = x.data<T>();
    T* py = out.data<T>();
    pool_loop(s, [&](int64_t p, int64_t o, const std::vector<int64_t>&, const std::vector<Tap>& taps) {
      const T* plane = px + p * s.in_plane;
      bool found = false;
      C best{};
      int64_t best_off = -1;
      for (const Tap& t : taps) {
        C v = static_cast<C>(plane[t.in_off]);
        bool take = !found;
        if constexpr (std::is_floating_point_v<C>) {
          if (found && !std::isnan(best) && (std::isnan(v) || v > best)) take = true;
        } else {
          if (found && v > best) take = true;
        }
        if (take) {
          best = v;
          best_off = t.in_off;
          found = true;
        }
      }
      py[p * s.out_plane + o] = to_storage<T>(best);  // every window has a tap: require_windows_meet_input
      if (want_indices) {
        int64_t off = storage_order == 1 ? col_major[static_cast<size_t>(best_off)] : best_off;
        pi[p * s.out_plane + o] = p * s.in_plane + off;
      }
    });
    return out;
  });
  std::vector<Value> result;
  result.emplace_back(std::move(y));
  if (want_indices) result.emplace_back(std::move(indices));
  return result;
}
}  // namespace
SONNX_PARAMS("", "MaxPool", (1, 8, 10, 11, 12, 22), PoolParams);
SONNX_KERNEL("", "MaxPool", 1, max_pool, Accuracy::Exact);
SONNX_KERNEL("", "MaxPool", 22, max_pool, Accuracy::Exact);
SONNX_SHAPE_RULE("", "MaxPool", (1, 8, 10, 11, 12, 22), pool_shape_rule);
}  // namespace sonnx
