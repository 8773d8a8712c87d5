// Tests of helper e2's operators: RNN, GRU, LSTM, DFT, STFT, the window operators,
// MelWeightMatrix and TfIdfVectorizer. Expected values are worked out by hand from the schemas.
#include <cmath>
#include <limits>

#include "op_test_util.h"

namespace sonnx::testing {
namespace {

void expect_near(const std::vector<float>& got, const std::vector<float>& want, float tol = 1e-5f) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

template <class F>
void expect_trap(F f, const std::string& fragment) {
  try {
    f();
    FAIL() << "expected a trap mentioning '" << fragment << "'";
  } catch (const Trap& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

const Value none;

}  // namespace

// ---------------------------------------------------------------------------------------------
// RNN. One unit, one input feature, W = R = 0.5 and Relu so the steps are easy by hand.

TEST(E2RnnOp, ForwardRelu) {
  // H1 = relu(0.5*1) = 0.5; H2 = relu(0.5*4 + 0.5*0.5) = 2.25.
  auto out = run_op("RNN", 14,
                    {tensor<float>({2, 1, 1}, {1, 4}), tensor<float>({1, 1, 1}, {0.5f}), tensor<float>({1, 1, 1}, {0.5f})},
                    {attr_int("hidden_size", 1), attr_strings("activations", {"Relu"})}, 2);
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 1, 1, 1}));
  expect_near(values_of<float>(out[0]), {0.5f, 2.25f});
  EXPECT_EQ(out[1].tensor.shape(), (Shape{1, 1, 1}));
  expect_near(values_of<float>(out[1]), {2.25f});
}

TEST(E2RnnOp, ReverseRunsBackwardsAndYhIsTheFirstStep) {
  // t=1 first: relu(0.5*4) = 2; then t=0: relu(0.5*1 + 0.5*2) = 1.5.
  auto out = run_op("RNN", 14,
                    {tensor<float>({2, 1, 1}, {1, 4}), tensor<float>({1, 1, 1}, {0.5f}), tensor<float>({1, 1, 1}, {0.5f})},
                    {attr_string("direction", "reverse"), attr_strings("activations", {"Relu"})}, 2);
  expect_near(values_of<float>(out[0]), {1.5f, 2.0f});
  expect_near(values_of<float>(out[1]), {1.5f});
}

TEST(E2RnnOp, BidirectionalStacksDirections) {
  auto out = run_op("RNN", 7,
                    {tensor<float>({2, 1, 1}, {1, 4}), tensor<float>({2, 1, 1}, {0.5f, 0.5f}),
                     tensor<float>({2, 1, 1}, {0.5f, 0.5f})},
                    {attr_string("direction", "bidirectional"), attr_strings("activations", {"Relu", "Relu"})}, 2);
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 2, 1, 1}));
  // Y[t][dir]: t0 = (0.5, 1.5), t1 = (2.25, 2).
  expect_near(values_of<float>(out[0]), {0.5f, 1.5f, 2.25f, 2.0f});
  expect_near(values_of<float>(out[1]), {2.25f, 1.5f});
}

TEST(E2RnnOp, OneActivationListServesBothDirections) {
  auto out = run_op("RNN", 14,
                    {tensor<float>({2, 1, 1}, {1, 4}), tensor<float>({2, 1, 1}, {0.5f, 0.5f}),
                     tensor<float>({2, 1, 1}, {0.5f, 0.5f})},
                    {attr_string("direction", "bidirectional"), attr_strings("activations", {"Relu"})}, 2);
  expect_near(values_of<float>(out[1]), {2.25f, 1.5f});
}

TEST(E2RnnOp, BiasInitialStateAndDefaultTanh) {
  // H1 = tanh(0*x + 1*H0 + Wb + Rb) = tanh(0.25 + 0.5 + 0.25) = tanh(1).
  auto out = run_op("RNN", 14,
                    {tensor<float>({1, 1, 1}, {3}), tensor<float>({1, 1, 1}, {0}), tensor<float>({1, 1, 1}, {1}),
                     tensor<float>({1, 2}, {0.5f, 0.25f}), none, tensor<float>({1, 1, 1}, {0.25f})},
                    {}, 2);
  expect_near(values_of<float>(out[1]), {static_cast<float>(std::tanh(1.0))});
}

