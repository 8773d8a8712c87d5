// ai.onnx.ml LinearClassifier-1, SVMRegressor-1 and SVMClassifier-1: scores, labels, the binary
// and tie decisions of spec/ops/LinearClassifier.md, SVMRegressor.md and SVMClassifier.md, the
// attribute checks and the shape rules. Expected values are worked out by hand in the comments or
// computed here from the formulas (std::exp, std::tanh), never taken from the kernels.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "reference/infer/infer.h"
#include "reference/model/text_syntax.h"
#include "reference/ops/support/svm.h"
#include "tests/unit/infer_text_util.h"
#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

float mllinear_logistic(double s) { return static_cast<float>(1 / (1 + std::exp(-s))); }

// ---------------------------------------------------------------------------------------------
// LinearClassifier

TEST(MlLinearClassifier, ThreeClassesFirstLargestScoreWins) {
  // Rows of coefficients [1,0], [0,1], [1,1]; intercepts 0, 0.5, -1.
  // x = [2,1]: 2, 1.5, 2 -> tie of classes 0 and 2 -> the first (10).
  // x = [0,3]: 0, 3.5, 2 -> class 1 (20).
  auto out = run_ml("LinearClassifier", 1, {tensor<float>({2, 2}, {2, 1, 0, 3})},
                    {attr_ints("classlabels_ints", {10, 20, 30}), attr_floats("coefficients", {1, 0, 0, 1, 1, 1}),
                     attr_floats("intercepts", {0, 0.5f, -1})},
                    2);
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{10, 20}));
  EXPECT_EQ(out[1].tensor.shape(), (Shape{2, 3}));
  EXPECT_EQ(values_of<float>(out[1]), (std::vector<float>{2, 1.5f, 2, 0, 3.5f, 2}));
}

TEST(MlLinearClassifier, LabelIsChosenOnRawScoresAndSoftmaxAppliesPerRow) {
  // int64 X [1,2] = [1,2], rows [1,0] and [0,1], no intercepts: scores 1, 2 -> "b";
  // softmax: [1/(1+e), e/(1+e)].
  auto out = run_ml("LinearClassifier", 1, {tensor<int64_t>({1, 2}, {1, 2})},
                    {attr_strings("classlabels_strings", {"a", "b"}), attr_floats("coefficients", {1, 0, 0, 1}),
                     attr_string("post_transform", "SOFTMAX")},
                    2);
  EXPECT_EQ(values_of<std::string>(out[0]), (std::vector<std::string>{"b"}));
  const double e = std::exp(1.0);
  expect_floats_near(out[1], {static_cast<float>(1 / (1 + e)), static_cast<float>(e / (1 + e))});
}

TEST(MlLinearClassifier, OneBinaryRowPicksTheSecondLabelForAPositiveScoreAndWidensZ) {
  // coefficients [1,-1], intercept 0.5: [1,2] -> -0.5 (neg), [3,1] -> 2.5 (pos), [1,1.5] -> 0 (neg:
  // only s > 0 picks the second label). Z = [-s, s].
  const std::vector<onnx::AttributeProto> attrs = {attr_strings("classlabels_strings", {"neg", "pos"}),
                                                   attr_floats("coefficients", {1, -1}), attr_floats("intercepts", {0.5f})};
  auto out = run_ml("LinearClassifier", 1, {tensor<float>({3, 2}, {1, 2, 3, 1, 1, 1.5f})}, attrs, 2);
  EXPECT_EQ(values_of<std::string>(out[0]), (std::vector<std::string>{"neg", "pos", "neg"}));
  EXPECT_EQ(out[1].tensor.shape(), (Shape{3, 2}));
  EXPECT_EQ(values_of<float>(out[1]), (std::vector<float>{0.5f, -0.5f, -2.5f, 2.5f, -0.0f, 0}));
  // LOGISTIC over the pair: [logistic(-s), logistic(s)] = [1 - p, p].
  auto attrs_l = attrs;
  attrs_l.push_back(attr_string("post_transform", "LOGISTIC"));
  auto l = run_ml("LinearClassifier", 1, {tensor<double>({1, 2}, {3, 1})}, attrs_l, 2);
  EXPECT_EQ(values_of<std::string>(l[0]), (std::vector<std::string>{"pos"}));
  expect_floats_near(l[1], {mllinear_logistic(-2.5), mllinear_logistic(2.5)});
}

