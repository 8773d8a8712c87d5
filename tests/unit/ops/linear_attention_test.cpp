// LinearAttention-27: hand-computed cases; the linear and gated rules against the unrolled
// (attention) form o_t = scale · Σ_{s≤t} (decay from s+1 to t) (q_t·k_s) v_s; the delta rules
// against the matrix form S_t = (I - β k kᵀ) diag(e) S_{t-1} + β k vᵀ; a sequence in one call
// against chunks with the carried state; state types; errors; the shape rule.
#include <cmath>

#include "tests/unit/infer_text_util.h"
#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

constexpr int64_t kOpset = 27;

std::vector<float> linattn_wavy(size_t n, float phase, float amp = 0.9f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(1.3f * static_cast<float>(i) + phase) * amp;
  return v;
}

std::vector<Value> linear_attention(const std::vector<Value>& in, const std::string& rule, int64_t hq, int64_t hkv,
                                    float scale = 0) {
  std::vector<onnx::AttributeProto> attrs{attr_string("update_rule", rule), attr_int("q_num_heads", hq),
                                          attr_int("kv_num_heads", hkv)};
  if (scale != 0) attrs.push_back(attr_float("scale", scale));
  return run_op("LinearAttention", kOpset, in, attrs, 2);
}

// Sizes of a test case and packed-layout indexing.
struct Sizes {
  int64_t B, T, Hq, Hkv, dk, dv;
  size_t q(int64_t b, int64_t t, int64_t h, int64_t d) const { return static_cast<size_t>(((b * T + t) * Hq + h) * dk + d); }
  size_t k(int64_t b, int64_t t, int64_t g, int64_t d) const { return static_cast<size_t>(((b * T + t) * Hkv + g) * dk + d); }
  size_t v(int64_t b, int64_t t, int64_t g, int64_t m) const { return static_cast<size_t>(((b * T + t) * Hkv + g) * dv + m); }
  size_t o(int64_t b, int64_t t, int64_t h, int64_t m) const { return static_cast<size_t>(((b * T + t) * Hq + h) * dv + m); }
  size_t s(int64_t b, int64_t g, int64_t d, int64_t m) const { return static_cast<size_t>(((b * Hkv + g) * dk + d) * dv + m); }
};

struct Case {
  Sizes n;
  std::vector<float> q, k, v, past, decay, beta;
  bool per_key_decay = true, shared_beta = false;
};

Case make_case(const Sizes& n) {
  Case c{n, {}, {}, {}, {}, {}, {}};
  c.q = linattn_wavy(static_cast<size_t>(n.B * n.T * n.Hq * n.dk), 0.1f);
  c.k = linattn_wavy(static_cast<size_t>(n.B * n.T * n.Hkv * n.dk), 1.2f, 0.5f);
  c.v = linattn_wavy(static_cast<size_t>(n.B * n.T * n.Hkv * n.dv), 2.3f);
  c.past = linattn_wavy(static_cast<size_t>(n.B * n.Hkv * n.dk * n.dv), 0.4f, 0.3f);
  return c;
}

// log-decay of (b, t, g) for key dim d.
double log_decay(const Case& c, int64_t b, int64_t t, int64_t g, int64_t d) {
  if (c.decay.empty()) return 0;
  const Sizes& n = c.n;
  return c.per_key_decay ? c.decay[n.k(b, t, g, d)] : c.decay[static_cast<size_t>((b * n.T + t) * n.Hkv + g)];
}

// Linear and gated rules unrolled: no recurrence, every output a sum over the earlier tokens.
std::vector<double> unrolled(const Case& c, double scale) {
  const Sizes& n = c.n;
  std::vector<double> out(static_cast<size_t>(n.B * n.T * n.Hq * n.dv), 0.0);
  for (int64_t b = 0; b < n.B; ++b)
    for (int64_t h = 0; h < n.Hq; ++h) {
      int64_t g = h / (n.Hq / n.Hkv);
      for (int64_t t = 0; t < n.T; ++t)
        for (int64_t m = 0; m < n.dv; ++m) {
          double acc = 0;
          for (int64_t d = 0; d < n.dk; ++d) {
            double from_start = 0;  // sum of the log-decays of tokens 0..t
            for (int64_t r = 0; r <= t; ++r) from_start += log_decay(c, b, r, g, d);
            if (!c.past.empty()) acc += c.q[n.q(b, t, h, d)] * std::exp(from_start) * c.past[n.s(b, g, d, m)];
            for (int64_t s = 0; s <= t; ++s) {
              double after_s = 0;
              for (int64_t r = s + 1; r <= t; ++r) after_s += log_decay(c, b, r, g, d);
              acc += c.q[n.q(b, t, h, d)] * c.k[n.k(b, s, g, d)] * std::exp(after_s) * c.v[n.v(b, s, g, m)];
            }
          }
          out[n.o(b, t, h, m)] = scale * acc;
        }
    }
  return out;
}