TEST(E2RnnOp, SequenceLensZeroFillAndLastValidState) {
  // batch 2, seq 3, lens [3, 1]; H_t = relu(x_t + H_t-1) (a running sum).
  auto out = run_op("RNN", 14,
                    {tensor<float>({3, 2, 1}, {1, 10, 2, 20, 3, 30}), tensor<float>({1, 1, 1}, {1}),
                     tensor<float>({1, 1, 1}, {1}), none, tensor<int32_t>({2}, {3, 1})},
                    {attr_strings("activations", {"Relu"})}, 2);
  // Y[t][0][b]: t0 (1, 10), t1 (3, 0), t2 (6, 0).
  expect_near(values_of<float>(out[0]), {1, 10, 3, 0, 6, 0});
  expect_near(values_of<float>(out[1]), {6, 10});
}

TEST(E2RnnOp, SequenceLensReverseStartsAtTheLastValidStep) {
  // Entry 1 has length 2: reverse runs t=1 (20) then t=0 (10+20); t=2 stays zero.
  auto out = run_op("RNN", 14,
                    {tensor<float>({3, 2, 1}, {1, 10, 2, 20, 3, 30}), tensor<float>({1, 1, 1}, {1}),
                     tensor<float>({1, 1, 1}, {1}), none, tensor<int32_t>({2}, {3, 2})},
                    {attr_string("direction", "reverse"), attr_strings("activations", {"Relu"})}, 2);
  // Entry 0: t2 = 3, t1 = 5, t0 = 6. Entry 1: t1 = 20, t0 = 30.
  expect_near(values_of<float>(out[0]), {6, 30, 5, 20, 3, 0});
  expect_near(values_of<float>(out[1]), {6, 30});
}

TEST(E2RnnOp, ZeroLengthSequenceKeepsInitialState) {
  auto out = run_op("RNN", 14,
                    {tensor<float>({1, 1, 1}, {5}), tensor<float>({1, 1, 1}, {1}), tensor<float>({1, 1, 1}, {1}), none,
                     tensor<int32_t>({1}, {0}), tensor<float>({1, 1, 1}, {7})},
                    {attr_strings("activations", {"Relu"})}, 2);
  expect_near(values_of<float>(out[0]), {0});
  expect_near(values_of<float>(out[1]), {7});
}

TEST(E2RnnOp, Layout1IsBatchMajor) {
  // X [batch=2, seq=2, 1]; running sums per entry: (1, 3) and (10, 30).
  auto out = run_op("RNN", 14,
                    {tensor<float>({2, 2, 1}, {1, 2, 10, 20}), tensor<float>({1, 1, 1}, {1}), tensor<float>({1, 1, 1}, {1}),
                     none, none, tensor<float>({2, 1, 1}, {0, 0})},
                    {attr_int("layout", 1), attr_strings("activations", {"Relu"})}, 2);
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 2, 1, 1}));
  expect_near(values_of<float>(out[0]), {1, 3, 10, 30});
  EXPECT_EQ(out[1].tensor.shape(), (Shape{2, 1, 1}));
  expect_near(values_of<float>(out[1]), {3, 30});
}

TEST(E2RnnOp, ActivationParametersAreConsumedInOrder) {
  // Affine takes alpha 2 and beta 1: H = 2*(x) + 1 = 7 for x = 3.
  auto out = run_op("RNN", 14,
                    {tensor<float>({1, 1, 1}, {3}), tensor<float>({1, 1, 1}, {1}), tensor<float>({1, 1, 1}, {0})},
                    {attr_strings("activations", {"Affine"}), attr_floats("activation_alpha", {2}),
                     attr_floats("activation_beta", {1})},
                    2);
  expect_near(values_of<float>(out[1]), {7});
  // LeakyRelu without alpha uses its operator default 0.01.
  out = run_op("RNN", 14,
               {tensor<float>({1, 1, 1}, {-3}), tensor<float>({1, 1, 1}, {1}), tensor<float>({1, 1, 1}, {0})},
               {attr_strings("activations", {"LeakyRelu"})}, 2);
  expect_near(values_of<float>(out[1]), {-0.03f});
  // Bidirectional: Relu takes no alpha, so the single alpha goes to the second direction's Elu.
  out = run_op("RNN", 14,
               {tensor<float>({1, 1, 1}, {-1}), tensor<float>({2, 1, 1}, {1, 1}), tensor<float>({2, 1, 1}, {0, 0})},
               {attr_string("direction", "bidirectional"), attr_strings("activations", {"Relu", "Elu"}),
                attr_floats("activation_alpha", {2})},
               2);
  expect_near(values_of<float>(out[1]), {0, static_cast<float>(2 * (std::exp(-1.0) - 1))});
}

