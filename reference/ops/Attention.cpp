// Attention: scaled dot-product attention (versions 23 and 24).
// Q is (batch, q_heads, q_len, head) or (batch, q_len, q_heads * head); K and V likewise with
// kv_heads, kv_len and (for V) v_head. 3-D inputs need the attributes q_num_heads and kv_num_heads.
// q_heads must be a multiple of kv_heads: query head h reads key/value head h / (q_heads / kv_heads)
// (multi-head, grouped-query and multi-query attention). With the optional past_key and
// past_value (both or neither, (batch, kv_heads, past_len, head / v_head)), the keys and values
// are the past ones followed by K and V along the sequence: total = past_len + kv_len. For each
// batch b, query head h and query position i, over the total key positions j:
//   s[j] = scale * (Q[b, h, i] . K[b, h', j])          scale default 1 / sqrt(head)
//   s[j] = softcap * tanh(s[j] / softcap)              only when softcap > 0
//   s[j] = s[j] + bias[b, h, i, j]
//   p = softmax(s) over j,  Y[b, h, i] = sum_j p[j] V[b, h', j]
// The bias adds, each as 0 or -inf unless said otherwise:
//   - attn_mask (optional), broadcast to (batch, q_heads, q_len, total) from the right: a bool
//     mask gives 0 where true and -inf where false, any other type adds its values. In version
//     24 a last dim shorter than total is padded with -inf; in version 23 it must be 1 or total.
//   - is_causal = 1: -inf where j > i + past_len (the upper-left aligned triangle of the new
//     positions). Version 23's text allows only one of attn_mask and is_causal; given both, this
//     kernel applies both, as version 24 prescribes.
//   - nonpad_kv_seqlen (version 24, int64 (batch)): -inf where j >= nonpad_kv_seqlen[b].
// A row whose every score is -inf gives NaN, as the softmax of the definition does.
// Outputs: Y (Q's type; 3-D as (batch, q_len, q_heads * v_head) for 3-D inputs), present_key and
// present_value (the concatenated caches, 4-D), qk_matmul_output ((batch, q_heads, q_len, total)
// in Q's type): the scores s after the matmul (qk_matmul_output_mode 0), after softcap (1), after
// the bias (2) or after the softmax (3).
// Everything is computed in double and rounded once per output: the scaling of Q and K by
// sqrt(scale) each, which the definition recommends against overflow, is not needed in double,
// and softmax_precision (which asks for at least that precision) is checked and then satisfied.
// Version 24's schema carries a function body; this kernel computes what it computes.
// (onnx 1.19's definition applied softcap after the mask and swapped modes 1 and 2; the 1.22
// documents this follows put softcap first, so 1.19's test data with both differs.)
#include <limits>
#include <optional>

#include "op_params.h"
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
constexpr double kNegInf = -std::numeric_limits<double>::infinity();

struct AttentionParams {
  // What qk_matmul_output holds: the scores after the matmul (0), after softcap (1), after the
  // bias (2) or after the softmax (3).
  enum class QkOutput { MatMul, Softcap, Bias, Softmax };
  bool is_causal = false;
  // Heads of a 3-D Q, and of 3-D K and V; 0 when absent (4-D inputs do not read them; a 3-D input
  // needs one dividing its hidden size, checked by the kernel).
  int64_t q_num_heads = 0, kv_num_heads = 0;
  QkOutput qk_output = QkOutput::MatMul;
  std::optional<float> scale;  // absent: 1 / sqrt(head size)
  float softcap = 0.0f;        // applied only when > 0
  // A floating type (checked); computing in double satisfies any of them.
  std::optional<DType> softmax_precision;

  static AttentionParams read(const AttrReader& r, int64_t /*version*/) {
    AttentionParams p;
    p.is_causal = r.attr_int("is_causal", 0) != 0;
    p.q_num_heads = r.attr_int("q_num_heads", 0);
    p.kv_num_heads = r.attr_int("kv_num_heads", 0);
    int64_t mode = r.attr_int("qk_matmul_output_mode", 0);
    if (mode < 0 || mode > 3) r.fail("qk_matmul_output_mode must be 0, 1, 2 or 3, got " + std::to_string(mode));
    p.qk_output = static_cast<QkOutput>(mode);
    if (r.has_attr("scale")) p.scale = r.attr_float("scale", 1.0f);
    p.softcap = r.attr_float("softcap", 0.0f);
    if (r.has_attr("softmax_precision")) p.softmax_precision = r.attr_floating_type("softmax_precision", DType::Float);
    return p;
  }
};

