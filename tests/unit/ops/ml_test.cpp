// The ai.onnx.ml operators with a reference kernel: ArrayFeatureExtractor, Binarizer,
// LabelEncoder (1, 2, 4), LinearRegressor, Scaler and TreeEnsemble (5), and their shape rules. Expected values are worked out
// by hand from the ai.onnx.ml operator specs (Changelog-ml.md).
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "reference/infer/infer.h"
#include "reference/model/text_syntax.h"
#include "reference/model/tensor_proto.h"
#include "tests/unit/infer_text_util.h"
#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

// ---------------------------------------------------------------------------------------------
// ArrayFeatureExtractor

TEST(MlOp, ArrayFeatureExtractorPicksFromTheLastAxis) {
  Value z = run_ml("ArrayFeatureExtractor", 1, {tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6}), tensor<int64_t>({2}, {2, 0})}, {})[0];
  EXPECT_EQ(z.tensor.shape(), (Shape{2, 2}));
  EXPECT_EQ(values_of<float>(z), (std::vector<float>{3, 1, 6, 4}));
  // Rank 3, indices repeated: [2,1,2] -> [2,1,3].
  Value r3 = run_ml("ArrayFeatureExtractor", 1, {tensor<int64_t>({2, 1, 2}, {1, 2, 3, 4}), tensor<int64_t>({3}, {1, 1, 0})},
                    {})[0];
  EXPECT_EQ(r3.tensor.shape(), (Shape{2, 1, 3}));
  EXPECT_EQ(values_of<int64_t>(r3), (std::vector<int64_t>{2, 2, 1, 4, 4, 3}));
}

TEST(MlOp, ArrayFeatureExtractorOfAVectorIsOneRowAndIndicesAreFlattened) {
  Value z = run_ml("ArrayFeatureExtractor", 1,
                   {Value(Tensor::from_vector<std::string>({3}, {"a", "b", "c"})), tensor<int64_t>({1, 2}, {1, 2})}, {})[0];
  EXPECT_EQ(z.tensor.shape(), (Shape{1, 2}));
  EXPECT_EQ(values_of<std::string>(z), (std::vector<std::string>{"b", "c"}));
}

TEST(MlOp, ArrayFeatureExtractorIndexOutOfRangeTraps) {
  expect_trap(
      [] {
        run_ml("ArrayFeatureExtractor", 1, {tensor<float>({2}, {1, 2}), tensor<int64_t>({1}, {2})}, {});
      },
      "outside [0, 2)");
  expect_trap(
      [] {
        run_ml("ArrayFeatureExtractor", 1, {tensor<float>({2}, {1, 2}), tensor<int64_t>({1}, {-1})}, {});
      },
      "outside");
}

// ---------------------------------------------------------------------------------------------
// Binarizer

TEST(MlOp, BinarizerIsStrictlyGreaterThanTheThreshold) {
  Value y = run_ml("Binarizer", 1, {tensor<float>({5}, {-1, 0.5f, 1, 1.5f, kNaN})}, {attr_float("threshold", 1)})[0];
  EXPECT_EQ(values_of<float>(y), (std::vector<float>{0, 0, 0, 1, 0}));
  Value i = run_ml("Binarizer", 1, {tensor<int32_t>({3}, {-2, 0, 3})}, {})[0];  // threshold 0 by default
  EXPECT_EQ(values_of<int32_t>(i), (std::vector<int32_t>{0, 0, 1}));
}

// ---------------------------------------------------------------------------------------------
// LabelEncoder

Value strings(const std::vector<std::string>& s) {
  return Value(Tensor::from_vector<std::string>({static_cast<int64_t>(s.size())}, s));
}