TEST(E2RnnOp, MoreActivationFunctions) {
  struct Case {
    const char* name;
    float x, want;
  } cases[] = {
      {"Sigmoid", 0, 0.5f},
      {"Softsign", 3, 0.75f},
      {"Softplus", 0, static_cast<float>(std::log(2.0))},
      {"Softplus", 100, 100},  // no overflow
      {"HardSigmoid", 1, 0.7f},  // 0.2*1 + 0.5
      {"HardSigmoid", 10, 1},
      {"ThresholdedRelu", 0.5f, 0},  // default alpha 1
      {"ThresholdedRelu", 1, 1},     // x >= alpha keeps x
      {"ScaledTanh", 0.5f, static_cast<float>(std::tanh(0.5))},
      {"tanh", 0.5f, static_cast<float>(std::tanh(0.5))},  // names match without regard to case
  };
  for (const auto& c : cases) {
    auto out = run_op("RNN", 14,
                      {tensor<float>({1, 1, 1}, {c.x}), tensor<float>({1, 1, 1}, {1}), tensor<float>({1, 1, 1}, {0})},
                      {attr_strings("activations", {c.name})}, 2);
    EXPECT_NEAR(values_of<float>(out[1])[0], c.want, 1e-6) << c.name << "(" << c.x << ")";
  }
}

TEST(E2RnnOp, ClipBoundsTheActivationInput) {
  // Affine(alpha 2, beta 1) of clip(3, 1) = 3.
  auto out = run_op("RNN", 14,
                    {tensor<float>({1, 1, 1}, {3}), tensor<float>({1, 1, 1}, {1}), tensor<float>({1, 1, 1}, {0})},
                    {attr_strings("activations", {"Affine"}), attr_floats("activation_alpha", {2}),
                     attr_floats("activation_beta", {1}), attr_float("clip", 1)},
                    2);
  expect_near(values_of<float>(out[1]), {3});
}

TEST(E2RnnOp, OnlyRequestedOutputsAreProduced) {
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

TEST(E2RnnOp, Float16AndDouble) {
  auto out = run_op("RNN", 14,
                    {tensor<float16_t>({2, 1, 1}, {float16_t(1.f), float16_t(4.f)}), tensor<float16_t>({1, 1, 1}, {float16_t(0.5f)}),
                     tensor<float16_t>({1, 1, 1}, {float16_t(0.5f)})},
                    {attr_strings("activations", {"Relu"})}, 2);
  EXPECT_EQ(static_cast<float>(values_of<float16_t>(out[1])[0]), 2.25f);
  auto outd = run_op("RNN", 14,
                     {tensor<double>({2, 1, 1}, {1, 4}), tensor<double>({1, 1, 1}, {0.5}), tensor<double>({1, 1, 1}, {0.5})},
                     {attr_strings("activations", {"Relu"})}, 2);
  EXPECT_EQ(values_of<double>(outd[1])[0], 2.25);
}

TEST(E2RnnOp, ZeroBatch) {
  auto out = run_op("RNN", 14, {tensor<float>({2, 0, 1}, {}), tensor<float>({1, 1, 1}, {1}), tensor<float>({1, 1, 1}, {1})}, {}, 2);
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 1, 0, 1}));
  EXPECT_EQ(out[1].tensor.shape(), (Shape{1, 0, 1}));
}

TEST(E2RnnOp, BadInputsTrap) {
  auto x = tensor<float>({1, 1, 1}, {1});
  auto w = tensor<float>({1, 1, 1}, {1});
  expect_trap([&] { run_op("RNN", 14, {x, w, w}, {attr_strings("activations", {"Swish"})}, 2); }, "unknown activation");
  expect_trap([&] { run_op("RNN", 14, {x, w, w}, {attr_string("direction", "sideways")}, 2); }, "direction");
  expect_trap([&] { run_op("RNN", 14, {x, tensor<float>({1, 2, 1}, {1, 1}), w}, {}, 2); }, "W has shape");
  expect_trap([&] { run_op("RNN", 14, {x, w, w}, {attr_int("hidden_size", 2)}, 2); }, "hidden_size");
  expect_trap([&] { run_op("RNN", 14, {x, w, w, none, tensor<int32_t>({1}, {2})}, {}, 2); }, "sequence_lens");
  expect_trap([&] { run_op("RNN", 14, {x, w, w, none, tensor<int32_t>({1}, {-1})}, {}, 2); }, "sequence_lens");
}

