// CausalConvWithState-27: hand-computed cases, the depthwise Conv kernel as a cross-check, a
// sequence run in one call against the same sequence run in chunks with the carried state,
// float16, errors, and the shape rule.
#include <cmath>

#include "tests/unit/infer_text_util.h"
#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

constexpr int64_t kOpset = 27;

std::vector<Value> causal(const std::vector<Value>& in, const std::string& activation = "") {
  std::vector<onnx::AttributeProto> attrs;
  if (!activation.empty()) attrs.push_back(attr_string("activation", activation));
  return run_op("CausalConvWithState", kOpset, in, attrs, 2);
}

// Deterministic values in (-1, 1) that are not a simple pattern.
std::vector<float> causal_wavy(size_t n, float phase) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(1.7f * static_cast<float>(i) + phase) * 0.9f;
  return v;
}

// P = [0, x]: out[t] = bias + w0 * P[t] + w1 * P[t + 1], worked out by hand.
TEST(CausalConvWithStateOp, HandComputedWithBias) {
  auto out = causal({tensor<float>({1, 2, 3}, {1, 2, 3, 4, 5, 6}), tensor<float>({2, 1, 2}, {0.5f, 1, -1, 2}),
                     tensor<float>({2}, {0.25f, -1})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 2, 3}));
  expect_floats_near(out[0], {1.25f, 2.75f, 4.25f, 7, 5, 6});
  EXPECT_EQ(out[1].tensor.shape(), (Shape{1, 2, 1}));
  expect_floats_near(out[1], {3, 6});
}

// past [7, 8], input [1, 2], weight [1, 10, 100]: P = [7, 8, 1, 2].
TEST(CausalConvWithStateOp, PastStateIsTheLeftContext) {
  auto out = causal(
      {tensor<float>({1, 1, 2}, {1, 2}), tensor<float>({1, 1, 3}, {1, 10, 100}), none(), tensor<float>({1, 1, 2}, {7, 8})});
  expect_floats_near(out[0], {7 + 80 + 100, 8 + 10 + 200});
  expect_floats_near(out[1], {1, 2});
}

// An input shorter than k - 1: the state keeps part of the old state (or of the zero padding).
TEST(CausalConvWithStateOp, ShortInputShiftsTheState) {
  auto w = tensor<float>({1, 1, 4}, {1, 1, 1, 1});
  auto no_past = causal({tensor<float>({1, 1, 2}, {5, 6}), w});
  expect_floats_near(no_past[0], {5, 11});
  expect_floats_near(no_past[1], {0, 5, 6});
  auto past = causal({tensor<float>({1, 1, 1}, {4}), w, none(), tensor<float>({1, 1, 3}, {1, 2, 3})});
  expect_floats_near(past[0], {10});
  expect_floats_near(past[1], {2, 3, 4});
}

// silu(x) = x / (1 + e^-x); 'swish' is the same; k = 1 leaves an empty state.
TEST(CausalConvWithStateOp, SiluAndSwishActivations) {
  auto x = tensor<float>({1, 1, 3}, {-1, 0, 2});
  auto w = tensor<float>({1, 1, 1}, {1});
  std::vector<float> want{-1 / (1 + std::exp(1.0f)), 0, 2 / (1 + std::exp(-2.0f))};
  for (const char* a : {"silu", "swish"}) {
    auto out = causal({x, w}, a);
    expect_floats_near(out[0], want);
    EXPECT_EQ(out[1].tensor.shape(), (Shape{1, 1, 0}));
  }
  expect_floats_near(causal({x, w}, "none")[0], {-1, 0, 2});
}

// Without a past state the operator is a depthwise Conv (group = channels) padded k - 1 on the left.
TEST(CausalConvWithStateOp, MatchesDepthwiseConvWithLeftPadding) {
  const int64_t B = 2, C = 3, L = 5, K = 3;
  auto x = tensor<float>({B, C, L}, causal_wavy(B * C * L, 0.3f));
  auto w = tensor<float>({C, 1, K}, causal_wavy(C * K, 1.1f));
  auto b = tensor<float>({C}, causal_wavy(C, 2.0f));
  auto conv = run1("Conv", 11, {x, w, b}, {attr_int("group", C), attr_ints("pads", {K - 1, 0})});
  auto out = causal({x, w, b});
  expect_near(values_of<float>(out[0]), values_of<float>(conv), 1e-6f);
  // The state is the input's last k - 1 positions.
  std::vector<float> xs = values_of<float>(x), want;
  for (int64_t r = 0; r < B * C; ++r)
    for (int64_t t = L - (K - 1); t < L; ++t) want.push_back(xs[static_cast<size_t>(r * L + t)]);
  expect_floats_near(out[1], want);
}