// A tensor of Q, K or V as (batch, heads, seq, size) doubles.
struct Heads {
  std::vector<double> v;
  int64_t batch = 0, heads = 0, seq = 0, size = 0;
  const double* at(int64_t b, int64_t h, int64_t s) const {
    return v.data() + static_cast<size_t>(((b * heads + h) * seq + s) * size);
  }
};

// A 3-D tensor's heads come from `heads` (the attribute `heads_attr`; 0 when absent).
Heads read_heads(OpContext& ctx, const Tensor& t, int64_t heads, const char* heads_attr, const char* name) {
  Heads r;
  std::vector<double> v = float_values(ctx, t);
  if (t.rank() == 4) {
    r = {std::move(v), t.dim(0), t.dim(1), t.dim(2), t.dim(3)};
    return r;
  }
  if (t.rank() != 3) ctx.fail(std::string(name) + " must be 3-D or 4-D, got shape " + shape_str(t.shape()));
  if (heads < 1 || t.dim(2) % heads != 0)
    ctx.fail(std::string("a 3-D ") + name + " needs attribute " + heads_attr + " dividing its hidden size " +
             std::to_string(t.dim(2)));
  r = {std::vector<double>(v.size()), t.dim(0), heads, t.dim(1), t.dim(2) / heads};
  // (batch, seq, heads, size) -> (batch, heads, seq, size)
  for (int64_t b = 0; b < r.batch; ++b)
    for (int64_t s = 0; s < r.seq; ++s)
      for (int64_t h = 0; h < heads; ++h)
        for (int64_t d = 0; d < r.size; ++d)
          r.v[static_cast<size_t>(((b * heads + h) * r.seq + s) * r.size + d)] =
              v[static_cast<size_t>(((b * r.seq + s) * heads + h) * r.size + d)];
  return r;
}

// The past cache (if any) followed by the new keys or values along the sequence.
Heads with_past(OpContext& ctx, Heads cur, size_t past_input, const char* name) {
  if (!ctx.has_input(past_input)) return cur;
  const Tensor& p = ctx.input(past_input);
  if (p.rank() != 4 || p.dim(0) != cur.batch || p.dim(1) != cur.heads || p.dim(3) != cur.size)
    ctx.fail(std::string(name) + " of shape " + shape_str(p.shape()) + " does not match (batch, kv_heads, *, head size) = (" +
             std::to_string(cur.batch) + ", " + std::to_string(cur.heads) + ", *, " + std::to_string(cur.size) + ")");
  std::vector<double> pv = float_values(ctx, p);
  Heads r{{}, cur.batch, cur.heads, p.dim(2) + cur.seq, cur.size};
  auto block_past = static_cast<size_t>(p.dim(2) * cur.size), block_cur = static_cast<size_t>(cur.seq * cur.size);
  for (size_t bh = 0; bh < static_cast<size_t>(cur.batch * cur.heads); ++bh) {
    r.v.insert(r.v.end(), pv.begin() + static_cast<std::ptrdiff_t>(bh * block_past),
               pv.begin() + static_cast<std::ptrdiff_t>((bh + 1) * block_past));
    r.v.insert(r.v.end(), cur.v.begin() + static_cast<std::ptrdiff_t>(bh * block_cur),
               cur.v.begin() + static_cast<std::ptrdiff_t>((bh + 1) * block_cur));
  }
  return r;
}

struct AttnShape {
  int64_t batch, q_heads, kv_heads, q_len, total, past_len;
};

