// ai.onnx.preview FlexAttention (version 1): scaled dot-product attention with optional modifier
// subgraphs. Q (B, Hq, L, E), K (B, Hkv, S, E), V (B, Hkv, S, Ev), all of type T1; Hq a multiple
// of Hkv, query head h reading key/value head h / (Hq / Hkv).
//   scores = (Q · Kᵀ) · scale              scale default 1 / sqrt(E)
//   scores = score_mod(scores)             when the graph attribute is given
//   probs  = softmax(scores) over the last axis
//   probs  = prob_mod(probs)               when given
//   Y      = probs · V                     (B, Hq, L, Ev) in T1
// scores and probs are tensors (B, Hq, L, S) of the softmax_precision type (default float, double
// for double inputs): each modifier runs once, through the interpreter's subgraph mechanism (as
// Loop and Scan run their bodies), on that whole tensor and must return one tensor of the same
// shape and type. Arithmetic in double; scores and probs are rounded to the softmax_precision
// type where the definition makes them values of that type, Y once to T1. A row whose scores are
// all -inf gives NaN, as the softmax of the definition does.
#include <cmath>
#include <limits>
#include <optional>

#include "op_params.h"
#include "support/kernel.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

struct FlexAttentionParams {
  // The modifier subgraphs (owned by the node), null when absent; each has one input and one output (checked).
  const Graph* score_mod = nullptr;
  const Graph* prob_mod = nullptr;
  std::optional<float> scale;              // absent: 1 / sqrt(head size)
  std::optional<DType> softmax_precision;  // a floating type (checked); absent: see precision()

  static FlexAttentionParams read(const AttrReader& r, int64_t /*version*/) {
    FlexAttentionParams p;
    p.score_mod = modifier(r, "score_mod");
    p.prob_mod = modifier(r, "prob_mod");
    if (r.has_attr("scale")) p.scale = r.attr_float("scale", 1.0f);
    if (r.has_attr("softmax_precision")) p.softmax_precision = r.attr_floating_type("softmax_precision", DType::Float);
    return p;
  }

  // The type of the scores and probabilities for inputs of type t1: softmax_precision, by default
  // double for double inputs and float otherwise (Undefined while t1 is unknown).
  DType precision(DType t1) const {
    if (softmax_precision) return *softmax_precision;
    if (t1 == DType::Undefined) return DType::Undefined;
    return t1 == DType::Double ? DType::Double : DType::Float;
  }

 private:
  // A modifier attribute, if given: a graph of one input and one output.
  static const Graph* modifier(const AttrReader& r, const char* attr) {
    if (!r.has_attr(attr)) return nullptr;
    const Graph& g = r.required_graph(attr);
    if (g.inputs.size() != 1 || g.outputs.size() != 1)
      r.fail(std::string(attr) + " must have exactly one input and one output, has " + std::to_string(g.inputs.size()) +
             " and " + std::to_string(g.outputs.size()));
    return &g;
  }
};

// Runs the modifier graph `g` (the attribute `attr`) on `x` (the tensor of `type` and `shape`) and
// returns its output's values.
std::vector<double> run_modifier(OpContext& ctx, const Graph& g, const char* attr, DType type, const Shape& shape,
                                 const std::vector<double>& x) {
  std::vector<Value> in;
  in.emplace_back(float_tensor(ctx, type, shape, x));
  std::vector<Value> out = ctx.run_subgraph(g, in);
  if (out.size() != 1 || !out[0].is_tensor()) ctx.fail(std::string(attr) + " must return one tensor");
  const Tensor& y = out[0].tensor;
  if (y.dtype() != type || y.shape() != shape)
    ctx.fail(std::string(attr) + " must return a " + std::string(dtype_name(type)) + " tensor of shape " + shape_str(shape) +
             ", returned " + std::string(dtype_name(y.dtype())) + " " + shape_str(y.shape()));
  return float_values(ctx, y);
}

// A value as stored in `type` (the rounding the modifiers' tensor type implies).
std::vector<double> rounded(OpContext& ctx, DType type, const Shape& shape, const std::vector<double>& x) {
  return float_values(ctx, float_tensor(ctx, type, shape, x));
}

