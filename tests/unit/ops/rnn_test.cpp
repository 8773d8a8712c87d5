// The recurrent operators: RNN, GRU, LSTM. Expected values are worked out by hand from the
// schemas.
#include <cmath>
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

// ---------------------------------------------------------------------------------------------
// RNN. One unit, one input feature, W = R = 0.5 and Relu so the steps are easy by hand.

TEST(RnnOp, ForwardRelu) {
  // H1 = relu(0.5*1) = 0.5; H2 = relu(0.5*4 + 0.5*0.5) = 2.25.
  auto out = run_op("RNN", 14,
                    {tensor<float>({2, 1, 1}, {1, 4}), tensor<float>({1, 1, 1}, {0.5f}), tensor<float>({1, 1, 1}, {0.5f})},
                    {attr_int("hidden_size", 1), attr_strings("activations", {"Relu"})}, 2);
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 1, 1, 1}));
  expect_near(values_of<float>(out[0]), {0.5f, 2.25f});
  EXPECT_EQ(out[1].tensor.shape(), (Shape{1, 1, 1}));
  expect_near(values_of<float>(out[1]), {2.25f});
}

TEST(RnnOp, ReverseRunsBackwardsAndYhIsTheFirstStep) {
  // t=1 first: relu(0.5*4) = 2; then t=0: relu(0.5*1 + 0.5*2) = 1.5.
  auto out = run_op("RNN", 14,
                    {tensor<float>({2, 1, 1}, {1, 4}), tensor<float>({1, 1, 1}, {0.5f}), tensor<float>({1, 1, 1}, {0.5f})},
                    {attr_string("direction", "reverse"), attr_strings("activations", {"Relu"})}, 2);
  expect_near(values_of<float>(out[0]), {1.5f, 2.0f});
  expect_near(values_of<float>(out[1]), {1.5f});
}

TEST(RnnOp, BidirectionalStacksDirections) {
  auto out = run_op("RNN", 7,
                    {tensor<float>({2, 1, 1}, {1, 4}), tensor<float>({2, 1, 1}, {0.5f, 0.5f}),
                     tensor<float>({2, 1, 1}, {0.5f, 0.5f})},
                    {attr_string("direction", "bidirectional"), attr_strings("activations", {"Relu", "Relu"})}, 2);
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 2, 1, 1}));
  // Y[t][dir]: t0 = (0.5, 1.5), t1 = (2.25, 2).
  expect_near(values_of<float>(out[0]), {0.5f, 1.5f, 2.25f, 2.0f});
  expect_near(values_of<float>(out[1]), {2.25f, 1.5f});
}

TEST(RnnOp, OneActivationListServesBothDirections) {
  auto out = run_op("RNN", 14,
                    {tensor<float>({2, 1, 1}, {1, 4}), tensor<float>({2, 1, 1}, {0.5f, 0.5f}),
                     tensor<float>({2, 1, 1}, {0.5f, 0.5f})},
                    {attr_string("direction", "bidirectional"), attr_strings("activations", {"Relu"})}, 2);
  expect_near(values_of<float>(out[1]), {2.25f, 1.5f});
}

TEST(RnnOp, BiasInitialStateAndDefaultTanh) {
  // H1 = tanh(0*x + 1*H0 + Wb + Rb) = tanh(0.25 + 0.5 + 0.25) = tanh(1).
  auto out = run_op("RNN", 14,
                    {tensor<float>({1, 1, 1}, {3}), tensor<float>({1, 1, 1}, {0}), tensor<float>({1, 1, 1}, {1}),
                     tensor<float>({1, 2}, {0.5f, 0.25f}), none(), tensor<float>({1, 1, 1}, {0.25f})},
                    {}, 2);
  expect_near(values_of<float>(out[1]), {static_cast<float>(std::tanh(1.0))});
}