// ---------------------------------------------------------------------------------------------
// GRU. One unit: Wz = Rz = Wr = Rr = 0 so z = r = sigmoid(0) = 0.5; Wh = 1, Rh = 2, g = Relu.

namespace {
std::vector<Value> gru_inputs(const std::vector<float>& bias) {
  return {tensor<float>({2, 1, 1}, {1, 1}), tensor<float>({1, 3, 1}, {0, 0, 1}), tensor<float>({1, 3, 1}, {0, 0, 2}),
          tensor<float>({1, 6}, bias)};
}
}  // namespace

TEST(E2GruOp, ResetGateBeforeLinear) {
  // h1 = relu(1 + (0.5*0)*2 + Rbh 1) = 2, H1 = 0.5*2 + 0.5*0 = 1;
  // h2 = relu(1 + (0.5*1)*2 + 1) = 3, H2 = 0.5*3 + 0.5*1 = 2.
  auto out = run_op("GRU", 14, gru_inputs({0, 0, 0, 0, 0, 1}), {attr_strings("activations", {"Sigmoid", "Relu"})}, 2);
  expect_near(values_of<float>(out[0]), {1, 2});
  expect_near(values_of<float>(out[1]), {2});
}

TEST(E2GruOp, LinearBeforeReset) {
  // h1 = relu(1 + 0.5*(0*2 + 1)) = 1.5, H1 = 0.75; h2 = relu(1 + 0.5*(0.75*2 + 1)) = 2.25,
  // H2 = 0.5*2.25 + 0.5*0.75 = 1.5.
  auto out = run_op("GRU", 7, gru_inputs({0, 0, 0, 0, 0, 1}),
                    {attr_strings("activations", {"Sigmoid", "Relu"}), attr_int("linear_before_reset", 1)}, 2);
  expect_near(values_of<float>(out[0]), {0.75f, 1.5f});
}

TEST(E2GruOp, Version1HasNoLinearBeforeReset) {
  auto out = run_op("GRU", 1, gru_inputs({0, 0, 0, 0, 0, 1}), {attr_strings("activations", {"Sigmoid", "Relu"})}, 2);
  expect_near(values_of<float>(out[1]), {2});
}

TEST(E2GruOp, DefaultActivationsAndBidirectional) {
  // All weights zero: z = 0.5, h = tanh(0) = 0, so H1 = 0.5*H0 in both directions.
  auto w = tensor<float>({2, 3, 1}, {0, 0, 0, 0, 0, 0});
  auto out = run_op("GRU", 14,
                    {tensor<float>({1, 1, 1}, {5}), w, w, none, none, tensor<float>({2, 1, 1}, {2, 4})},
                    {attr_string("direction", "bidirectional")}, 2);
  expect_near(values_of<float>(out[1]), {1, 2});
}

// ---------------------------------------------------------------------------------------------
// LSTM. One unit; activations all Affine(1, 0) = identity so the gates are plain sums.

namespace {
std::vector<onnx::AttributeProto> identity_lstm(std::vector<onnx::AttributeProto> more = {}) {
  more.push_back(attr_strings("activations", {"Affine", "Affine", "Affine"}));
  more.push_back(attr_floats("activation_alpha", {1, 1, 1}));
  more.push_back(attr_floats("activation_beta", {0, 0, 0}));
  return more;
}
// X = 2; W (i, o, f, c) = (0.5, 1, 0.5, 1); R = 0; B = 0; initial_c = 1; P (i, o, f) = (1, 0.5, 0).
std::vector<Value> lstm_inputs() {
  return {tensor<float>({1, 1, 1}, {2}),    tensor<float>({1, 4, 1}, {0.5f, 1, 0.5f, 1}),
          tensor<float>({1, 4, 1}, {0, 0, 0, 0}), none, none, none, tensor<float>({1, 1, 1}, {1}),
          tensor<float>({1, 3}, {1, 0.5f, 0})};
}
}  // namespace

