// LinearAttention (version 27): the recurrent form of linear attention, token by token.
// query (B, T, Hq * dk), key (B, T, Hkv * dk), value (B, T, Hkv * dv), heads packed in the last
// axis (q_num_heads, kv_num_heads required; Hq a positive multiple of Hkv, query head h reading
// state h / (Hq / Hkv)). Per batch b and key/value head g the state S (dk x dv) starts as
// past_state[b, g] (zeros when omitted) and, for t = 0 .. T-1, with e = exp(decay) (per head, or
// per key dim: row d of S scaled by e[d]) and beta per head (or one for all heads):
//   linear:      S = S + k ⊗ v
//   gated:       S = e·S + k ⊗ v
//   delta:       S = S + beta · k ⊗ (v - Sᵀk)
//   gated_delta: S = e·S + beta · k ⊗ (v - (e·S)ᵀk)
//   output[b, t, h] = scale · qᵀ S        (scale 0, the default, means 1 / sqrt(dk))
// present_state is the final S (B, Hkv, dk, dv). decay is required by the gated rules and beta
// by the delta rules; an input the rule does not read is refused rather than ignored (as onnx's
// reference implementation does). chunk_size only tunes chunked implementations: no effect here.
// Arithmetic in double; output rounded once to query's type, present_state to past_state's (the
// type S; query's when past_state is omitted, as onnx's reference and function body do).
#include <cmath>

#include "op_params.h"
#include "support/kernel.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

struct LinearAttentionParams {
  // update_rule: gated (decays the state) for 'gated' and 'gated_delta', delta (writes v - Sᵀk
  // scaled by beta) for 'delta' and 'gated_delta'; 'linear' is neither.
  bool gated = true, delta = true;
  int64_t q_num_heads = 0, kv_num_heads = 0;  // required; q_num_heads a positive multiple of kv_num_heads
  float scale = 0.0f;                         // 0: 1 / sqrt(dk)
  int64_t chunk_size = 64;                    // a tuning hint of chunked implementations: no effect here

  static LinearAttentionParams read(const AttrReader& r, int64_t /*version*/) {
    LinearAttentionParams p;
    std::string rule = r.attr_string("update_rule", "gated_delta");
    if (rule == "linear") p.gated = p.delta = false;
    else if (rule == "gated") p.delta = false;
    else if (rule == "delta") p.gated = false;
    else if (rule != "gated_delta")
      r.fail("update_rule must be 'linear', 'gated', 'delta' or 'gated_delta', got '" + rule + "'");
    if (!r.has_attr("q_num_heads") || !r.has_attr("kv_num_heads")) r.fail("q_num_heads and kv_num_heads are required");
    p.q_num_heads = r.attr_int("q_num_heads", 0);
    p.kv_num_heads = r.attr_int("kv_num_heads", 0);
    if (p.q_num_heads < 1 || p.kv_num_heads < 1 || p.q_num_heads % p.kv_num_heads != 0)
      r.fail("q_num_heads (" + std::to_string(p.q_num_heads) + ") must be a positive multiple of kv_num_heads (" +
             std::to_string(p.kv_num_heads) + ")");
    p.scale = r.attr_float("scale", 0.0f);
    p.chunk_size = r.attr_int("chunk_size", 64);
    return p;
  }
};

// A packed (B, T, heads * size) input; `at(b, t, h)` points at its `size` elements.
struct Packed {
  std::vector<double> v;
  int64_t seq = 0, heads = 0, size = 0;
  const double* at(int64_t b, int64_t t, int64_t h) const {
    return v.data() + static_cast<size_t>(((b * seq + t) * heads + h) * size);
  }
};

Packed packed(OpContext& ctx, size_t i, const char* name, int64_t batch, int64_t seq, int64_t heads) {
  const Tensor& x = ctx.input(i);
  require_same_type(ctx, ctx.input(0), x);
  if (x.rank() != 3 || x.dim(0) != batch || x.dim(1) != seq || heads < 1 || x.dim(2) % heads != 0)
    ctx.fail(std::string(name) + " must have shape (" + std::to_string(batch) + ", " + std::to_string(seq) + ", " +
             std::to_string(heads) + " * head size), got " + shape_str(x.shape()));
  return {float_values(ctx, x), seq, heads, x.dim(2) / heads};
}