std::vector<Value> flex_attention(OpContext& ctx) {
  FlexAttentionParams params = FlexAttentionParams::read(ctx, ctx.version());
  const Tensor& q_t = ctx.input(0);
  const Tensor& k_t = ctx.input(1);
  const Tensor& v_t = ctx.input(2);
  require_same_type(ctx, q_t, k_t);
  require_same_type(ctx, q_t, v_t);
  if (q_t.rank() != 4 || k_t.rank() != 4 || v_t.rank() != 4)
    ctx.fail("Q, K and V must be 4-D, got shapes " + shape_str(q_t.shape()) + ", " + shape_str(k_t.shape()) + ", " +
             shape_str(v_t.shape()));
  int64_t batch = q_t.dim(0), hq = q_t.dim(1), len = q_t.dim(2), e = q_t.dim(3);
  int64_t hkv = k_t.dim(1), kv_len = k_t.dim(2), ev = v_t.dim(3);
  if (k_t.dim(0) != batch || v_t.dim(0) != batch || k_t.dim(3) != e || v_t.dim(1) != hkv || v_t.dim(2) != kv_len)
    ctx.fail("Q, K and V have inconsistent shapes " + shape_str(q_t.shape()) + ", " + shape_str(k_t.shape()) + ", " +
             shape_str(v_t.shape()));
  if (hkv < 1 || hq % hkv != 0)
    ctx.fail("Q's head count " + std::to_string(hq) + " must be a multiple of K's " + std::to_string(hkv));
  DType prec = params.precision(q_t.dtype());
  double scale = params.scale ? static_cast<double>(*params.scale) : 1.0 / std::sqrt(static_cast<double>(e));
  std::vector<double> q = float_values(ctx, q_t), k = float_values(ctx, k_t), v = float_values(ctx, v_t);
  int64_t group = hq / hkv;

  Shape score_shape{batch, hq, len, kv_len};
  std::vector<double> s(static_cast<size_t>(batch * hq * len * kv_len));
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < hq; ++h)
      for (int64_t i = 0; i < len; ++i)
        for (int64_t j = 0; j < kv_len; ++j) {
          const double* qv = q.data() + static_cast<size_t>(((b * hq + h) * len + i) * e);
          const double* kv = k.data() + static_cast<size_t>(((b * hkv + h / group) * kv_len + j) * e);
          double dot = 0;
          for (int64_t d = 0; d < e; ++d) dot += qv[d] * kv[d];
          s[static_cast<size_t>(((b * hq + h) * len + i) * kv_len + j)] = dot * scale;
        }
  s = params.score_mod ? run_modifier(ctx, *params.score_mod, "score_mod", prec, score_shape, s)
                       : rounded(ctx, prec, score_shape, s);

  for (size_t row = 0; row < s.size(); row += static_cast<size_t>(kv_len)) {
    double mx = -std::numeric_limits<double>::infinity(), sum = 0;
    for (int64_t j = 0; j < kv_len; ++j) mx = std::max(mx, s[row + static_cast<size_t>(j)]);
    for (int64_t j = 0; j < kv_len; ++j)
      sum += (s[row + static_cast<size_t>(j)] = std::exp(s[row + static_cast<size_t>(j)] - mx));
    for (int64_t j = 0; j < kv_len; ++j) s[row + static_cast<size_t>(j)] /= sum;
  }
  s = params.prob_mod ? run_modifier(ctx, *params.prob_mod, "prob_mod", prec, score_shape, s)
                      : rounded(ctx, prec, score_shape, s);

  std::vector<double> y(static_cast<size_t>(batch * hq * len * ev), 0.0);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < hq; ++h)
      for (int64_t i = 0; i < len; ++i) {
        double* out = y.data() + static_cast<size_t>(((b * hq + h) * len + i) * ev);
        const double* p = s.data() + static_cast<size_t>(((b * hq + h) * len + i) * kv_len);
        for (int64_t j = 0; j < kv_len; ++j) {
          const double* vv = v.data() + static_cast<size_t>(((b * hkv + h / group) * kv_len + j) * ev);
          for (int64_t d = 0; d < ev; ++d) out[d] += p[j] * vv[d];
        }
      }
  return one(float_tensor(ctx, q_t.dtype(), Shape{batch, hq, len, ev}, y));
}
}  // namespace
SONNX_PARAMS("ai.onnx.preview", "FlexAttention", (1), FlexAttentionParams);
SONNX_KERNEL("ai.onnx.preview", "FlexAttention", 1, flex_attention, Accuracy::Rounding);
namespace {
// Y: (B, Hq, L, Ev) in Q's type. Each modifier graph is inferred with its input, a
// softmax_precision tensor (B, Hq, L, S), and must give one tensor of that element type.
void flex_attention_shape(InferContext& ctx) {
  FlexAttentionParams p = FlexAttentionParams::read(ctx, ctx.version());
  DType t = common_elem(ctx, {0, 1, 2});
  for (size_t i : {0, 1, 2}) require_rank(ctx, i, 4, "Q, K and V");
  const Dims* q = ctx.input_shape(0);
  const Dims* k = ctx.input_shape(1);
  const Dims* v = ctx.input_shape(2);
  DType prec = p.precision(t);
  Dim batch = q ? (*q)[0] : Dim{}, kv_len = k ? (*k)[2] : Dim{};
  if (k && v) {
    unify_dim(ctx, (*k)[1], (*v)[1], "key/value heads (K and V dim 1)");
    kv_len = unify_dim(ctx, kv_len, (*v)[2], "key/value length (K and V dim 2)");
  }
  if (q && k) unify_dim(ctx, (*q)[3], (*k)[3], "head size (Q and K dim 3)");
  for (const Dims* d : {k, v})
    if (d) batch = unify_dim(ctx, batch, (*d)[0], "batch (dim 0)");
  if (q && k && (*q)[1].value && (*k)[1].value && (*(*k)[1].value < 1 || *(*q)[1].value % *(*k)[1].value != 0))
    ctx.fail("Q's head count must be a multiple of K's");
  Dims scores{batch, q ? (*q)[1] : Dim{}, q ? (*q)[2] : Dim{}, kv_len};
  for (auto [name, g] : {std::pair{"score_mod", p.score_mod}, std::pair{"prob_mod", p.prob_mod}}) {
    if (!g) continue;
    std::vector<TypeInfo> out = ctx.infer_subgraph(*g, {tensor_type(prec, scores)});
    if (out.size() == 1 && out[0].kind == TypeInfo::Kind::Tensor && prec != DType::Undefined &&
        out[0].elem != DType::Undefined && out[0].elem != prec)
      ctx.fail(std::string(name) + " returns " + std::string(dtype_name(out[0].elem)) + ", not the softmax precision " +
               std::string(dtype_name(prec)));
  }
  ctx.set_output(0, t, Dims{batch, q ? (*q)[1] : Dim{}, q ? (*q)[2] : Dim{}, v ? (*v)[3] : Dim{}});
}
}  // namespace
SONNX_SHAPE_RULE("ai.onnx.preview", "FlexAttention", (1), flex_attention_shape);
}  // namespace sonnx