TEST(E2LstmOp, PeepholesUseOldCellForInputAndNewCellForOutput) {
  // i = 1 + 1*C0 = 2, f = 1, c~ = 2, C = 1*1 + 2*2 = 5, o = 2 + 0.5*5 = 4.5, H = 4.5*5 = 22.5.
  auto out = run_op("LSTM", 14, lstm_inputs(), identity_lstm(), 3);
  expect_near(values_of<float>(out[0]), {22.5f});
  expect_near(values_of<float>(out[1]), {22.5f});
  expect_near(values_of<float>(out[2]), {5});
}

TEST(E2LstmOp, InputForgetCouplesTheGates) {
  // f = 1 - i = -1: C = -1*1 + 2*2 = 3, o = 2 + 1.5 = 3.5, H = 10.5.
  auto out = run_op("LSTM", 7, lstm_inputs(), identity_lstm({attr_int("input_forget", 1)}), 3);
  expect_near(values_of<float>(out[1]), {10.5f});
  expect_near(values_of<float>(out[2]), {3});
}

TEST(E2LstmOp, DefaultActivations) {
  // Zero weights: i = o = f = 0.5, c~ = 0; C = 0.5*C0 = 1, H = 0.5*tanh(1).
  auto z = tensor<float>({1, 4, 1}, {0, 0, 0, 0});
  auto out = run_op("LSTM", 14, {tensor<float>({1, 1, 1}, {3}), z, z, none, none, none, tensor<float>({1, 1, 1}, {2})}, {}, 3);
  expect_near(values_of<float>(out[1]), {static_cast<float>(0.5 * std::tanh(1.0))});
  expect_near(values_of<float>(out[2]), {1});
}

TEST(E2LstmOp, OnlyYcRequested) {
  auto out = run_op_some("LSTM", 14, lstm_inputs(), identity_lstm(), {false, false, true});
  EXPECT_EQ(out[0].kind, Value::Kind::None);
  EXPECT_EQ(out[1].kind, Value::Kind::None);
  expect_near(values_of<float>(out[2]), {5});
}

TEST(E2LstmOp, Layout1Cell) {
  // Two batch entries with initial_c 1 and 0 (layout 1: [batch, dirs, hidden]); no peepholes.
  // Entry 0 as without peephole: i = 1, f = 1, c~ = 2, C = 1 + 2 = 3. Entry 1: C = 0 + 2 = 2.
  auto out = run_op("LSTM", 14,
                    {tensor<float>({2, 1, 1}, {2, 2}), tensor<float>({1, 4, 1}, {0.5f, 1, 0.5f, 1}),
                     tensor<float>({1, 4, 1}, {0, 0, 0, 0}), none, none, none, tensor<float>({2, 1, 1}, {1, 0})},
                    identity_lstm({attr_int("layout", 1)}), 3);
  EXPECT_EQ(out[2].tensor.shape(), (Shape{2, 1, 1}));
  expect_near(values_of<float>(out[2]), {3, 2});
  // H = o * C with o = 2: 6 and 4.
  expect_near(values_of<float>(out[1]), {6, 4});
}

TEST(E2LstmOp, BadPeepholeShapeTraps) {
  auto in = lstm_inputs();
  in[7] = tensor<float>({1, 2}, {0, 0});
  expect_trap([&] { run_op("LSTM", 14, in, {}, 3); }, "P has shape");
}

// ---------------------------------------------------------------------------------------------
// DFT of x = [1, 2, 3, 4]: X = [10, -2+2i, -2, -2-2i].

TEST(E2DftOp, RealInput) {
  auto out = run_op("DFT", 17, {tensor<float>({1, 4, 1}, {1, 2, 3, 4})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 4, 2}));
  expect_near(values_of<float>(out[0]), {10, 0, -2, 2, -2, 0, -2, -2});
}

TEST(E2DftOp, OnesidedKeepsHalfPlusOne) {
  auto out = run_op("DFT", 17, {tensor<float>({1, 4, 1}, {1, 2, 3, 4})}, {attr_int("onesided", 1)});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 3, 2}));
  expect_near(values_of<float>(out[0]), {10, 0, -2, 2, -2, 0});
}