TEST(MlOp, LabelEncoder4StringsToIntsWithAndWithoutDefault) {
  auto keys = attr_strings("keys_strings", {"a", "b", "c"});
  auto values = attr_ints("values_int64s", {0, 1, 2});
  Value in = strings({"a", "d", "c", "b", "a"});
  EXPECT_EQ(values_of<int64_t>(run_ml("LabelEncoder", 4, {in}, {keys, values, attr_int("default_int64", 42)})[0]),
            (std::vector<int64_t>{0, 42, 2, 1, 0}));
  EXPECT_EQ(values_of<int64_t>(run_ml("LabelEncoder", 4, {in}, {keys, values})[0]), (std::vector<int64_t>{0, -1, 2, 1, 0}));
}

TEST(MlOp, LabelEncoder4TensorsNaNKeysAndSignedZero) {
  // A NaN key matches any NaN; -0.0 and 0.0 are one key (compared by value).
  auto keys = attr_tensor("keys_tensor", Tensor::from_vector<float>({3}, {kNaN, 0.0f, 2.5f}));
  auto values = attr_tensor("values_tensor", Tensor::from_vector<int32_t>({3}, {7, 8, 9}));
  auto def = attr_tensor("default_tensor", Tensor::from_vector<int32_t>({1}, {5}));
  float other_nan = -std::numeric_limits<float>::quiet_NaN();
  Value y = run_ml("LabelEncoder", 4, {tensor<float>({2, 2}, {-0.0f, other_nan, 2.5f, 1})}, {keys, values, def})[0];
  EXPECT_EQ(y.tensor.shape(), (Shape{2, 2}));
  EXPECT_EQ(values_of<int32_t>(y), (std::vector<int32_t>{8, 7, 9, 5}));
}

TEST(MlOp, LabelEncoder4DefaultsOfTensorValuesAndRepeatedKeys) {
  // No default_tensor: -0.0 for double values.
  Value d = run_ml("LabelEncoder", 4, {strings({"b"})},
                   {attr_strings("keys_strings", {"a"}),
                    attr_tensor("values_tensor", Tensor::from_vector<double>({1}, {1.5}))})[0];
  ASSERT_EQ(d.tensor.dtype(), DType::Double);
  EXPECT_EQ(values_of<double>(d)[0], 0.0);
  EXPECT_TRUE(std::signbit(values_of<double>(d)[0]));
  // A repeated key: the last one wins; the string default is "_Unused".
  Value s = run_ml("LabelEncoder", 4, {tensor<int64_t>({2}, {1, 2})},
                   {attr_ints("keys_int64s", {1, 1}), attr_strings("values_strings", {"x", "y"})})[0];
  EXPECT_EQ(values_of<std::string>(s), (std::vector<std::string>{"y", "_Unused"}));
}

TEST(MlOp, LabelEncoder2ComparesFloatKeysBitwise) {
  Value y = run_ml("LabelEncoder", 2, {tensor<float>({2}, {-0.0f, 0.0f})},
                   {attr_floats("keys_floats", {0.0f}), attr_ints("values_int64s", {3})})[0];
  EXPECT_EQ(values_of<int64_t>(y), (std::vector<int64_t>{-1, 3}));
}

TEST(MlOp, LabelEncoderMalformedAttributesTrap) {
  expect_trap(
      [] {
        run_ml("LabelEncoder", 2, {strings({"a"})}, {attr_strings("keys_strings", {"a", "b"}), attr_ints("values_int64s", {1})});
      },
      "differ in length");
  expect_trap(
      [] {
        run_ml("LabelEncoder", 4, {strings({"a"})},
               {attr_strings("keys_strings", {"a"}), attr_ints("keys_int64s", {1}), attr_ints("values_int64s", {1})});
      },
      "exactly one keys_*");
  expect_trap(
      [] {
        run_ml("LabelEncoder", 4, {tensor<int64_t>({1}, {1})},
               {attr_strings("keys_strings", {"a"}), attr_ints("values_int64s", {1})});
      },
      "X (the keys' type)");
}

