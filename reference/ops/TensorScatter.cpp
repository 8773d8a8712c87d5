// TensorScatter (version 24): a functional KV-cache update. present_cache is past_cache with the
// slices of `update` written along the sequence axis (attribute axis, default -2, never the batch
// axis 0): for every prefix index p over the dims before the axis (p[0] the batch index b) and
// every sequence position s < sequence_length = update's size on the axis,
//   present_cache[p, w[b] + s, ...] = update[p, s, ...]
// where w = write_indices (int64, shape (batch_size), zeros when omitted). mode "linear" (default)
// requires 0 <= w[b] and w[b] + sequence_length <= max_sequence_length (traps otherwise); mode
// "circular" takes the cache position modulo max_sequence_length (the non-negative remainder). The
// spec's pseudocode applies the modulo to the whole index tuple; only the sequence position can
// exceed the cache, and the onnx reference reduces just that one, as this kernel does. update must
// match past_cache in every dim but the axis, where it may not be longer. Any element type.
#include "op_params.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
struct TensorScatterParams {
  bool circular = false;  // mode "circular"; "linear" (the default) otherwise
  int64_t axis = -2;      // the sequence axis, not yet checked against the rank; never 0
  static TensorScatterParams read(const AttrReader& r, int64_t /*version*/) {
    std::string mode = r.attr_string("mode", "linear");
    if (mode != "linear" && mode != "circular") r.fail("mode must be \"linear\" or \"circular\", got \"" + mode + "\"");
    TensorScatterParams p{mode == "circular", r.attr_int("axis", -2)};
    if (p.axis == 0) r.fail("axis cannot be the batch axis 0");
    return p;
  }
};

void check_update_shape(OpContext& ctx, const Tensor& past, const Tensor& update, size_t axis) {
  if (update.rank() != past.rank()) ctx.fail("update must have the rank of past_cache");
  for (size_t d = 0; d < past.shape().size(); ++d) {
    bool ok = d == axis ? update.shape()[d] <= past.shape()[d] : update.shape()[d] == past.shape()[d];
    if (!ok)
      ctx.fail("update of shape " + shape_str(update.shape()) + " does not fit past_cache of shape " + shape_str(past.shape()) +
               " (axis " + std::to_string(axis) + ")");
  }
  if (update.dtype() != past.dtype()) ctx.fail("update and past_cache have different element types");
}

std::vector<int64_t> write_indices(OpContext& ctx, int64_t batch) {
  if (!ctx.has_input(2)) return std::vector<int64_t>(static_cast<size_t>(batch), 0);
  const Tensor& w = ctx.input(2);
  require_type(ctx, w, DType::Int64, "write_indices");
  if (w.rank() != 1 || w.dim(0) != batch)
    ctx.fail("write_indices must have shape (" + std::to_string(batch) + "), got " + shape_str(w.shape()));
  return w.to_int64_vector();
}

std::vector<Value> tensor_scatter(OpContext& ctx) {
  const Tensor& past = ctx.input(0);
  const Tensor& update = ctx.input(1);
  TensorScatterParams params = TensorScatterParams::read(ctx, ctx.version());
  if (past.rank() < 2) ctx.fail("past_cache must have rank >= 2 (batch and sequence axes)");
  int64_t axis = normalize_axis(ctx, params.axis, past.rank());
  if (axis == 0) ctx.fail("axis cannot be the batch axis 0");  // -rank
  auto ax = static_cast<size_t>(axis);
  check_update_shape(ctx, past, update, ax);
  std::vector<int64_t> w = write_indices(ctx, past.dim(0));
  int64_t max_len = past.dim(axis), seq_len = update.dim(axis);
  int64_t inner = element_count(past.shape(), ax + 1);
  int64_t per_batch = element_count(past.shape(), 1, ax);  // prefix positions per batch index
  Tensor out = past;
  for (int64_t b = 0; b < past.dim(0); ++b) {
    int64_t start = w[static_cast<size_t>(b)];
    if (!params.circular && (start < 0 || start > max_len - seq_len))
      ctx.fail("write index " + std::to_string(start) + " with " + std::to_string(seq_len) +
               " updates does not fit a cache of length " + std::to_string(max_len));
    for (int64_t p = b * per_batch; p < (b + 1) * per_batch; ++p)
      for (int64_t s = 0; s < seq_len; ++s) {
        int64_t pos = !params.circular ? start + s : ((start % max_len + max_len) % max_len + s) % max_len;
        copy_elements(update, (p * seq_len + s) * inner, out, (p * max_len + pos) * inner, inner);
      }
  }
  return one(std::move(out));
}
}  // namespace
SONNX_PARAMS("", "TensorScatter", (24), TensorScatterParams);
SONNX_KERNEL("", "TensorScatter", 24, tensor_scatter, Accuracy::Exact);
SONNX_SHAPE_RULE("", "TensorScatter", (24), same_as_input_rule);
}  // namespace sonnx