TEST(E2DftOp, InverseOfComplexInput) {
  auto out = run_op("DFT", 17, {tensor<double>({1, 4, 2}, {10, 0, -2, 2, -2, 0, -2, -2})}, {attr_int("inverse", 1)});
  auto v = values_of<double>(out[0]);
  std::vector<double> want{1, 0, 2, 0, 3, 0, 4, 0};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(v[i], want[i], 1e-12);
}

TEST(E2DftOp, DftLengthCutsOrPads) {
  // First two samples: [3, -1]. Padded to 6: X0 = 10.
  auto out = run_op("DFT", 17, {tensor<float>({1, 4, 1}, {1, 2, 3, 4}), tensor<int64_t>({}, {2})});
  expect_near(values_of<float>(out[0]), {3, 0, -1, 0});
  out = run_op("DFT", 17, {tensor<float>({1, 4, 1}, {1, 2, 3, 4}), tensor<int32_t>({}, {6})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 6, 2}));
  EXPECT_NEAR(values_of<float>(out[0])[0], 10, 1e-5);
  // Bin 3 of the padded signal: 1 - 2 + 3 - 4 = -2.
  EXPECT_NEAR(values_of<float>(out[0])[6], -2, 1e-5);
}

TEST(E2DftOp, AxisSelectsTheDimension) {
  // [1, 2, 2, 1]: along axis 2 (negative: -2) each row [a, b] becomes [a+b, a-b].
  auto x = tensor<float>({1, 2, 2, 1}, {1, 2, 3, 5});
  auto out = run_op("DFT", 17, {x}, {attr_int("axis", -2)});
  expect_near(values_of<float>(out[0]), {3, 0, -1, 0, 8, 0, -2, 0});
  // Along axis 1 each column: [1+3, 1-3], [2+5, 2-5].
  out = run_op("DFT", 17, {x}, {attr_int("axis", 1)});
  expect_near(values_of<float>(out[0]), {4, 0, 7, 0, -2, 0, -3, 0});
}

TEST(E2DftOp, InvalidCombinationsTrap) {
  expect_trap([] { run_op("DFT", 17, {tensor<float>({1, 2, 2}, {1, 0, 1, 0})}, {attr_int("onesided", 1)}); }, "complex");
  expect_trap([] { run_op("DFT", 17, {tensor<float>({1, 2, 3}, {1, 0, 1, 0, 0, 0})}); }, "last dimension");
  expect_trap([] { run_op("DFT", 17, {tensor<float>({1, 2, 1}, {1, 0})}, {attr_int("axis", 2)}); }, "axis");
  expect_trap([] { run_op("DFT", 17, {tensor<float>({1, 2, 1}, {1, 0}), tensor<int64_t>({}, {0})}); }, "positive");
}

// ---------------------------------------------------------------------------------------------
// STFT of [1, 2, 3, 4] with frames of 2 every 2 samples: frames [1, 2] and [3, 4].

TEST(E2StftOp, FramesWithoutWindow) {
  auto out = run_op("STFT", 17, {tensor<float>({1, 4, 1}, {1, 2, 3, 4}), tensor<int64_t>({}, {2}), none, tensor<int64_t>({}, {2})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 2, 2, 2}));
  expect_near(values_of<float>(out[0]), {3, 0, -1, 0, 7, 0, -1, 0});
}

TEST(E2StftOp, WindowMultipliesEachFrame) {
  // window [1, 0]: frames become [1, 0] and [3, 0].
  auto out = run_op("STFT", 17, {tensor<float>({1, 4, 1}, {1, 2, 3, 4}), tensor<int32_t>({}, {2}), tensor<float>({2}, {1, 0})});
  expect_near(values_of<float>(out[0]), {1, 0, 1, 0, 3, 0, 3, 0});
}

TEST(E2StftOp, StepOneTwoSidedAndShortSignal) {
  // Frames of 3 every 1 sample over 4 samples: 2 frames; two-sided: 3 bins each.
  auto out = run_op("STFT", 17, {tensor<float>({1, 4, 1}, {1, 1, 1, 0}), tensor<int64_t>({}, {1}), none, tensor<int64_t>({}, {3})},
                    {attr_int("onesided", 0)});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 2, 3, 2}));
  // Frame [1, 1, 1]: [3, 0, 0]. Frame [1, 1, 0]: X1 = 1 + e^{-2pi i/3} = 0.5 - (sqrt(3)/2) i.
  const float s = static_cast<float>(std::sqrt(3.0) / 2);
  expect_near(values_of<float>(out[0]), {3, 0, 0, 0, 0, 0, 2, 0, 0.5f, -s, 0.5f, s});
  // A signal shorter than one frame has no frames.
  out = run_op("STFT", 17, {tensor<float>({1, 2, 1}, {1, 2}), tensor<int64_t>({}, {1}), none, tensor<int64_t>({}, {3})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 0, 2, 2}));
}