TEST(MlOp, LabelEncoder1ConvertsBothWays) {
  auto classes = attr_strings("classes_strings", {"a", "b", "a"});
  // string -> index of the first occurrence, -1 when absent.
  EXPECT_EQ(values_of<int64_t>(run_ml("LabelEncoder", 1, {strings({"b", "a", "z"})}, {classes})[0]),
            (std::vector<int64_t>{1, 0, -1}));
  // int64 -> classes_strings[i], default_string when out of range.
  Value s = run_ml("LabelEncoder", 1, {tensor<int64_t>({3}, {2, 3, -1})}, {classes, attr_string("default_string", "none")})[0];
  EXPECT_EQ(values_of<std::string>(s), (std::vector<std::string>{"a", "none", "none"}));
}

// ---------------------------------------------------------------------------------------------
// TreeEnsemble

// Two trees over F = 2 features, 2 targets (leaf l: weight, target):
//   tree 1: node0 x0 < 2 ? leaf0 (1, t0) : node1;  node1 x1 >= 5 ? leaf1 (10, t1) : leaf2 (100, t0)
//   tree 2: node2 x1 == 3 ? leaf3 (0.5, t1) : leaf4 (0.25, t0)
std::vector<onnx::AttributeProto> two_trees(int64_t aggregate, std::vector<int64_t> nan_true = {0, 0, 0}) {
  return {attr_ints("nodes_featureids", {0, 1, 1}),
          attr_tensor("nodes_modes", Tensor::from_vector<uint8_t>({3}, {1, 2, 4})),
          attr_tensor("nodes_splits", Tensor::from_vector<float>({3}, {2, 5, 3})),
          attr_ints("nodes_truenodeids", {0, 1, 3}),
          attr_ints("nodes_trueleafs", {1, 1, 1}),
          attr_ints("nodes_falsenodeids", {1, 2, 4}),
          attr_ints("nodes_falseleafs", {0, 1, 1}),
          attr_ints("nodes_missing_value_tracks_true", nan_true),
          attr_ints("tree_roots", {0, 2}),
          attr_ints("leaf_targetids", {0, 1, 0, 1, 0}),
          attr_tensor("leaf_weights", Tensor::from_vector<float>({5}, {1, 10, 100, 0.5f, 0.25f})),
          attr_int("n_targets", 2),
          attr_int("aggregate_function", aggregate)};
}

// Rows [1,3], [2,5], [4,4], [NaN,7]:
//   [1,3]: leaf0 (t0 += 1), leaf3 (t1 += 0.5)      [2,5]: leaf1 (t1 += 10), leaf4 (t0 += 0.25)
//   [4,4]: leaf2 (t0 += 100), leaf4 (t0 += 0.25)   [NaN,7]: NaN < 2 is false -> leaf1; leaf4
Value rows() { return tensor<float>({4, 2}, {1, 3, 2, 5, 4, 4, kNaN, 7}); }

TEST(MlOp, TreeEnsembleSumAndAverage) {
  Value sum = run_ml("TreeEnsemble", 5, {rows()}, two_trees(1))[0];
  EXPECT_EQ(sum.tensor.shape(), (Shape{4, 2}));
  EXPECT_EQ(values_of<float>(sum), (std::vector<float>{1, 0.5f, 0.25f, 10, 100.25f, 0, 0.25f, 10}));
  Value avg = run_ml("TreeEnsemble", 5, {rows()}, two_trees(0))[0];
  EXPECT_EQ(values_of<float>(avg), (std::vector<float>{0.5f, 0.25f, 0.125f, 5, 50.125f, 0, 0.125f, 5}));
}

TEST(MlOp, TreeEnsembleMinAndMaxStartFromTheExtremeFiniteValues) {
  const float big = std::numeric_limits<float>::max();
  Value mn = run_ml("TreeEnsemble", 5, {rows()}, two_trees(2))[0];
  EXPECT_EQ(values_of<float>(mn), (std::vector<float>{1, 0.5f, 0.25f, 10, 0.25f, big, 0.25f, 10}));
  Value mx = run_ml("TreeEnsemble", 5, {rows()}, two_trees(3))[0];
  EXPECT_EQ(values_of<float>(mx), (std::vector<float>{1, 0.5f, 0.25f, 10, 100, -big, 0.25f, 10}));
}