TEST(RnnOp, SequenceLensZeroFillAndLastValidState) {
  // batch 2, seq 3, lens [3, 1]; H_t = relu(x_t + H_t-1) (a running sum).
  auto out = run_op("RNN", 14,
                    {tensor<float>({3, 2, 1}, {1, 10, 2, 20, 3, 30}), tensor<float>({1, 1, 1}, {1}),
                     tensor<float>({1, 1, 1}, {1}), none(), tensor<int32_t>({2}, {3, 1})},
                    {attr_strings("activations", {"Relu"})}, 2);
  // Y[t][0][b]: t0 (1, 10), t1 (3, 0), t2 (6, 0).
  expect_near(values_of<float>(out[0]), {1, 10, 3, 0, 6, 0});
  expect_near(values_of<float>(out[1]), {6, 10});
}

TEST(RnnOp, SequenceLensReverseStartsAtTheLastValidStep) {
  // Entry 1 has length 2: reverse runs t=1 (20) then t=0 (10+20); t=2 stays zero.
  auto out = run_op("RNN", 14,
                    {tensor<float>({3, 2, 1}, {1, 10, 2, 20, 3, 30}), tensor<float>({1, 1, 1}, {1}),
                     tensor<float>({1, 1, 1}, {1}), none(), tensor<int32_t>({2}, {3, 2})},
                    {attr_string("direction", "reverse"), attr_strings("activations", {"Relu"})}, 2);
  // Entry 0: t2 = 3, t1 = 5, t0 = 6. Entry 1: t1 = 20, t0 = 30.
  expect_near(values_of<float>(out[0]), {6, 30, 5, 20, 3, 0});
  expect_near(values_of<float>(out[1]), {6, 30});
}

TEST(RnnOp, ZeroLengthSequenceKeepsInitialState) {
  auto out = run_op("RNN", 14,
                    {tensor<float>({1, 1, 1}, {5}), tensor<float>({1, 1, 1}, {1}), tensor<float>({1, 1, 1}, {1}), none(),
                     tensor<int32_t>({1}, {0}), tensor<float>({1, 1, 1}, {7})},
                    {attr_strings("activations", {"Relu"})}, 2);
  expect_near(values_of<float>(out[0]), {0});
  expect_near(values_of<float>(out[1]), {7});
}

TEST(RnnOp, Layout1IsBatchMajor) {
  // X [batch=2, seq=2, 1]; running sums per entry: (1, 3) and (10, 30).
  auto out = run_op("RNN", 14,
                    {tensor<float>({2, 2, 1}, {1, 2, 10, 20}), tensor<float>({1, 1, 1}, {1}), tensor<float>({1, 1, 1}, {1}),
                     none(), none(), tensor<float>({2, 1, 1}, {0, 0})},
                    {attr_int("layout", 1), attr_strings("activations", {"Relu"})}, 2);
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 2, 1, 1}));
  expect_near(values_of<float>(out[0]), {1, 3, 10, 30});
  EXPECT_EQ(out[1].tensor.shape(), (Shape{2, 1, 1}));
  expect_near(values_of<float>(out[1]), {3, 30});
}

TEST(RnnOp, ActivationParametersAreConsumedInOrder) {
  // Affine takes alpha 2 and beta 1: H = 2*(x) + 1 = 7 for x = 3.
  auto out = run_op("RNN", 14, {tensor<float>({1, 1, 1}, {3}), tensor<float>({1, 1, 1}, {1}), tensor<float>({1, 1, 1}, {0})},
                    {attr_strings("activations", {"Affine"}), attr_floats("activation_alpha", {2}),
                     attr_floats("activation_beta", {1})},
                    2);
  expect_near(values_of<float>(out[1]), {7});
  // LeakyRelu without alpha uses its operator default 0.01.
  out = run_op("RNN", 14, {tensor<float>({1, 1, 1}, {-3}), tensor<float>({1, 1, 1}, {1}), tensor<float>({1, 1, 1}, {0})},
               {attr_strings("activations", {"LeakyRelu"})}, 2);
  expect_near(values_of<float>(out[1]), {-0.03f});
  // Bidirectional: Relu takes no alpha, so the single alpha goes to the second direction's Elu.
  out = run_op("RNN", 14, {tensor<float>({1, 1, 1}, {-1}), tensor<float>({2, 1, 1}, {1, 1}), tensor<float>({2, 1, 1}, {0, 0})},
               {attr_string("direction", "bidirectional"), attr_strings("activations", {"Relu", "Elu"}),
                attr_floats("activation_alpha", {2})},
               2);
  expect_near(values_of<float>(out[1]), {0, static_cast<float>(2 * (std::exp(-1.0) - 1))});
}