TEST(E2StftOp, BadArgumentsTrap) {
  auto sig = tensor<float>({1, 4, 1}, {1, 2, 3, 4});
  expect_trap([&] { run_op("STFT", 17, {sig, tensor<int64_t>({}, {0}), none, tensor<int64_t>({}, {2})}); }, "frame_step");
  expect_trap([&] { run_op("STFT", 17, {sig, tensor<int64_t>({}, {1})}); }, "window or frame_length");
  expect_trap([&] { run_op("STFT", 17, {sig, tensor<int64_t>({}, {1}), tensor<float>({3}, {1, 1, 1}), tensor<int64_t>({}, {2})}); },
              "differs");
  expect_trap([&] { run_op("STFT", 17, {tensor<float>({1, 2, 2}, {1, 0, 1, 0}), tensor<int64_t>({}, {1}), none, tensor<int64_t>({}, {2})}); },
              "complex");
}

// ---------------------------------------------------------------------------------------------
// Windows.

TEST(E2WindowOps, Hann) {
  auto out = run_op("HannWindow", 17, {tensor<int64_t>({}, {4})});
  expect_near(values_of<float>(out[0]), {0, 0.5f, 1, 0.5f}, 1e-6f);
  out = run_op("HannWindow", 17, {tensor<int32_t>({}, {3})}, {attr_int("periodic", 0)});
  expect_near(values_of<float>(out[0]), {0, 1, 0}, 1e-6f);
}

TEST(E2WindowOps, Hamming) {
  auto out = run_op("HammingWindow", 17, {tensor<int32_t>({}, {2})});
  expect_near(values_of<float>(out[0]), {4.0f / 46, 1}, 1e-6f);
}

TEST(E2WindowOps, Blackman) {
  auto out = run_op("BlackmanWindow", 17, {tensor<int64_t>({}, {4})});
  expect_near(values_of<float>(out[0]), {0, 0.34f, 1, 0.34f}, 1e-6f);
}

TEST(E2WindowOps, OutputDatatypeAndEmpty) {
  // int32 output truncates 0.5 toward zero.
  auto out = run_op("HannWindow", 17, {tensor<int64_t>({}, {4})}, {attr_int("output_datatype", 6)});
  EXPECT_EQ(values_of<int32_t>(out[0]), (std::vector<int32_t>{0, 0, 1, 0}));
  out = run_op("HannWindow", 17, {tensor<int64_t>({}, {4})}, {attr_int("output_datatype", 11)});
  EXPECT_NEAR(values_of<double>(out[0])[2], 1.0, 1e-7);
  out = run_op("BlackmanWindow", 17, {tensor<int64_t>({}, {0})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{0}));
  expect_trap([] { run_op("HannWindow", 17, {tensor<int64_t>({}, {4})}, {attr_int("output_datatype", 8)}); }, "output_datatype");
}

// ---------------------------------------------------------------------------------------------
// MelWeightMatrix: 2 mel bins, dft_length 8 (5 spectrogram bins), sample rate 10, 0..5 Hz.
// The 4 edge points are a little below 0, 1.25, 2.5, 3.75 Hz (mel is concave), i.e. bins
// floor(9*hz/10) = 0, 1, 2, 3: filter 0 peaks at bin 1, filter 1 at bin 2.

TEST(E2MelWeightMatrixOp, TriangularFilters) {
  auto out = run_op("MelWeightMatrix", 17,
                    {tensor<int64_t>({}, {2}), tensor<int64_t>({}, {8}), tensor<int64_t>({}, {10}), tensor<float>({}, {0}),
                     tensor<float>({}, {5})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{5, 2}));
  expect_near(values_of<float>(out[0]), {0, 0, 1, 0, 0, 1, 0, 0, 0, 0});
}

