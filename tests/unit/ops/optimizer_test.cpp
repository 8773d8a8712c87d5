// The training operators of ai.onnx.preview.training: Adagrad, Adam, Momentum, Gradient. Expected
// values are worked out by hand from the ONNX operator specs.
#include <string>
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

// ---------------------------------------------------------------------------------------------
// Training optimizers
const std::string kTraining = "ai.onnx.preview.training";

TEST(OptimizerOp, AdagradStep) {
  // r = 1 / (1 + 1 * 1) = 0.5; G_reg = 0 * X + 2 = 2; H_new = 5 + 4 = 9; X_new = 3 - 0.5 * 2 / (3 + 0) = 8/3.
  auto out = run_op("Adagrad", 1,
                    {Value(Tensor::scalar<float>(1)), i64_scalar(1), tensor<float>({1}, {3}), tensor<float>({1}, {2}),
                     tensor<float>({1}, {5})},
                    {attr_float("decay_factor", 1), attr_float("epsilon", 0)}, 2, kTraining);
  EXPECT_FLOAT_EQ(values_of<float>(out[0])[0], 8.f / 3.f);
  EXPECT_FLOAT_EQ(values_of<float>(out[1])[0], 9.f);
}

TEST(OptimizerOp, AdamFirstStepAndBiasCorrection) {
  // T=0: R_adj = R = 1; G_reg = 0.5*2 + 1 = 2; V_new = 0.5*0 + 0.5*2 = 1; H_new = 0.75*0 + 0.25*4 = 1;
  // X_new = 2 - 1 * 1 / (1 + 0) = 1; X_final = (1 - 0.5) * 1 = 0.5.
  std::vector<onnx::AttributeProto> attrs = {attr_float("alpha", 0.5f), attr_float("beta", 0.75f), attr_float("epsilon", 0),
                                             attr_float("norm_coefficient", 0.5f), attr_float("norm_coefficient_post", 0.5f)};
  auto out = run_op("Adam", 1,
                    {Value(Tensor::scalar<double>(1)), i64_scalar(0), tensor<double>({1}, {2}), tensor<double>({1}, {1}),
                     tensor<double>({1}, {0}), tensor<double>({1}, {0})},
                    attrs, 3, kTraining);
  EXPECT_DOUBLE_EQ(values_of<double>(out[0])[0], 0.5);
  EXPECT_DOUBLE_EQ(values_of<double>(out[1])[0], 1.0);
  EXPECT_DOUBLE_EQ(values_of<double>(out[2])[0], 1.0);
  // T=1: R_adj = sqrt(1 - 0.75) / (1 - 0.5) = 1, so the same numbers.
  auto t1 = run_op("Adam", 1,
                   {Value(Tensor::scalar<double>(1)), i64_scalar(1), tensor<double>({1}, {2}), tensor<double>({1}, {1}),
                    tensor<double>({1}, {0}), tensor<double>({1}, {0})},
                   attrs, 3, kTraining);
  EXPECT_DOUBLE_EQ(values_of<double>(t1[0])[0], 0.5);
}

TEST(OptimizerOp, MomentumStandardAndNesterovWithTwoTensors) {
  // X1=1, G1=1, V1=2; X2=[0,4], G2=[2,0], V2=[0,0]; R=0.5, T=1, alpha=0.5, beta=2, norm=0.
  // standard: V1_new = 1 + 2*1 = 3, X1_new = 1 - 1.5 = -0.5; V2_new = [4, 0], X2_new = [-2, 4].
  // nesterov: X1_new = 1 - 0.5*(1 + 0.5*3) = -0.25; X2_new = [0 - 0.5*(2 + 2), 4] = [-2, 4].
  std::vector<Value> in = {Value(Tensor::scalar<float>(0.5f)),
                           i64_scalar(1),
                           tensor<float>({}, {1}),
                           tensor<float>({2}, {0, 4}),
                           tensor<float>({}, {1}),
                           tensor<float>({2}, {2, 0}),
                           tensor<float>({}, {2}),
                           tensor<float>({2}, {0, 0})};
  auto attrs = [](const std::string& mode) {
    return std::vector<onnx::AttributeProto>{attr_float("alpha", 0.5f), attr_float("beta", 2), attr_float("norm_coefficient", 0),
                                             attr_string("mode", mode)};
  };
  auto s = run_op("Momentum", 1, in, attrs("standard"), 4, kTraining);
  EXPECT_FLOAT_EQ(values_of<float>(s[0])[0], -0.5f);
  EXPECT_EQ(values_of<float>(s[1]), (std::vector<float>{-2, 4}));
  EXPECT_FLOAT_EQ(values_of<float>(s[2])[0], 3.f);
  EXPECT_EQ(values_of<float>(s[3]), (std::vector<float>{4, 0}));
  auto n = run_op("Momentum", 1, in, attrs("nesterov"), 4, kTraining);
  EXPECT_FLOAT_EQ(values_of<float>(n[0])[0], -0.25f);
  EXPECT_EQ(values_of<float>(n[1]), (std::vector<float>{-2, 4}));
  // T = 0 ignores beta: V1_new = 1 + 1 = 2.
  in[1] = i64_scalar(0);
  auto first = run_op("Momentum", 1, in, attrs("standard"), 4, kTraining);
  EXPECT_FLOAT_EQ(values_of<float>(first[2])[0], 2.f);
  expect_trap([&] { run_op("Momentum", 1, in, attrs("heavy"), 4, kTraining); }, "mode");
}

TEST(OptimizerOp, MismatchedShapesTrap) {
  expect_trap(
      [] {
        run_op("Adagrad", 1,
               {Value(Tensor::scalar<float>(1)), i64_scalar(0), tensor<float>({2}, {1, 2}), tensor<float>({1}, {1}),
                tensor<float>({2}, {0, 0})},
               {}, 2, kTraining);
      },
      "shape of the optimized tensor");
}

// ---------------------------------------------------------------------------------------------
// Gradient
// d = (a + b) * a with the Gradient node listed first: dd/da = 2a + b, dd/db = a.
TEST(GradientOp, ReverseModeThroughAddAndMul) {
  auto grad = node("Gradient", {"a", "b"}, {"dd_da", "dd_db"}, {attr_strings("xs", {"a", "b"}), attr_string("y", "d")},
                   kTraining);
  auto g = graph("grad", {grad, node("Add", {"a", "b"}, {"c"}), node("Mul", {"c", "a"}, {"d"})},
                 {vi("a", DType::Float, {}, true), vi("b", DType::Float, {}, true)},
                 {vi("d", DType::Float, {}, true), vi("dd_da", DType::Float, {}, true), vi("dd_db", DType::Float, {}, true)});
  NamedValues out = run_graph(g, {{"", 13}, {kTraining, 1}}, {{"a", tensor<float>({}, {3})}, {"b", tensor<float>({}, {-1})}});
  EXPECT_EQ(values_of<float>(out["d"]), (std::vector<float>{6}));
  EXPECT_EQ(values_of<float>(out["dd_da"]), (std::vector<float>{5}));
  EXPECT_EQ(values_of<float>(out["dd_db"]), (std::vector<float>{3}));
}

}  // namespace
}  // namespace sonnx::testing