// The additive bias (batch, q_heads, q_len, total) from attn_mask, is_causal and nonpad_kv_seqlen.
std::vector<double> attention_bias(OpContext& ctx, const AttentionParams& p, const AttnShape& a) {
  std::vector<double> bias(static_cast<size_t>(a.batch * a.q_heads * a.q_len * a.total), 0.0);
  Shape full{a.batch, a.q_heads, a.q_len, a.total};
  if (ctx.has_input(3)) {
    const Tensor& m = ctx.input(3);
    if (m.rank() > 4) ctx.fail("attn_mask must have rank at most 4, got shape " + shape_str(m.shape()));
    Shape md(4 - static_cast<size_t>(m.rank()), 1);
    md.insert(md.end(), m.shape().begin(), m.shape().end());
    for (size_t d = 0; d < 3; ++d)
      if (md[d] != 1 && md[d] != full[d])
        ctx.fail("attn_mask of shape " + shape_str(m.shape()) + " does not broadcast to " + shape_str(full));
    bool last_ok = md[3] == a.total || (ctx.version() == 23 ? md[3] == 1 : md[3] < a.total);
    if (!last_ok) ctx.fail("attn_mask of shape " + shape_str(m.shape()) + " does not fit " + shape_str(full));
    bool is_bool = m.dtype() == DType::Bool;
    std::vector<double> mv = is_bool ? std::vector<double>{} : real_values(ctx, m);
    const bool* mb = is_bool ? m.data<bool>() : nullptr;
    auto ms = strides_of(md);
    for_each_index(full, [&](const std::vector<int64_t>& idx, int64_t lin) {
      if (idx[3] >= md[3] && md[3] != 1) {  // version 24's padding of a short last dim
        bias[static_cast<size_t>(lin)] = kNegInf;
        return;
      }
      int64_t src = 0;
      for (size_t d = 0; d < 4; ++d) src += (md[d] == 1 ? 0 : idx[d]) * ms[d];
      if (md[3] == 1 && idx[3] > 0 && ctx.version() != 23) {  // padded too
        bias[static_cast<size_t>(lin)] = kNegInf;
        return;
      }
      bias[static_cast<size_t>(lin)] = is_bool ? (mb[src] ? 0.0 : kNegInf) : mv[static_cast<size_t>(src)];
    });
  }
  bool causal = p.is_causal;
  std::vector<int64_t> nonpad;
  if (ctx.version() >= 24 && ctx.has_input(6)) {
    const Tensor& n = ctx.input(6);
    require_type(ctx, n, DType::Int64, "nonpad_kv_seqlen");
    if (n.shape() != Shape{a.batch}) ctx.fail("nonpad_kv_seqlen must have shape (batch_size)");
    nonpad = n.to_int64_vector();
  }
  for_each_index(full, [&](const std::vector<int64_t>& idx, int64_t lin) {
    int64_t i = idx[2], j = idx[3];
    if ((causal && j > i + a.past_len) || (!nonpad.empty() && j >= nonpad[static_cast<size_t>(idx[0])]))
      bias[static_cast<size_t>(lin)] = kNegInf;
  });
  return bias;
}

// softmax of one row in place; a row of only -inf becomes NaN.
void softmax_row(double* s, int64_t n) {
  double mx = kNegInf;
  for (int64_t j = 0; j < n; ++j) mx = std::max(mx, s[j]);
  double sum = 0;
  for (int64_t j = 0; j < n; ++j) sum += (s[j] = std::exp(s[j] - mx));
  for (int64_t j = 0; j < n; ++j) s[j] /= sum;
}

// (batch, heads, seq, size) -> (batch, seq, heads * size), for 3-D outputs.
std::vector<double> to_hidden(const std::vector<double>& v, int64_t batch, int64_t heads, int64_t seq, int64_t size) {
  std::vector<double> r(v.size());
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t s = 0; s < seq; ++s)
        for (int64_t d = 0; d < size; ++d)
          r[static_cast<size_t>(((b * seq + s) * heads + h) * size + d)] =
              v[static_cast<size_t>(((b * heads + h) * seq + s) * size + d)];
  return r;
}

Tensor heads_tensor(OpContext& ctx, DType type, const Heads& h) {
  return float_tensor(ctx, type, Shape{h.batch, h.heads, h.seq, h.size}, h.v);
}