TEST(E2MelWeightMatrixOp, EdgeAboveNyquistTraps) {
  expect_trap([] {
    run_op("MelWeightMatrix", 17,
           {tensor<int64_t>({}, {2}), tensor<int64_t>({}, {8}), tensor<int64_t>({}, {10}), tensor<float>({}, {0}),
            tensor<float>({}, {50})});
  }, "spectrogram bins");
}

// ---------------------------------------------------------------------------------------------
// TfIdfVectorizer.

TEST(E2TfIdfVectorizerOp, StringsAllModes) {
  // Pool: 1-grams "a", "c"; 2-gram ("a", "b"). In a b a b c: a 2, c 1, (a b) 2.
  auto x = tensor<std::string>({5}, {"a", "b", "a", "b", "c"});
  std::vector<onnx::AttributeProto> attrs{attr_int("min_gram_length", 1), attr_int("max_gram_length", 2),
                                          attr_int("max_skip_count", 0), attr_ints("ngram_counts", {0, 2}),
                                          attr_ints("ngram_indexes", {0, 1, 2}), attr_strings("pool_strings", {"a", "c", "a", "b"}),
                                          attr_floats("weights", {0.5f, 2, 3})};
  auto with_mode = [&](const char* mode) {
    auto a = attrs;
    a.push_back(attr_string("mode", mode));
    return values_of<float>(run_op("TfIdfVectorizer", 9, {x}, a)[0]);
  };
  EXPECT_EQ(with_mode("TF"), (std::vector<float>{2, 1, 2}));  // weights ignored
  EXPECT_EQ(with_mode("IDF"), (std::vector<float>{0.5f, 2, 3}));
  EXPECT_EQ(with_mode("TFIDF"), (std::vector<float>{1, 2, 6}));
}

TEST(E2TfIdfVectorizerOp, SkipsCountEachGap) {
  // (1, 3) with gaps 1 or 2 in [1, 2, 3, 1, 5, 3]: positions (0, 2) and (3, 5).
  auto out = run_op("TfIdfVectorizer", 9, {tensor<int64_t>({6}, {1, 2, 3, 1, 5, 3})},
                    {attr_string("mode", "TF"), attr_int("min_gram_length", 2), attr_int("max_gram_length", 2),
                     attr_int("max_skip_count", 1), attr_ints("ngram_counts", {0, 0}), attr_ints("ngram_indexes", {0}),
                     attr_ints("pool_int64s", {1, 3})});
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{2}));
}

TEST(E2TfIdfVectorizerOp, RowsDoNotShareNgramsAndIndexesPermute) {
  // Pool 2-grams (94, 17) -> Y[1], (17, 36) -> Y[0]. Row 0 ends with 94 and row 1 starts with 17:
  // that (94, 17) spans two rows and is not an n-gram.
  auto out = run_op("TfIdfVectorizer", 9, {tensor<int32_t>({2, 3}, {17, 36, 94, 17, 36, 36})},
                    {attr_string("mode", "TF"), attr_int("min_gram_length", 2), attr_int("max_gram_length", 2),
                     attr_int("max_skip_count", 0), attr_ints("ngram_counts", {0, 0}), attr_ints("ngram_indexes", {1, 0}),
                     attr_ints("pool_int64s", {94, 17, 17, 36})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 2}));
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{1, 0, 1, 0}));
}

TEST(E2TfIdfVectorizerOp, BadAttributesTrap) {
  expect_trap([] {
    run_op("TfIdfVectorizer", 9, {tensor<int64_t>({2}, {1, 2})},
           {attr_string("mode", "TF"), attr_int("min_gram_length", 1), attr_int("max_gram_length", 1),
            attr_int("max_skip_count", 0), attr_ints("ngram_counts", {0}), attr_ints("ngram_indexes", {0, 1}),
            attr_ints("pool_int64s", {1})});
  }, "ngram_indexes");
  expect_trap([] {
    run_op("TfIdfVectorizer", 9, {tensor<int64_t>({2}, {1, 2})},
           {attr_string("mode", "BM25"), attr_int("min_gram_length", 1), attr_int("max_gram_length", 1),
            attr_int("max_skip_count", 0), attr_ints("ngram_counts", {0}), attr_ints("ngram_indexes", {0}),
            attr_ints("pool_int64s", {1})});
  }, "mode");
}

}  // namespace sonnx::testing