TEST(MlLinearClassifier, AVectorIsOneRowAndMultiClassChangesNothing) {
  for (int64_t multi : {0, 1}) {
    auto out = run_ml("LinearClassifier", 1, {tensor<int32_t>({2}, {1, 2})},
                      {attr_ints("classlabels_ints", {0, 1}), attr_floats("coefficients", {1, 0, 0, 1}),
                       attr_int("multi_class", multi)},
                      2);
    EXPECT_EQ(out[0].tensor.shape(), (Shape{1}));
    EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{1}));
    EXPECT_EQ(out[1].tensor.shape(), (Shape{1, 2}));
    EXPECT_EQ(values_of<float>(out[1]), (std::vector<float>{1, 2}));
  }
}

TEST(MlLinearClassifier, BadAttributesTrap) {
  const Value x = tensor<float>({1, 2}, {1, 2});
  expect_trap([&] { run_ml("LinearClassifier", 1, {x}, {attr_floats("coefficients", {1, 2})}, 2); }, "exactly one of");
  expect_trap(
      [&] {
        run_ml("LinearClassifier", 1, {x},
               {attr_ints("classlabels_ints", {0, 1}), attr_strings("classlabels_strings", {"a", "b"}),
                attr_floats("coefficients", {1, 2})},
               2);
      },
      "exactly one of");
  expect_trap(
      [&] {
        run_ml("LinearClassifier", 1, {x}, {attr_ints("classlabels_ints", {0, 1, 2}), attr_floats("coefficients", {1, 2})}, 2);
      },
      "coefficients has 2 entries");
  expect_trap(
      [&] {
        run_ml("LinearClassifier", 1, {x},
               {attr_ints("classlabels_ints", {0, 1}), attr_floats("coefficients", {1, 2}), attr_floats("intercepts", {0, 0})},
               2);
      },
      "intercepts");
  expect_trap(
      [&] {
        run_ml("LinearClassifier", 1, {x},
               {attr_ints("classlabels_ints", {0, 1}), attr_floats("coefficients", {1, 2}), attr_int("multi_class", 2)}, 2);
      },
      "multi_class");
  expect_trap(
      [&] {
        run_ml("LinearClassifier", 1, {x},
               {attr_ints("classlabels_ints", {0, 1}), attr_floats("coefficients", {1, 2}),
                attr_string("post_transform", "SIGMOID")},
               2);
      },
      "unknown post_transform");
  expect_trap([&] {
    run_ml("LinearClassifier", 1, {tensor<uint8_t>({1, 2}, {1, 2})},
           {attr_ints("classlabels_ints", {0, 1}), attr_floats("coefficients", {1, 2})}, 2);
  });  // uint8 is outside T1 (the type check or the kernel refuses it)
}

// ---------------------------------------------------------------------------------------------
// SVMRegressor

TEST(MlSvmRegressor, LinearFormWithoutSupportVectors) {
  // coefficients [2,-1], rho 0.5: [1,1] -> 1.5, [0,2] -> -1.5.
  Value y = run_ml("SVMRegressor", 1, {tensor<float>({2, 2}, {1, 1, 0, 2})},
                   {attr_floats("coefficients", {2, -1}), attr_floats("rho", {0.5f})}, 1)[0];
  EXPECT_EQ(y.tensor.shape(), (Shape{2, 1}));
  EXPECT_EQ(values_of<float>(y), (std::vector<float>{1.5f, -1.5f}));
}