// Delta rules as matrix products: S <- (I - β k kᵀ) · diag(e) · S + β k vᵀ. Returns outputs and
// the final states.
std::pair<std::vector<double>, std::vector<double>> matrix_form(const Case& c, double scale) {
  const Sizes& n = c.n;
  std::vector<double> out(static_cast<size_t>(n.B * n.T * n.Hq * n.dv), 0.0), final_state;
  using Mat = std::vector<std::vector<double>>;
  for (int64_t b = 0; b < n.B; ++b)
    for (int64_t g = 0; g < n.Hkv; ++g) {
      Mat S(static_cast<size_t>(n.dk), std::vector<double>(static_cast<size_t>(n.dv), 0.0));
      for (int64_t d = 0; d < n.dk; ++d)
        for (int64_t m = 0; m < n.dv; ++m) S[d][m] = c.past.empty() ? 0.0 : c.past[n.s(b, g, d, m)];
      for (int64_t t = 0; t < n.T; ++t) {
        double beta = c.shared_beta ? c.beta[static_cast<size_t>(b * n.T + t)]
                                    : c.beta[static_cast<size_t>((b * n.T + t) * n.Hkv + g)];
        Mat A(static_cast<size_t>(n.dk), std::vector<double>(static_cast<size_t>(n.dk)));
        for (int64_t i = 0; i < n.dk; ++i)
          for (int64_t j = 0; j < n.dk; ++j) A[i][j] = (i == j ? 1.0 : 0.0) - beta * c.k[n.k(b, t, g, i)] * c.k[n.k(b, t, g, j)];
        Mat next(static_cast<size_t>(n.dk), std::vector<double>(static_cast<size_t>(n.dv), 0.0));
        for (int64_t i = 0; i < n.dk; ++i)
          for (int64_t m = 0; m < n.dv; ++m) {
            for (int64_t j = 0; j < n.dk; ++j) next[i][m] += A[i][j] * std::exp(log_decay(c, b, t, g, j)) * S[j][m];
            next[i][m] += beta * c.k[n.k(b, t, g, i)] * c.v[n.v(b, t, g, m)];
          }
        S = next;
        for (int64_t h = g * (n.Hq / n.Hkv); h < (g + 1) * (n.Hq / n.Hkv); ++h)
          for (int64_t m = 0; m < n.dv; ++m) {
            double acc = 0;
            for (int64_t d = 0; d < n.dk; ++d) acc += c.q[n.q(b, t, h, d)] * S[d][m];
            out[n.o(b, t, h, m)] = scale * acc;
          }
      }
      for (int64_t d = 0; d < n.dk; ++d)
        for (int64_t m = 0; m < n.dv; ++m) final_state.push_back(S[d][m]);
    }
  return {out, final_state};
}

std::vector<float> to_float(const std::vector<double>& v) { return {v.begin(), v.end()}; }

std::vector<Value> inputs_of(const Case& c, bool with_past) {
  const Sizes& n = c.n;
  std::vector<Value> in{tensor<float>({n.B, n.T, n.Hq * n.dk}, c.q), tensor<float>({n.B, n.T, n.Hkv * n.dk}, c.k),
                        tensor<float>({n.B, n.T, n.Hkv * n.dv}, c.v),
                        with_past ? tensor<float>({n.B, n.Hkv, n.dk, n.dv}, c.past) : none()};
  if (!c.decay.empty() || !c.beta.empty())
    in.push_back(c.decay.empty() ? none() : tensor<float>({n.B, n.T, c.per_key_decay ? n.Hkv * n.dk : n.Hkv}, c.decay));
  if (!c.beta.empty()) in.push_back(tensor<float>({n.B, n.T, c.shared_beta ? 1 : n.Hkv}, c.beta));
  return in;
}

// q = [1, 2], k = [3, 4], v = [5, 6], one head of size 1 (scale 1): worked out by hand.
TEST(LinearAttentionOp, HandComputedRules) {
  auto q = tensor<float>({1, 2, 1}, {1, 2}), k = tensor<float>({1, 2, 1}, {3, 4}), v = tensor<float>({1, 2, 1}, {5, 6});
  auto lin = linear_attention({q, k, v}, "linear", 1, 1);
  expect_floats_near(lin[0], {15, 78});  // S = 15, then 15 + 24 = 39
  expect_floats_near(lin[1], {39});
  auto half = tensor<float>({1, 2, 1}, {std::log(0.5f), std::log(0.5f)});
  auto gated = linear_attention({q, k, v, none(), half}, "gated", 1, 1);
  expect_floats_near(gated[0], {15, 63}, 1e-5f);  // S = 15, then 7.5 + 24 = 31.5
  expect_floats_near(gated[1], {31.5f}, 1e-5f);
  auto beta = tensor<float>({1, 2, 1}, {0.5f, 1});
  auto delta = linear_attention({q, k, v, none(), none(), beta}, "delta", 1, 1);
  expect_floats_near(delta[0], {7.5f, -177});  // S = 0.5·3·5 = 7.5, then 7.5 + 4·(6 - 4·7.5) = -88.5
  expect_floats_near(delta[1], {-88.5f});
}