TEST(RnnOp, MoreActivationFunctions) {
  struct Case {
    const char* name;
    float x, want;
  } cases[] = {
      {"Sigmoid", 0, 0.5f},
      {"Softsign", 3, 0.75f},
      {"Softplus", 0, static_cast<float>(std::log(2.0))},
      {"Softplus", 100, 100},    // no overflow
      {"HardSigmoid", 1, 0.7f},  // 0.2*1 + 0.5
      {"HardSigmoid", 10, 1},
      {"ThresholdedRelu", 0.5f, 0},  // default alpha 1
      {"ThresholdedRelu", 1, 1},     // x >= alpha keeps x
      {"ScaledTanh", 0.5f, static_cast<float>(std::tanh(0.5))},
      {"tanh", 0.5f, static_cast<float>(std::tanh(0.5))},  // names match without regard to case
  };
  for (const auto& c : cases) {
    auto out = run_op("RNN", 14, {tensor<float>({1, 1, 1}, {c.x}), tensor<float>({1, 1, 1}, {1}), tensor<float>({1, 1, 1}, {0})},
                      {attr_strings("activations", {c.name})}, 2);
    EXPECT_NEAR(values_of<float>(out[1])[0], c.want, 1e-6) << c.name << "(" << c.x << ")";
  }
}

TEST(RnnOp, ClipBoundsTheActivationInput) {
  // Affine(alpha 2, beta 1) of clip(3, 1) = 3.
  auto out = run_op("RNN", 14, {tensor<float>({1, 1, 1}, {3}), tensor<float>({1, 1, 1}, {1}), tensor<float>({1, 1, 1}, {0})},
                    {attr_strings("activations", {"Affine"}), attr_floats("activation_alpha", {2}),
                     attr_floats("activation_beta", {1}), attr_float("clip", 1)},
                    2);
  expect_near(values_of<float>(out[1]), {3});
}

TEST(RnnOp, OnlyRequestedOutputsAreProduced) {
  auto out = run_op_some("RNN", 14,
                         {tensor<float>({2, 1, 1}, {1, 4}), tensor<float>({1, 1, 1}, {0.5f}), tensor<float>({1, 1, 1}, {0.5f})},
                         {attr_strings("activations", {"Relu"})}, {false, true});
  EXPECT_EQ(out[0].kind, Value::Kind::None);
  expect_near(values_of<float>(out[1]), {2.25f});
  out = run_op_some("RNN", 14,
                    {tensor<float>({2, 1, 1}, {1, 4}), tensor<float>({1, 1, 1}, {0.5f}), tensor<float>({1, 1, 1}, {0.5f})},
                    {attr_strings("activations", {"Relu"})}, {true});
  expect_near(values_of<float>(out[0]), {0.5f, 2.25f});
}

TEST(RnnOp, Float16AndDouble) {
  auto out = run_op("RNN", 14,
                    {tensor<float16_t>({2, 1, 1}, {float16_t(1.f), float16_t(4.f)}),
                     tensor<float16_t>({1, 1, 1}, {float16_t(0.5f)}), tensor<float16_t>({1, 1, 1}, {float16_t(0.5f)})},
                    {attr_strings("activations", {"Relu"})}, 2);
  EXPECT_EQ(static_cast<float>(values_of<float16_t>(out[1])[0]), 2.25f);
  auto outd = run_op("RNN", 14,
                     {tensor<double>({2, 1, 1}, {1, 4}), tensor<double>({1, 1, 1}, {0.5}), tensor<double>({1, 1, 1}, {0.5})},
                     {attr_strings("activations", {"Relu"})}, 2);
  EXPECT_EQ(values_of<double>(outd[1])[0], 2.25);
}

TEST(RnnOp, ZeroBatch) {
  auto out = run_op("RNN", 14, {tensor<float>({2, 0, 1}, {}), tensor<float>({1, 1, 1}, {1}), tensor<float>({1, 1, 1}, {1})}, {},
                    2);
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 1, 0, 1}));
  EXPECT_EQ(out[1].tensor.shape(), (Shape{1, 0, 1}));
}