std::vector<Value> linear_attention(OpContext& ctx) {
  LinearAttentionParams params = LinearAttentionParams::read(ctx, ctx.version());
  int64_t hq = params.q_num_heads, hkv = params.kv_num_heads;
  const Tensor& q_t = ctx.input(0);
  if (q_t.rank() != 3) ctx.fail("query must be 3-D (B, T, q_num_heads * head size), got shape " + shape_str(q_t.shape()));
  int64_t batch = q_t.dim(0), seq = q_t.dim(1);
  Packed q = packed(ctx, 0, "query", batch, seq, hq);
  Packed k = packed(ctx, 1, "key", batch, seq, hkv);
  Packed v = packed(ctx, 2, "value", batch, seq, hkv);
  int64_t dk = q.size, dv = v.size;
  if (k.size != dk) ctx.fail("key's head size " + std::to_string(k.size) + " differs from query's " + std::to_string(dk));

  if (params.gated != ctx.has_input(4))
    ctx.fail(params.gated ? "the gated update rules need the decay input"
                          : "decay is given but the update rule does not use it");
  if (params.delta != ctx.has_input(5))
    ctx.fail(params.delta ? "the delta update rules need the beta input" : "beta is given but the update rule does not use it");
  Packed decay, beta;
  if (params.gated) {
    decay = packed(ctx, 4, "decay", batch, seq, hkv);  // size dk: per key dim; 1: per head
    if (decay.size != dk && decay.size != 1)
      ctx.fail("decay's last dim must be kv_num_heads * dk or kv_num_heads, got shape " + shape_str(ctx.input(4).shape()));
  }
  if (params.delta) {
    const Tensor& bt = ctx.input(5);
    int64_t heads = bt.rank() == 3 && bt.dim(2) == 1 ? 1 : hkv;
    beta = packed(ctx, 5, "beta", batch, seq, heads);
    if (beta.size != 1) ctx.fail("beta's last dim must be kv_num_heads or 1, got shape " + shape_str(bt.shape()));
  }

  Shape state_shape{batch, hkv, dk, dv};
  std::vector<double> state(static_cast<size_t>(batch * hkv * dk * dv), 0.0);
  DType state_type = q_t.dtype();
  if (ctx.has_input(3)) {
    const Tensor& p = ctx.input(3);
    if (p.shape() != state_shape)
      ctx.fail("past_state must have shape (B, kv_num_heads, dk, dv) = " + shape_str(state_shape) + ", got " +
               shape_str(p.shape()));
    state = float_values(ctx, p);
    state_type = p.dtype();
  }
  auto scale = static_cast<double>(params.scale);
  if (scale == 0.0) scale = 1.0 / std::sqrt(static_cast<double>(dk));

  int64_t group = hq / hkv;
  std::vector<double> out(static_cast<size_t>(batch * seq * hq * dv), 0.0), retrieved(static_cast<size_t>(dv));
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t g = 0; g < hkv; ++g) {
      double* s = state.data() + static_cast<size_t>((b * hkv + g) * dk * dv);  // s[d * dv + m]
      for (int64_t t = 0; t < seq; ++t) {
        const double* kt = k.at(b, t, g);
        const double* vt = v.at(b, t, g);
        if (params.gated) {
          const double* e = decay.at(b, t, g);
          for (int64_t d = 0; d < dk; ++d) {
            double f = std::exp(e[decay.size == 1 ? 0 : d]);
            for (int64_t m = 0; m < dv; ++m) s[d * dv + m] *= f;
          }
        }
        double bt = params.delta ? *beta.at(b, t, beta.heads == 1 ? 0 : g) : 1.0;
        for (int64_t m = 0; m < dv; ++m) {
          double r = 0;
          if (params.delta)
            for (int64_t d = 0; d < dk; ++d) r += s[d * dv + m] * kt[d];
          retrieved[static_cast<size_t>(m)] = bt * (vt[m] - r);  // the value written (v itself without delta)
        }
        for (int64_t d = 0; d < dk; ++d)
          for (int64_t m = 0; m < dv; ++m) s[d * dv + m] += kt[d] * retrieved[static_cast<size_t>(m)];
        for (int64_t h = g * group; h < (g + 1) * group; ++h) {
          const double* qt = q.at(b, t, h);
          double* o = out.data() + static_cast<size_t>(((b * seq + t) * hq + h) * dv);
          for (int64_t m = 0; m < dv; ++m) {
            double acc = 0;
            for (int64_t d = 0; d < dk; ++d) acc += qt[d] * s[d * dv + m];
            o[m] = scale * acc;
          }
        }
      }
    }
  std::vector<Value> result;
  result.emplace_back(float_tensor(ctx, q_t.dtype(), Shape{batch, seq, hq * dv}, out));
  result.emplace_back(float_tensor(ctx, state_type, state_shape, state));
  return result;
}
}  // namespace
SONNX_PARAMS("", "LinearAttention", (27), LinearAttentionParams);
SONNX_KERNEL("", "LinearAttention", 27, linear_attention, Accuracy::Rounding);
namespace {
// output (B, T, Hq * dv) in query's type, dv = value dim 2 / Hkv; present_state
// (B, Hkv, dk, dv), dk = query dim 2 / Hq, in past_state's type (query's when omitted).
void linear_attention_shape(InferContext& ctx) {
  DType t = common_elem(ctx, {0, 1, 2, 4, 5});
  LinearAttentionParams p = LinearAttentionParams::read(ctx, ctx.version());  // checks the head counts
  int64_t hq = p.q_num_heads, hkv = p.kv_num_heads;
  for (size_t i : {0, 1, 2}) require_rank(ctx, i, 3, "query, key and value");
  const Dims* q = ctx.input_shape(0);
  const Dims* v = ctx.input_shape(2);
  auto per_head = [&](const Dims* d, int64_t heads, const char* what) -> Dim {
    if (!d || !(*d)[2].value) return Dim{};
    if (*(*d)[2].value % heads != 0) ctx.fail(std::string(what) + "'s last dim is not a multiple of its head count");
    return known_dim(*(*d)[2].value / heads);
  };
  Dim dk = per_head(q, hq, "query"), dv = per_head(v, hkv, "value");
  Dim batch = q ? (*q)[0] : Dim{}, seq = q ? (*q)[1] : Dim{};
  if (v) {
    batch = unify_dim(ctx, batch, (*v)[0], "batch (query and value dim 0)");
    seq = unify_dim(ctx, seq, (*v)[1], "sequence length (query and value dim 1)");
  }
  Dim hidden = dv.value ? known_dim(*dv.value * hq) : Dim{};
  ctx.set_output(0, t, Dims{batch, seq, hidden});
  if (!ctx.has_output(1)) return;
  DType s = ctx.has_input(3) ? ctx.input_elem(3) : t;
  ctx.set_output(1, s, Dims{batch, known_dim(hkv), dk, dv});
}
}  // namespace
SONNX_SHAPE_RULE("", "LinearAttention", (27), linear_attention_shape);
}  // namespace sonnx