TEST(MlOp, TreeEnsembleMissingValueTracksTrue) {
  // Node 0 sends a NaN x0 to its true child: [NaN, 7] reaches leaf0 (t0 += 1) and leaf4 (t0 += 0.25).
  Value y = run_ml("TreeEnsemble", 5, {tensor<float>({1, 2}, {kNaN, 7})}, two_trees(1, {1, 0, 0}))[0];
  EXPECT_EQ(values_of<float>(y), (std::vector<float>{1.25f, 0}));
}

// One tree, F = 1, 1 target, root node 1 (member {1, 3}) -> leaf0 (1) : node0 (member {7}) -> leaf1
// (2) : leaf2 (4). The sets go to the member nodes in nodes_modes order: node0 gets {7}.
std::vector<onnx::AttributeProto> member_tree(const std::vector<float>& members) {
  return {attr_ints("nodes_featureids", {0, 0}),
          attr_tensor("nodes_modes", Tensor::from_vector<uint8_t>({2}, {6, 6})),
          attr_tensor("nodes_splits", Tensor::from_vector<float>({2}, {0, 0})),
          attr_ints("nodes_truenodeids", {1, 0}),
          attr_ints("nodes_trueleafs", {1, 1}),
          attr_ints("nodes_falsenodeids", {2, 0}),
          attr_ints("nodes_falseleafs", {1, 0}),
          attr_ints("tree_roots", {1}),
          attr_ints("leaf_targetids", {0, 0, 0}),
          attr_tensor("leaf_weights", Tensor::from_vector<float>({3}, {1, 2, 4})),
          attr_tensor("membership_values", Tensor::from_vector<float>({static_cast<int64_t>(members.size())}, members)),
          attr_int("n_targets", 1)};
}

TEST(MlOp, TreeEnsembleSetMembership) {
  Value y = run_ml("TreeEnsemble", 5, {tensor<float>({5, 1}, {3, 7, 5, kNaN, 1})}, member_tree({7, kNaN, 1, 3, kNaN}))[0];
  EXPECT_EQ(values_of<float>(y), (std::vector<float>{1, 2, 4, 4, 1}));
  expect_trap([] { run_ml("TreeEnsemble", 5, {tensor<float>({1, 1}, {3})}, member_tree({7, kNaN, 1, 3})); }, "end with a NaN");
  expect_trap([] { run_ml("TreeEnsemble", 5, {tensor<float>({1, 1}, {3})}, member_tree({7, kNaN})); }, "fewer membership sets");
}

// Trees that are single leaves (both children the same leaf), one per target, in double: the
// score row is exactly `weights`, then transformed.
Value leaves(const std::vector<double>& weights, int64_t post) {
  const int64_t n = static_cast<int64_t>(weights.size());
  std::vector<int64_t> ids(static_cast<size_t>(n)), zeros(static_cast<size_t>(n), 0), ones(static_cast<size_t>(n), 1);
  for (int64_t i = 0; i < n; ++i) ids[static_cast<size_t>(i)] = i;
  return run_ml("TreeEnsemble", 5, {tensor<double>({1, 1}, {0})},
                {attr_ints("nodes_featureids", zeros),
                 attr_tensor("nodes_modes", Tensor::from_vector<uint8_t>({n}, std::vector<uint8_t>(static_cast<size_t>(n), 0))),
                 attr_tensor("nodes_splits", Tensor::from_vector<double>({n}, std::vector<double>(static_cast<size_t>(n), 0))),
                 attr_ints("nodes_truenodeids", ids), attr_ints("nodes_trueleafs", ones), attr_ints("nodes_falsenodeids", ids),
                 attr_ints("nodes_falseleafs", ones), attr_ints("tree_roots", ids), attr_ints("leaf_targetids", ids),
                 attr_tensor("leaf_weights", Tensor::from_vector<double>({n}, weights)), attr_int("n_targets", n),
                 attr_int("post_transform", post)})[0];
}