TEST(RnnOp, BadInputsTrap) {
  auto x = tensor<float>({1, 1, 1}, {1});
  auto w = tensor<float>({1, 1, 1}, {1});
  expect_trap([&] { run_op("RNN", 14, {x, w, w}, {attr_strings("activations", {"Swish"})}, 2); }, "unknown activation");
  expect_trap([&] { run_op("RNN", 14, {x, w, w}, {attr_string("direction", "sideways")}, 2); }, "direction");
  expect_trap([&] { run_op("RNN", 14, {x, tensor<float>({1, 2, 1}, {1, 1}), w}, {}, 2); }, "W has shape");
  expect_trap([&] { run_op("RNN", 14, {x, w, w}, {attr_int("hidden_size", 2)}, 2); }, "hidden_size");
  expect_trap([&] { run_op("RNN", 14, {x, w, w, none(), tensor<int32_t>({1}, {2})}, {}, 2); }, "sequence_lens");
  expect_trap([&] { run_op("RNN", 14, {x, w, w, none(), tensor<int32_t>({1}, {-1})}, {}, 2); }, "sequence_lens");
}

// ---------------------------------------------------------------------------------------------
// GRU. One unit: Wz = Rz = Wr = Rr = 0 so z = r = sigmoid(0) = 0.5; Wh = 1, Rh = 2, g = Relu.

std::vector<Value> gru_inputs(const std::vector<float>& bias) {
  return {tensor<float>({2, 1, 1}, {1, 1}), tensor<float>({1, 3, 1}, {0, 0, 1}), tensor<float>({1, 3, 1}, {0, 0, 2}),
          tensor<float>({1, 6}, bias)};
}

TEST(GruOp, ResetGateBeforeLinear) {
  // h1 = relu(1 + (0.5*0)*2 + Rbh 1) = 2, H1 = 0.5*2 + 0.5*0 = 1;
  // h2 = relu(1 + (0.5*1)*2 + 1) = 3, H2 = 0.5*3 + 0.5*1 = 2.
  auto out = run_op("GRU", 14, gru_inputs({0, 0, 0, 0, 0, 1}), {attr_strings("activations", {"Sigmoid", "Relu"})}, 2);
  expect_near(values_of<float>(out[0]), {1, 2});
  expect_near(values_of<float>(out[1]), {2});
}

TEST(GruOp, LinearBeforeReset) {
  // h1 = relu(1 + 0.5*(0*2 + 1)) = 1.5, H1 = 0.75; h2 = relu(1 + 0.5*(0.75*2 + 1)) = 2.25,
  // H2 = 0.5*2.25 + 0.5*0.75 = 1.5.
  auto out = run_op("GRU", 7, gru_inputs({0, 0, 0, 0, 0, 1}),
                    {attr_strings("activations", {"Sigmoid", "Relu"}), attr_int("linear_before_reset", 1)}, 2);
  expect_near(values_of<float>(out[0]), {0.75f, 1.5f});
}

TEST(GruOp, Version1HasNoLinearBeforeReset) {
  auto out = run_op("GRU", 1, gru_inputs({0, 0, 0, 0, 0, 1}), {attr_strings("activations", {"Sigmoid", "Relu"})}, 2);
  expect_near(values_of<float>(out[1]), {2});
}

TEST(GruOp, DefaultActivationsAndBidirectional) {
  // All weights zero: z = 0.5, h = tanh(0) = 0, so H1 = 0.5*H0 in both directions.
  auto w = tensor<float>({2, 3, 1}, {0, 0, 0, 0, 0, 0});
  auto out = run_op("GRU", 14, {tensor<float>({1, 1, 1}, {5}), w, w, none(), none(), tensor<float>({2, 1, 1}, {2, 4})},
                    {attr_string("direction", "bidirectional")}, 2);
  expect_near(values_of<float>(out[1]), {1, 2});
}

// ---------------------------------------------------------------------------------------------
// LSTM. One unit; activations all Affine(1, 0) = identity so the gates are plain sums.