std::vector<Value> attention(OpContext& ctx) {
  AttentionParams p = AttentionParams::read(ctx, ctx.version());
  if (ctx.has_input(4) != ctx.has_input(5)) ctx.fail("past_key and past_value must be given together");
  const Tensor& q_t = ctx.input(0);
  if (q_t.rank() != ctx.input(1).rank() || q_t.rank() != ctx.input(2).rank()) ctx.fail("Q, K and V must have the same rank");
  Heads q = read_heads(ctx, q_t, p.q_num_heads, "q_num_heads", "Q");
  Heads k = with_past(ctx, read_heads(ctx, ctx.input(1), p.kv_num_heads, "kv_num_heads", "K"), 4, "past_key");
  Heads v = with_past(ctx, read_heads(ctx, ctx.input(2), p.kv_num_heads, "kv_num_heads", "V"), 5, "past_value");
  if (k.batch != q.batch || v.batch != q.batch || k.size != q.size || v.heads != k.heads || v.seq != k.seq)
    ctx.fail("Q, K and V have inconsistent shapes " + shape_str(q_t.shape()) + ", " + shape_str(ctx.input(1).shape()) + ", " +
             shape_str(ctx.input(2).shape()));
  if (k.heads < 1 || q.heads % k.heads != 0)
    ctx.fail("q_num_heads " + std::to_string(q.heads) + " must be a multiple of kv_num_heads " + std::to_string(k.heads));
  int64_t past_len = ctx.has_input(4) ? ctx.input(4).dim(2) : 0;
  AttnShape a{q.batch, q.heads, k.heads, q.seq, k.seq, past_len};
  std::vector<double> bias = attention_bias(ctx, p, a);
  double scale = p.scale ? static_cast<double>(*p.scale) : 1.0 / std::sqrt(static_cast<double>(q.size));
  auto softcap = static_cast<double>(p.softcap);
  using Qk = AttentionParams::QkOutput;
  Qk mode = p.qk_output;
  int64_t group = q.heads / k.heads;
  std::vector<double> y(static_cast<size_t>(q.batch * q.heads * q.seq * v.size), 0.0), qk(bias.size());
  std::vector<double> s(static_cast<size_t>(a.total));
  for (int64_t b = 0; b < q.batch; ++b)
    for (int64_t h = 0; h < q.heads; ++h)
      for (int64_t i = 0; i < q.seq; ++i) {
        auto row = static_cast<size_t>(((b * q.heads + h) * q.seq + i) * a.total);
        const double* qv = q.at(b, h, i);
        for (int64_t j = 0; j < a.total; ++j) {
          const double* kv = k.at(b, h / group, j);
          double dot = 0;
          for (int64_t d = 0; d < q.size; ++d) dot += qv[d] * kv[d];
          double x = dot * scale;
          if (mode == Qk::MatMul) qk[row + static_cast<size_t>(j)] = x;
          if (softcap > 0) x = softcap * std::tanh(x / softcap);
          if (mode == Qk::Softcap) qk[row + static_cast<size_t>(j)] = x;
          x += bias[row + static_cast<size_t>(j)];
          if (mode == Qk::Bias) qk[row + static_cast<size_t>(j)] = x;
          s[static_cast<size_t>(j)] = x;
        }
        softmax_row(s.data(), a.total);
        double* out = y.data() + static_cast<size_t>(((b * q.heads + h) * q.seq + i) * v.size);
        for (int64_t j = 0; j < a.total; ++j) {
          if (mode == Qk::Softmax) qk[row + static_cast<size_t>(j)] = s[static_cast<size_t>(j)];
          const double* vv = v.at(b, h / group, j);
          for (int64_t d = 0; d < v.size; ++d) out[d] += s[static_cast<size_t>(j)] * vv[d];
        }
      }
  Tensor y_t = q_t.rank() == 4 ? float_tensor(ctx, q_t.dtype(), Shape{q.batch, q.heads, q.seq, v.size}, y)
                               : float_tensor(ctx, q_t.dtype(), Shape{q.batch, q.seq, q.heads * v.size},
                                              to_hidden(y, q.batch, q.heads, q.seq, v.size));
  std::vector<Value> out;
  out.emplace_back(std::move(y_t));
  out.emplace_back(heads_tensor(ctx, ctx.input(1).dtype(), k));
  out.emplace_back(heads_tensor(ctx, ctx.input(2).dtype(), v));
  out.emplace_back(float_tensor(ctx, q_t.dtype(), Shape{a.batch, a.q_heads, a.q_len, a.total}, qk));
  return out;
}
}  // namespace
SONNX_PARAMS("", "Attention", (23, 24), AttentionParams);
SONNX_KERNEL("", "Attention", 23, attention, Accuracy::Rounding);
SONNX_KERNEL("", "Attention", 24, attention, Accuracy::Rounding);
namespace {
// Element types only: Y and qk_matmul_output have Q's, present_key K's, present_value V's. (The
// shapes depend on the 3-D/4-D layout and the head attributes; left unknown.)
void attention_shape(InferContext& ctx) {
  const size_t sources[4] = {0, 1, 2, 0};
  for (size_t i = 0; i < 4; ++i)
    if (ctx.has_output(i)) ctx.set_output(i, ctx.input_elem(sources[i]), std::nullopt);
}
}  // namespace
SONNX_SHAPE_RULE("", "Attention", (23, 24), attention_shape);
}  // namespace sonnx