TEST(MlOp, TreeEnsemblePostTransforms) {
  const double ln3 = std::log(3.0), ln6 = std::log(6.0);
  auto near = [](const Value& v, const std::vector<double>& want) {
    auto got = values_of<double>(v);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << "element " << i;
  };
  near(leaves({0, ln3}, 0), {0, ln3});
  near(leaves({0, ln3}, 1), {0.25, 0.75});                // softmax: e^0 : e^ln3 = 1 : 3
  near(leaves({0, ln3}, 2), {0.5, 0.75});                 // logistic: 1/(1+1), 1/(1+1/3)
  near(leaves({0, ln3, ln6}, 3), {0, 1.0 / 3, 2.0 / 3});  // softmax over the non-zero scores: 3 : 6
  near(leaves({0, 0}, 3), {0.5, 0.5});
  // probit: standard normal quantiles, Phi^-1(0.5) = 0, Phi^-1(0.975) = 1.959963984540054.
  near(leaves({0.5, 0.975, 0.025}, 4), {0, 1.959963984540054, -1.959963984540054});
}

TEST(MlOp, TreeEnsembleMalformedTreesTrap) {
  auto cyc = two_trees(1);
  cyc[3] = attr_ints("nodes_truenodeids", {1, 0, 3});  // node0 -> node1 -> node0 ... (x1 >= 5, x0 < 2)
  cyc[4] = attr_ints("nodes_trueleafs", {0, 0, 1});
  expect_trap([&] { run_ml("TreeEnsemble", 5, {tensor<float>({1, 2}, {1, 6})}, cyc); }, "cycle");
  auto wide = two_trees(1);
  wide[0] = attr_ints("nodes_featureids", {0, 2, 1});
  expect_trap([&] { run_ml("TreeEnsemble", 5, {rows()}, wide); }, "feature id out of range");
  auto no_targets = two_trees(1);
  no_targets.erase(no_targets.begin() + 11);
  expect_trap([&] { run_ml("TreeEnsemble", 5, {rows()}, no_targets); }, "n_targets");
}

// ---------------------------------------------------------------------------------------------
// Scaler, LinearRegressor

TEST(MlOp, ScalerPerFeatureAndBroadcast) {
  // (1-1)*2, (2-2)*0.5, (3-1)*2, (4-2)*0.5
  Value y = run_ml("Scaler", 1, {tensor<float>({2, 2}, {1, 2, 3, 4})},
                   {attr_floats("offset", {1, 2}), attr_floats("scale", {2, 0.5f})})[0];
  EXPECT_EQ(values_of<float>(y), (std::vector<float>{0, 0, 4, 1}));
  // One entry applies to every element; int64 in, float out.
  Value i = run_ml("Scaler", 1, {tensor<int64_t>({3}, {1, 2, 3})}, {attr_floats("offset", {1}), attr_floats("scale", {3})})[0];
  ASSERT_EQ(i.tensor.dtype(), DType::Float);
  EXPECT_EQ(values_of<float>(i), (std::vector<float>{0, 3, 6}));
  expect_trap(
      [] {
        run_ml("Scaler", 1, {tensor<float>({1, 3}, {1, 2, 3})}, {attr_floats("offset", {1, 2}), attr_floats("scale", {1, 2})});
      },
      "features");
}