TEST(MlSvmRegressor, KernelsOverSupportVectors) {
  // RBF, gamma 0.5: sv [0,0] and [1,1], coefficients 1, -2, rho 0.25. x = [1,0] is at squared
  // distance 1 of both: exp(-0.5) (1 - 2) + 0.25.
  Value rbf = run_ml("SVMRegressor", 1, {tensor<float>({1, 2}, {1, 0})},
                     {attr_string("kernel_type", "RBF"), attr_floats("kernel_params", {0.5f, 0, 0}), attr_int("n_supports", 2),
                      attr_floats("support_vectors", {0, 0, 1, 1}), attr_floats("coefficients", {1, -2}),
                      attr_floats("rho", {0.25f})},
                     1)[0];
  expect_floats_near(rbf, {static_cast<float>(0.25 - std::exp(-0.5))});
  // POLY, gamma 1, coef0 1, degree 2: sv [1,2], coefficient 3; x = [1,1]: 3 (1*1+2*1 + 1)^2 = 48.
  Value poly = run_ml("SVMRegressor", 1, {tensor<int64_t>({1, 2}, {1, 1})},
                      {attr_string("kernel_type", "POLY"), attr_floats("kernel_params", {1, 1, 2}), attr_int("n_supports", 1),
                       attr_floats("support_vectors", {1, 2}), attr_floats("coefficients", {3}), attr_floats("rho", {0})},
                      1)[0];
  EXPECT_EQ(values_of<float>(poly), (std::vector<float>{48}));
  // SIGMOID, gamma 0.5, coef0 0: sv [2,0]; x = [1,3]: tanh(0.5 * 2) = tanh(1).
  Value sig = run_ml("SVMRegressor", 1, {tensor<double>({2}, {1, 3})},
                     {attr_string("kernel_type", "SIGMOID"), attr_floats("kernel_params", {0.5f, 0, 0}),
                      attr_int("n_supports", 1), attr_floats("support_vectors", {2, 0}), attr_floats("coefficients", {1}),
                      attr_floats("rho", {0})},
                     1)[0];
  EXPECT_EQ(sig.tensor.shape(), (Shape{1, 1}));
  expect_floats_near(sig, {static_cast<float>(std::tanh(1.0))});
}

TEST(MlSvmRegressor, OneClassIsTheSignAndPostTransformComesLast) {
  // x - 1 over [2], [1], [0]: 1 -> 1, 0 -> -1 (only y > 0 is +1), -1 -> -1.
  Value oc = run_ml("SVMRegressor", 1, {tensor<float>({3, 1}, {2, 1, 0})},
                    {attr_floats("coefficients", {1}), attr_floats("rho", {-1}), attr_int("one_class", 1)}, 1)[0];
  EXPECT_EQ(values_of<float>(oc), (std::vector<float>{1, -1, -1}));
  // LOGISTIC on y = x: [0] -> 0.5, [2] -> logistic(2).
  Value l = run_ml("SVMRegressor", 1, {tensor<float>({2, 1}, {0, 2})},
                   {attr_floats("coefficients", {1}), attr_floats("rho", {0}), attr_string("post_transform", "LOGISTIC")}, 1)[0];
  expect_floats_near(l, {0.5f, mllinear_logistic(2)});
}

TEST(MlSvmRegressor, BadAttributesTrap) {
  const Value x = tensor<float>({1, 2}, {1, 2});
  expect_trap(
      [&] {
        run_ml("SVMRegressor", 1, {x}, {attr_floats("coefficients", {1, 2}), attr_floats("rho", {0, 1})}, 1);
      },
      "rho must have exactly one entry");
  expect_trap(
      [&] {
        run_ml("SVMRegressor", 1, {x},
               {attr_int("n_supports", 2), attr_floats("support_vectors", {1, 2, 3, 4}), attr_floats("coefficients", {1}),
                attr_floats("rho", {0})},
               1);
      },
      "one entry per support vector");
  expect_trap(
      [&] {
        run_ml("SVMRegressor", 1, {x},
               {attr_string("kernel_type", "CUBIC"), attr_floats("coefficients", {1, 2}), attr_floats("rho", {0})}, 1);
      },
      "unknown kernel_type");
  expect_trap(
      [&] {
        run_ml("SVMRegressor", 1, {x},
               {attr_floats("kernel_params", {1, 2}), attr_floats("coefficients", {1, 2}), attr_floats("rho", {0})}, 1);
      },
      "kernel_params");
  expect_trap(
      [&] {
        run_ml("SVMRegressor", 1, {x}, {attr_floats("coefficients", {1, 2, 3}), attr_floats("rho", {0})}, 1);
      },
      "columns");
}

// ---------------------------------------------------------------------------------------------
// SVMClassifier

// Three classes, one linear-kernel support vector each: sv0 [1,0], sv1 [0,1], sv2 [-1,-1].
// coefficients rows a = [1,-1,1], b = [1,1,-1], rho 0: the pair values are
//   d01 = a0 K0 + a1 K1, d02 = b0 K0 + a2 K2, d12 = b1 K1 + b2 K2.
std::vector<onnx::AttributeProto> mllinear_three_class_svm() {
  return {attr_strings("classlabels_strings", {"a", "b", "c"}), attr_ints("vectors_per_class", {1, 1, 1}),
          attr_floats("support_vectors", {1, 0, 0, 1, -1, -1}), attr_floats("coefficients", {1, -1, 1, 1, 1, -1}),
          attr_floats("rho", {0, 0, 0})};
}