TEST(LinearAttentionOp, LinearRuleMatchesUnrolledFormWithGqaAndPast) {
  Case c = make_case({2, 4, 4, 2, 3, 2});
  auto out = linear_attention(inputs_of(c, true), "linear", 4, 2);
  expect_floats_near(out[0], to_float(unrolled(c, 1 / std::sqrt(3.0))), 1e-5f);
  auto scaled = linear_attention(inputs_of(c, false), "linear", 4, 2, 0.25f);
  c.past.clear();
  expect_floats_near(scaled[0], to_float(unrolled(c, 0.25)), 1e-5f);
}

TEST(LinearAttentionOp, GatedRuleMatchesUnrolledFormPerKeyAndPerHead) {
  for (bool per_key : {true, false}) {
    Case c = make_case({2, 5, 2, 2, 3, 2});
    c.per_key_decay = per_key;
    c.decay = linattn_wavy(static_cast<size_t>(2 * 5 * 2 * (per_key ? 3 : 1)), 0.9f, 0.4f);
    for (float& g : c.decay) g = -std::abs(g);
    auto out = linear_attention(inputs_of(c, true), "gated", 2, 2);
    expect_floats_near(out[0], to_float(unrolled(c, 1 / std::sqrt(3.0))), 1e-5f);
  }
}

TEST(LinearAttentionOp, DeltaRulesMatchMatrixForm) {
  for (const std::string rule : {"delta", "gated_delta"}) {
    for (bool shared_beta : {false, true}) {
      Case c = make_case({2, 4, 4, 2, 3, 2});
      c.shared_beta = shared_beta;
      c.beta = linattn_wavy(static_cast<size_t>(2 * 4 * (shared_beta ? 1 : 2)), 0.5f, 0.45f);
      for (float& b : c.beta) b += 0.5f;
      if (rule == "gated_delta") {
        c.decay = linattn_wavy(static_cast<size_t>(2 * 4 * 2 * 3), 1.9f, 0.3f);
        for (float& g : c.decay) g = -std::abs(g);
      }
      auto out = linear_attention(inputs_of(c, true), rule, 4, 2);
      auto [want, state] = matrix_form(c, 1 / std::sqrt(3.0));
      SCOPED_TRACE(rule + (shared_beta ? " shared beta" : ""));
      expect_floats_near(out[0], to_float(want), 1e-5f);
      expect_floats_near(out[1], to_float(state), 1e-5f);
    }
  }
}

// Five tokens in one call, or 2 then 3 with the first call's present_state as past_state.
TEST(LinearAttentionOp, ChunkedRunEqualsWholeRun) {
  const Sizes n{1, 5, 2, 1, 2, 3};
  Case c = make_case(n);
  c.beta = linattn_wavy(5, 0.3f, 0.4f);
  for (float& b : c.beta) b += 0.5f;
  c.decay = linattn_wavy(5, 1.0f, 0.2f);
  for (float& g : c.decay) g = -std::abs(g);
  c.per_key_decay = false;
  auto whole = linear_attention(inputs_of(c, true), "gated_delta", 2, 1);
  auto slice = [](const std::vector<float>& v, int64_t per_token, int64_t from, int64_t count) {
    return std::vector<float>(v.begin() + from * per_token, v.begin() + (from + count) * per_token);
  };
  Value state = tensor<float>({1, 1, 2, 3}, c.past);
  std::vector<float> got;
  for (auto [from, count] : {std::pair<int64_t, int64_t>{0, 2}, {2, 3}}) {
    std::vector<Value> in{tensor<float>({1, count, 4}, slice(c.q, 4, from, count)),
                          tensor<float>({1, count, 2}, slice(c.k, 2, from, count)),
                          tensor<float>({1, count, 3}, slice(c.v, 3, from, count)),
                          state,
                          tensor<float>({1, count, 1}, slice(c.decay, 1, from, count)),
                          tensor<float>({1, count, 1}, slice(c.beta, 1, from, count))};
    auto part = linear_attention(in, "gated_delta", 2, 1);
    for (float x : values_of<float>(part[0])) got.push_back(x);
    state = part[1];
  }
  expect_floats_near(whole[0], got, 1e-6f);
  expect_floats_near(whole[1], values_of<float>(state), 1e-6f);
}