TEST(MlOp, LinearRegressorTwoTargetsAndLogistic) {
  // target 0: x0 + x1 + 0.5; target 1: 2 x0 - x1 - 1. Rows [1,2] -> 3.5, -1; [3,4] -> 7.5, 1.
  Value y = run_ml("LinearRegressor", 1, {tensor<float>({2, 2}, {1, 2, 3, 4})},
                   {attr_floats("coefficients", {1, 1, 2, -1}), attr_floats("intercepts", {0.5f, -1}),
                    attr_int("targets", 2)})[0];
  EXPECT_EQ(y.tensor.shape(), (Shape{2, 2}));
  EXPECT_EQ(values_of<float>(y), (std::vector<float>{3.5f, -1, 7.5f, 1}));
  // One target, no intercept: 2 - 2 = 0, logistic(0) = 0.5.
  Value l = run_ml("LinearRegressor", 1, {tensor<int32_t>({1, 2}, {2, 2})},
                   {attr_floats("coefficients", {1, -1}), attr_string("post_transform", "LOGISTIC")})[0];
  EXPECT_EQ(values_of<float>(l), (std::vector<float>{0.5f}));
  expect_trap(
      [] {
        run_ml("LinearRegressor", 1, {tensor<float>({1, 2}, {1, 2})}, {attr_floats("coefficients", {1, 1, 1})});
      },
      "targets * C");
}

// ---------------------------------------------------------------------------------------------
// Shape rules

TEST(MlShape, ArrayFeatureExtractorBinarizerLabelEncoder) {
  EXPECT_EQ(inferred(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (float[N,3,4] X, int64[2,3] I) => (float Z) { Z = ai.onnx.ml.ArrayFeatureExtractor(X, I) })",
                     "Z"),
            "tensor(float)[N,3,6]");
  EXPECT_EQ(inferred(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (string[5] X, int64[2] I) => (string Z) { Z = ai.onnx.ml.ArrayFeatureExtractor(X, I) })",
                     "Z"),
            "tensor(string)[1,2]");
  EXPECT_EQ(inferred(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (int32[2,N] X) => (int32 Y) { Y = ai.onnx.ml.Binarizer<threshold = 1.0>(X) })",
                     "Y"),
            "tensor(int32)[2,N]");
  EXPECT_EQ(inferred(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 4]>
g (string[3] X) => (float Y) { Y = ai.onnx.ml.LabelEncoder<keys_strings = ["a"], values_floats = [1.0]>(X) })",
                     "Y"),
            "tensor(float)[3]");
  EXPECT_EQ(inferred(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (int64[3] X) => (string Y) { Y = ai.onnx.ml.LabelEncoder<classes_strings = ["a"]>(X) })",
                     "Y"),
            "tensor(string)[3]");
  EXPECT_EQ(inferred(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (int64[N,3] X) => (float Y) { Y = ai.onnx.ml.Scaler<offset = [1.0], scale = [2.0]>(X) })",
                     "Y"),
            "tensor(float)[N,3]");
  EXPECT_EQ(inferred(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (double[N,3] X) => (float Y) { Y = ai.onnx.ml.LinearRegressor<targets = 2, coefficients = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]>(X) })",
                     "Y"),
            "tensor(float)[N,2]");
}

TEST(MlShape, TreeEnsembleIsBatchByTargets) {
  EXPECT_EQ(inferred(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 5]>
g (double[N,4] X) => (double Y) { Y = ai.onnx.ml.TreeEnsemble<n_targets = 3, tree_roots = [0], nodes_featureids = [0],
  nodes_modes = uint8[1] {0}, nodes_splits = double[1] {0.5}, leaf_weights = double[1] {1},
  nodes_truenodeids = [0], nodes_trueleafs = [1], nodes_falsenodeids = [0], nodes_falseleafs = [1], leaf_targetids = [0]>(X) })",
                     "Y"),
            "tensor(double)[N,3]");
  // The spec requires nodes_modes, nodes_splits and leaf_weights: inference reports the node
  // without them, as the kernel refuses it.
  InferenceResult r = infer_model(text::parse_model(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 5]>
g (double[N,4] X) => (double Y) { Y = ai.onnx.ml.TreeEnsemble<n_targets = 3, tree_roots = [0], nodes_featureids = [0],
  nodes_truenodeids = [0], nodes_trueleafs = [1], nodes_falsenodeids = [0], nodes_falseleafs = [1], leaf_targetids = [0]>(X) })"));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].message.find("nodes_splits' is required"), std::string::npos) << r.errors[0].message;
}

}  // namespace
}  // namespace sonnx::testing