// One call over 7 positions equals chunks of 3, 1 and 3 with each present_state passed on.
TEST(CausalConvWithStateOp, ChunkedRunEqualsWholeRun) {
  const int64_t B = 2, C = 2, L = 7, K = 4;
  std::vector<float> xs = causal_wavy(B * C * L, 0.7f);
  auto w = tensor<float>({C, 1, K}, causal_wavy(C * K, 0.2f));
  auto b = tensor<float>({C}, {0.1f, -0.3f});
  auto past0 = tensor<float>({B, C, K - 1}, causal_wavy(B * C * (K - 1), 2.5f));
  auto whole = causal({tensor<float>({B, C, L}, xs), w, b, past0}, "silu");
  std::vector<float> got(static_cast<size_t>(B * C * L));
  Value state = past0;
  int64_t start = 0;
  for (int64_t len : {3, 1, 3}) {
    std::vector<float> chunk;
    for (int64_t r = 0; r < B * C; ++r)
      for (int64_t t = start; t < start + len; ++t) chunk.push_back(xs[static_cast<size_t>(r * L + t)]);
    auto part = causal({tensor<float>({B, C, len}, chunk), w, b, state}, "silu");
    std::vector<float> y = values_of<float>(part[0]);
    for (int64_t r = 0; r < B * C; ++r)
      for (int64_t t = 0; t < len; ++t) got[static_cast<size_t>(r * L + start + t)] = y[static_cast<size_t>(r * len + t)];
    state = part[1];
    start += len;
  }
  expect_floats_near(whole[0], got, 0);
  expect_floats_near(whole[1], values_of<float>(state), 0);
}

// float16 in, float16 out: the float result rounded to float16 (values exact in float16).
TEST(CausalConvWithStateOp, Float16) {
  std::vector<float> xs{0.5f, -1.25f, 2, 0.75f}, ws{1, 0.5f};
  auto h = [](const std::vector<float>& v) {
    std::vector<float16_t> r;
    for (float f : v) r.emplace_back(f);
    return r;
  };
  auto out = causal({tensor<float16_t>({1, 1, 4}, h(xs)), tensor<float16_t>({1, 1, 2}, h(ws))}, "silu");
  ASSERT_EQ(out[0].tensor.dtype(), DType::Float16);
  ASSERT_EQ(out[1].tensor.dtype(), DType::Float16);
  std::vector<float> got;
  for (float16_t v : values_of<float16_t>(out[0])) got.push_back(static_cast<float>(v));
  std::vector<float> want;
  float prev = 0;
  for (float v : xs) {
    float c = ws[0] * prev + ws[1] * v;  // exact in float16
    want.push_back(c / (1 + std::exp(-c)));
    prev = v;
  }
  expect_near(got, want, 2e-3f);
  EXPECT_EQ(static_cast<float>(values_of<float16_t>(out[1])[0]), 0.75f);
}

// bfloat16: the float computation on the same (bfloat16) values, within bfloat16's precision.
TEST(CausalConvWithStateOp, BFloat16) {
  auto x = retyped<bfloat16_t>(tensor<float>({1, 2, 4}, causal_wavy(8, 0.4f)));
  auto w = retyped<bfloat16_t>(tensor<float>({2, 1, 3}, causal_wavy(6, 1.0f)));
  auto b = retyped<bfloat16_t>(tensor<float>({2}, {0.25f, -0.5f}));
  auto p = retyped<bfloat16_t>(tensor<float>({1, 2, 2}, causal_wavy(4, 2.0f)));
  auto out = causal({x, w, b, p}, "swish");
  ASSERT_EQ(out[0].tensor.dtype(), DType::BFloat16);
  auto f = [](const Value& v) { return tensor<float>(v.tensor.shape(), floats_of<bfloat16_t>(v)); };
  auto want = causal({f(x), f(w), f(b), f(p)}, "swish");
  expect_near(floats_of<bfloat16_t>(out[0]), values_of<float>(want[0]), 1e-2f);
  expect_near(floats_of<bfloat16_t>(out[1]), values_of<float>(want[1]), 0);  // copied values
}

TEST(CausalConvWithStateOp, RejectsBadActivationAndShapes) {
  auto x = tensor<float>({1, 2, 3}, iota_f(6));
  auto w = tensor<float>({2, 1, 2}, {1, 1, 1, 1});
  expect_trap([&] { causal({x, w}, "relu"); }, "activation");
  expect_trap([&] { causal({x, tensor<float>({2, 2, 2}, iota_f(8))}); }, "weight");
  expect_trap([&] { causal({x, w, tensor<float>({3}, {1, 2, 3})}); }, "bias");
  expect_trap([&] { causal({x, w, none(), tensor<float>({1, 2, 2}, iota_f(4))}); }, "past_state");
}

TEST(CausalConvWithStateOp, ShapeRule) {
  InferenceResult r = infer_text(R"(<ir_version: 10, opset_import: ["" : 27]>
g (float[N,4,L] X, float[4,1,5] W) => (float Y, float S) {
  Y, S = CausalConvWithState<activation = "silu">(X, W)
})");
  EXPECT_TRUE(r.errors.empty()) << dump_inference(r);
  EXPECT_EQ(inferred(r, "Y"), "tensor(float)[N,4,L]");
  EXPECT_EQ(inferred(r, "S"), "tensor(float)[N,4,4]");
}

}  // namespace
}  // namespace sonnx::testing