// present_state has past_state's type (S); without past_state, query's.
TEST(LinearAttentionOp, StateTypeFollowsPastState) {
  auto h = [](std::vector<float> v) {
    std::vector<float16_t> r;
    for (float f : v) r.emplace_back(f);
    return r;
  };
  auto q = tensor<float16_t>({1, 1, 2}, h({1, 0.5f})), k = tensor<float16_t>({1, 1, 2}, h({0.5f, 1}));
  auto v = tensor<float16_t>({1, 1, 1}, h({2}));
  auto with_past = linear_attention({q, k, v, tensor<float>({1, 1, 2, 1}, {0.25f, -0.5f})}, "linear", 1, 1, 1);
  EXPECT_EQ(with_past[0].tensor.dtype(), DType::Float16);
  EXPECT_EQ(with_past[1].tensor.dtype(), DType::Float);
  expect_floats_near(with_past[1], {1.25f, 1.5f});                             // past + k ⊗ v
  EXPECT_EQ(static_cast<float>(values_of<float16_t>(with_past[0])[0]), 2.0f);  // 1·1.25 + 0.5·1.5
  auto without = linear_attention({q, k, v}, "linear", 1, 1, 1);
  EXPECT_EQ(without[1].tensor.dtype(), DType::Float16);
}

// bfloat16 activations and state: the float computation on the same values, within bfloat16's
// precision.
TEST(LinearAttentionOp, BFloat16) {
  Case c = make_case({1, 3, 2, 1, 2, 2});
  c.decay = {-0.25f, -0.5f, -0.125f};
  c.beta = {0.5f, 0.75f, 0.25f};
  c.per_key_decay = false;
  std::vector<Value> in = inputs_of(c, true), in16, in32;
  for (const Value& v : in) {
    in16.push_back(retyped<bfloat16_t>(v));
    in32.push_back(tensor<float>(v.tensor.shape(), floats_of<bfloat16_t>(in16.back())));
  }
  auto got = linear_attention(in16, "gated_delta", 2, 1);
  auto want = linear_attention(in32, "gated_delta", 2, 1);
  ASSERT_EQ(got[0].tensor.dtype(), DType::BFloat16);
  ASSERT_EQ(got[1].tensor.dtype(), DType::BFloat16);
  expect_near(floats_of<bfloat16_t>(got[0]), values_of<float>(want[0]), 1e-2f);
  expect_near(floats_of<bfloat16_t>(got[1]), values_of<float>(want[1]), 1e-2f);
}

TEST(LinearAttentionOp, RejectsMissingOrUnusedGatesAndBadHeads) {
  auto x = tensor<float>({1, 1, 2}, {1, 2});
  auto g = tensor<float>({1, 1, 1}, {0});
  expect_trap([&] { linear_attention({x, x, x}, "gated", 1, 1); }, "decay");
  expect_trap([&] { linear_attention({x, x, x, none(), g}, "gated_delta", 1, 1); }, "beta");
  expect_trap([&] { linear_attention({x, x, x, none(), g}, "linear", 1, 1); }, "decay");
  expect_trap([&] { linear_attention({x, x, x, none(), none(), g}, "gated", 1, 1); }, "decay");
  expect_trap([&] { linear_attention({x, x, x}, "softmax", 1, 1); }, "update_rule");
  expect_trap([&] { linear_attention({x, x, x}, "linear", 3, 2); }, "multiple");
  expect_trap([&] { linear_attention({x, x, x, tensor<float>({1, 1, 1, 1}, {0})}, "linear", 1, 1); }, "past_state");
}

TEST(LinearAttentionOp, ShapeRule) {
  InferenceResult r = infer_text(R"(<ir_version: 10, opset_import: ["" : 27]>
g (float16[B,T,32] Q, float16[B,T,16] K, float16[B,T,24] V, float[B,2,8,12] P, float16[B,T,2] G, float16[B,T,2] E)
    => (float16 Y, float S, float16 S2) {
  Y, S = LinearAttention<q_num_heads = 4, kv_num_heads = 2>(Q, K, V, P, G, E)
  Y2, S2 = LinearAttention<q_num_heads = 4, kv_num_heads = 2>(Q, K, V, , G, E)
})");
  EXPECT_TRUE(r.errors.empty()) << dump_inference(r);
  EXPECT_EQ(inferred(r, "Y"), "tensor(float16)[B,T,48]");
  EXPECT_EQ(inferred(r, "S"), "tensor(float)[B,2,8,12]");
  EXPECT_EQ(inferred(r, "S2"), "tensor(float16)[B,2,8,12]");
}

}  // namespace
}  // namespace sonnx::testing