TEST(MlSvmClassifier, OneVsOneVotesWithTheLowestClassOnATie) {
  // x = [2,1]: K = 2, 1, -3; d01 = 2 - 1 = 1 (a), d02 = 2 - 3 = -1 (c), d12 = 1 + 3 = 4 (b): one vote
  // each -> "a". x = [0,3]: K = 0, 3, -3; d01 = -3 (b), d02 = -3 (c), d12 = 6 (b) -> "b".
  auto out = run_ml("SVMClassifier", 1, {tensor<float>({2, 2}, {2, 1, 0, 3})}, mllinear_three_class_svm(), 2);
  EXPECT_EQ(values_of<std::string>(out[0]), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(out[1].tensor.shape(), (Shape{2, 3}));
  EXPECT_EQ(values_of<float>(out[1]), (std::vector<float>{1, -1, 4, -3, -3, 6}));
}

std::vector<onnx::AttributeProto> mllinear_binary_svm() {
  // sv0 [1] (class 5), sv1 [-1] (class 7), coefficients [1,-1], rho 0: d = K0 - K1 = 2x.
  return {attr_ints("classlabels_ints", {5, 7}), attr_ints("vectors_per_class", {1, 1}), attr_floats("support_vectors", {1, -1}),
          attr_floats("coefficients", {1, -1}), attr_floats("rho", {0})};
}

TEST(MlSvmClassifier, BinaryPositiveDecisionPicksTheFirstClassAndZIsMinusDThenD) {
  // x = 2: d = 4 -> 5, Z [-4, 4]; x = -1: d = -2 -> 7, Z [2, -2].
  auto out = run_ml("SVMClassifier", 1, {tensor<float>({2, 1}, {2, -1})}, mllinear_binary_svm(), 2);
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{5, 7}));
  EXPECT_EQ(out[1].tensor.shape(), (Shape{2, 2}));
  EXPECT_EQ(values_of<float>(out[1]), (std::vector<float>{-4, 4, 2, -2}));
}

TEST(MlSvmClassifier, ProbabilitiesArePlattThenCoupling) {
  // prob_a -1, prob_b 0: the pair probability is 1 / (1 + exp(-d)) = logistic(d); for two classes
  // the coupling's solution is [q, 1 - q]. The iteration stops at an optimality error of 0.005 / k,
  // which leaves the probabilities within about 1e-3 of it.
  auto attrs = mllinear_binary_svm();
  attrs.push_back(attr_floats("prob_a", {-1}));
  attrs.push_back(attr_floats("prob_b", {0}));
  auto out = run_ml("SVMClassifier", 1, {tensor<float>({2, 1}, {2, -1})}, attrs, 2);
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{5, 7}));  // still the votes
  const float q4 = mllinear_logistic(4), qm2 = mllinear_logistic(-2);
  expect_floats_near(out[1], {q4, 1 - q4, qm2, 1 - qm2}, 3e-3f);
}

TEST(MlSvmClassifier, CouplingRecoversConsistentPairwiseProbabilities) {
  // r_ij = p_i / (p_i + p_j) for p = [0.5, 0.3, 0.2] is consistent: p is the exact minimiser.
  const std::vector<double> p = {0.5, 0.3, 0.2};
  std::vector<double> r(9, 0.0);
  for (size_t i = 0; i < 3; ++i)
    for (size_t j = 0; j < 3; ++j)
      if (i != j) r[i * 3 + j] = p[i] / (p[i] + p[j]);
  const std::vector<double> got = support::svm_couple(r, 3);
  ASSERT_EQ(got.size(), 3u);
  double sum = 0;
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_NEAR(got[i], p[i], 3e-3) << i;
    sum += got[i];
  }
  EXPECT_NEAR(sum, 1.0, 1e-12);
}