std::vector<onnx::AttributeProto> identity_lstm(std::vector<onnx::AttributeProto> more = {}) {
  more.push_back(attr_strings("activations", {"Affine", "Affine", "Affine"}));
  more.push_back(attr_floats("activation_alpha", {1, 1, 1}));
  more.push_back(attr_floats("activation_beta", {0, 0, 0}));
  return more;
}
// X = 2; W (i, o, f, c) = (0.5, 1, 0.5, 1); R = 0; B = 0; initial_c = 1; P (i, o, f) = (1, 0.5, 0).
std::vector<Value> lstm_inputs() {
  return {tensor<float>({1, 1, 1}, {2}),
          tensor<float>({1, 4, 1}, {0.5f, 1, 0.5f, 1}),
          tensor<float>({1, 4, 1}, {0, 0, 0, 0}),
          none(),
          none(),
          none(),
          tensor<float>({1, 1, 1}, {1}),
          tensor<float>({1, 3}, {1, 0.5f, 0})};
}

TEST(LstmOp, PeepholesUseOldCellForInputAndNewCellForOutput) {
  // i = 1 + 1*C0 = 2, f = 1, c~ = 2, C = 1*1 + 2*2 = 5, o = 2 + 0.5*5 = 4.5, H = 4.5*5 = 22.5.
  auto out = run_op("LSTM", 14, lstm_inputs(), identity_lstm(), 3);
  expect_near(values_of<float>(out[0]), {22.5f});
  expect_near(values_of<float>(out[1]), {22.5f});
  expect_near(values_of<float>(out[2]), {5});
}

TEST(LstmOp, InputForgetCouplesTheGates) {
  // f = 1 - i = -1: C = -1*1 + 2*2 = 3, o = 2 + 1.5 = 3.5, H = 10.5.
  auto out = run_op("LSTM", 7, lstm_inputs(), identity_lstm({attr_int("input_forget", 1)}), 3);
  expect_near(values_of<float>(out[1]), {10.5f});
  expect_near(values_of<float>(out[2]), {3});
}

TEST(LstmOp, DefaultActivations) {
  // Zero weights: i = o = f = 0.5, c~ = 0; C = 0.5*C0 = 1, H = 0.5*tanh(1).
  auto z = tensor<float>({1, 4, 1}, {0, 0, 0, 0});
  auto out = run_op("LSTM", 14, {tensor<float>({1, 1, 1}, {3}), z, z, none(), none(), none(), tensor<float>({1, 1, 1}, {2})}, {},
                    3);
  expect_near(values_of<float>(out[1]), {static_cast<float>(0.5 * std::tanh(1.0))});
  expect_near(values_of<float>(out[2]), {1});
}

TEST(LstmOp, OnlyYcRequested) {
  auto out = run_op_some("LSTM", 14, lstm_inputs(), identity_lstm(), {false, false, true});
  EXPECT_EQ(out[0].kind, Value::Kind::None);
  EXPECT_EQ(out[1].kind, Value::Kind::None);
  expect_near(values_of<float>(out[2]), {5});
}

TEST(LstmOp, Layout1Cell) {
  // Two batch entries with initial_c 1 and 0 (layout 1: [batch, dirs, hidden]); no peepholes.
  // Entry 0 as without peephole: i = 1, f = 1, c~ = 2, C = 1 + 2 = 3. Entry 1: C = 0 + 2 = 2.
  auto out = run_op("LSTM", 14,
                    {tensor<float>({2, 1, 1}, {2, 2}), tensor<float>({1, 4, 1}, {0.5f, 1, 0.5f, 1}),
                     tensor<float>({1, 4, 1}, {0, 0, 0, 0}), none(), none(), none(), tensor<float>({2, 1, 1}, {1, 0})},
                    identity_lstm({attr_int("layout", 1)}), 3);
  EXPECT_EQ(out[2].tensor.shape(), (Shape{2, 1, 1}));
  expect_near(values_of<float>(out[2]), {3, 2});
  // H = o * C with o = 2: 6 and 4.
  expect_near(values_of<float>(out[1]), {6, 4});
}

TEST(LstmOp, BadPeepholeShapeTraps) {
  auto in = lstm_inputs();
  in[7] = tensor<float>({1, 2}, {0, 0});
  expect_trap([&] { run_op("LSTM", 14, in, {}, 3); }, "P has shape");
}

}  // namespace
}  // namespace sonnx::testing