TEST(MlSvmClassifier, LinearFormScoresEachClassWithTheOneRho) {
  // coefficients rows [1,0], [0,1], rho 0.5: x = [3,1] -> 3.5, 1.5 -> "x"; x = [0,2] -> 0.5, 2.5 -> "y".
  auto out = run_ml("SVMClassifier", 1, {tensor<float>({2, 2}, {3, 1, 0, 2})},
                    {attr_strings("classlabels_strings", {"x", "y"}), attr_floats("coefficients", {1, 0, 0, 1}),
                     attr_floats("rho", {0.5f})},
                    2);
  EXPECT_EQ(values_of<std::string>(out[0]), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(values_of<float>(out[1]), (std::vector<float>{3.5f, 1.5f, 0.5f, 2.5f}));
}

TEST(MlSvmClassifier, BadAttributesTrap) {
  const Value x = tensor<float>({1, 1}, {1});
  auto with = [](std::vector<onnx::AttributeProto> a, const onnx::AttributeProto& extra) {
    for (auto& e : a)
      if (e.name() == extra.name()) e = extra;
    if (std::none_of(a.begin(), a.end(), [&](const onnx::AttributeProto& e) { return e.name() == extra.name(); }))
      a.push_back(extra);
    return a;
  };
  const auto base = mllinear_binary_svm();
  expect_trap(
      [&] {
        run_ml("SVMClassifier", 1, {x}, with(base, attr_ints("vectors_per_class", {1, 1, 0})), 2);
      },
      "one entry per class label");
  expect_trap(
      [&] {
        run_ml("SVMClassifier", 1, {x}, with(base, attr_floats("coefficients", {1, -1, 1})), 2);
      },
      "coefficients must have");
  expect_trap([&] { run_ml("SVMClassifier", 1, {x}, with(base, attr_floats("rho", {0, 0})), 2); }, "one entry per pair");
  expect_trap([&] { run_ml("SVMClassifier", 1, {x}, with(base, attr_floats("prob_a", {1})), 2); }, "differ in length");
  expect_trap(
      [&] {
        run_ml("SVMClassifier", 1, {x},
               {attr_ints("classlabels_ints", {0, 1}), attr_floats("coefficients", {1, 2}), attr_floats("rho", {0}),
                attr_floats("prob_a", {1}), attr_floats("prob_b", {1})},
               2);
      },
      "support-vector form only");
  expect_trap([&] { run_ml("SVMClassifier", 1, {tensor<float>({1, 2}, {1, 2})}, base, 2); }, "columns");
}

// ---------------------------------------------------------------------------------------------
// Shape rules

TEST(MlLinearShape, ClassifiersGiveLabelsAndScoresRegressorOneColumn) {
  EXPECT_EQ(inferred(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (float[N,2] X) => (string Y, float Z) { Y, Z = ai.onnx.ml.LinearClassifier<classlabels_strings = ["a", "b"], coefficients = [1.0, 2.0]>(X) })",
                     "Z"),
            "tensor(float)[N,2]");
  EXPECT_EQ(inferred(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (float[N,2] X) => (string Y, float Z) { Y, Z = ai.onnx.ml.LinearClassifier<classlabels_strings = ["a", "b"], coefficients = [1.0, 2.0]>(X) })",
                     "Y"),
            "tensor(string)[N]");
  EXPECT_EQ(inferred(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (int32[3] X) => (float Y) { Y = ai.onnx.ml.SVMRegressor<coefficients = [1.0, 2.0, 3.0], rho = [0.0]>(X) })",
                     "Y"),
            "tensor(float)[1,1]");
  // Three classes without probabilities: one column per pair (3).
  EXPECT_EQ(inferred(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (double[N,1] X) => (int64 Y, float Z) { Y, Z = ai.onnx.ml.SVMClassifier<classlabels_ints = [0, 1, 2], vectors_per_class = [1, 1, 1],
  support_vectors = [1.0, 2.0, 3.0], coefficients = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0], rho = [0.0, 0.0, 0.0]>(X) })",
                     "Z"),
            "tensor(float)[N,3]");
  EXPECT_EQ(inferred(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (double[N,1] X) => (int64 Y, float Z) { Y, Z = ai.onnx.ml.SVMClassifier<classlabels_ints = [0, 1, 2, 3], vectors_per_class = [1, 1, 1, 1],
  support_vectors = [1.0, 2.0, 3.0, 4.0], coefficients = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
  rho = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]>(X) })",
                     "Z"),
            "tensor(float)[N,6]");
  // A width that does not fit the coefficients is an inference error naming the columns.
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (float[N,3] X) => (float Y) { Y = ai.onnx.ml.SVMRegressor<coefficients = [1.0, 2.0], rho = [0.0]>(X) })");
  InferenceResult r = infer_model(m);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_NE(r.errors[0].message.find("columns"), std::string::npos) << r.errors[0].message;
}

}  // namespace
}  // namespace sonnx::testing
