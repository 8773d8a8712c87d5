// TreeEnsembleRegressor and TreeEnsembleClassifier (ai.onnx.ml 1, 3, 5) on small hand-built
// ensembles. Every expected value is derived by hand in the comments (or computed here from the
// formula the comment gives), including the decisions of spec/ops/TreeEnsembleClassifier.md.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "reference/infer/infer.h"
#include "reference/model/tensor_proto.h"
#include "reference/model/text_syntax.h"
#include "tests/unit/infer_text_util.h"
#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

using mltrees_attrs = std::vector<onnx::AttributeProto>;
const int64_t mltrees_versions[] = {1, 3, 5};

mltrees_attrs mltrees_join(mltrees_attrs a, const mltrees_attrs& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

Value mltrees_regress(int64_t version, const Value& x, const mltrees_attrs& attrs) {
  return run_ml("TreeEnsembleRegressor", version, {x}, attrs)[0];
}

std::vector<Value> mltrees_classify(int64_t version, const Value& x, const mltrees_attrs& attrs) {
  return run_ml("TreeEnsembleClassifier", version, {x}, attrs, 2);
}

// Ensemble A, F = 2 (tree, node: test or leaf):
//   tree 0: node 0  x0 <= 1 (BRANCH_LEQ) ? node 1 : node 2
//           node 1  LEAF
//           node 2  x1 < 5 (BRANCH_LT) ? node 3 : node 4
//           node 3  LEAF;  node 4  LEAF
//   tree 1: node 0  x1 >= 3 (BRANCH_GTE) ? node 1 : node 2
//           node 1  LEAF;  node 2  LEAF
// `nan_true` is nodes_missing_value_tracks_true (the first entry: tree 0's node 0).
mltrees_attrs mltrees_nodes_a(std::vector<int64_t> nan_true = {0, 0, 0, 0, 0, 0, 0, 0}) {
  return {attr_ints("nodes_treeids", {0, 0, 0, 0, 0, 1, 1, 1}),
          attr_ints("nodes_nodeids", {0, 1, 2, 3, 4, 0, 1, 2}),
          attr_ints("nodes_featureids", {0, 0, 1, 0, 0, 1, 0, 0}),
          attr_strings("nodes_modes", {"BRANCH_LEQ", "LEAF", "BRANCH_LT", "LEAF", "LEAF", "BRANCH_GTE", "LEAF", "LEAF"}),
          attr_floats("nodes_values", {1, 0, 5, 0, 0, 3, 0, 0}),
          attr_ints("nodes_truenodeids", {1, 0, 3, 0, 0, 1, 0, 0}),
          attr_ints("nodes_falsenodeids", {2, 0, 4, 0, 0, 2, 0, 0}),
          attr_ints("nodes_missing_value_tracks_true", nan_true)};
}

// The votes at A's leaves (prefix "target" or "class"), id: weight:
//   tree 0 node 1: 0: 1      tree 0 node 3: 0: 10 and 1: 2      tree 0 node 4: 1: 100
//   tree 1 node 1: 0: 0.5    tree 1 node 2: 1: 0.25
mltrees_attrs mltrees_votes_a(const std::string& prefix) {
  return {attr_ints(prefix + "_treeids", {0, 0, 0, 0, 1, 1}), attr_ints(prefix + "_nodeids", {1, 3, 3, 4, 1, 2}),
          attr_ints(prefix + "_ids", {0, 0, 1, 1, 0, 1}), attr_floats(prefix + "_weights", {1, 10, 2, 100, 0.5f, 0.25f})};
}

// Rows and the leaves they reach in A:
//   [0, 0]: tree 0 -> node 1 (0: 1);           tree 1: 0 >= 3 false -> node 2 (1: 0.25)
//   [2, 4]: tree 0 -> node 2 -> node 3 (0: 10, 1: 2); tree 1 -> node 1 (0: 0.5)
//   [2, 6]: tree 0 -> node 2 -> node 4 (1: 100); tree 1 -> node 1 (0: 0.5)
//   [NaN, 6]: NaN <= 1 is false -> as [2, 6]; tracked as true -> node 1 (0: 1), tree 1 (0: 0.5)
Value mltrees_rows_a() { return tensor<float>({4, 2}, {0, 0, 2, 4, 2, 6, kNaN, 6}); }

mltrees_attrs mltrees_regressor_a(const std::string& aggregate, int64_t targets = 3) {
  return mltrees_join(mltrees_join(mltrees_nodes_a(), mltrees_votes_a("target")),
                      {attr_int("n_targets", targets), attr_string("aggregate_function", aggregate)});
}

TEST(MlTrees, RegressorSumAndAverageEveryVersion) {
  for (int64_t v : mltrees_versions) {
    // SUM, target 2 never voted (0): [1, 0.25, 0], [10.5, 2, 0], [0.5, 100, 0], [0.5, 100, 0].
    Value sum = mltrees_regress(v, mltrees_rows_a(), mltrees_regressor_a("SUM"));
    EXPECT_EQ(sum.tensor.shape(), (Shape{4, 3}));
    EXPECT_EQ(values_of<float>(sum), (std::vector<float>{1, 0.25f, 0, 10.5f, 2, 0, 0.5f, 100, 0, 0.5f, 100, 0})) << v;
    // AVERAGE: the sums over the 2 trees.
    Value avg = mltrees_regress(v, mltrees_rows_a(), mltrees_regressor_a("AVERAGE"));
    EXPECT_EQ(values_of<float>(avg), (std::vector<float>{0.5f, 0.125f, 0, 5.25f, 1, 0, 0.25f, 50, 0, 0.25f, 50, 0})) << v;
  }
}

TEST(MlTrees, RegressorMinAndMaxKeepTheExtremeFloatWhereNoVoteCame) {
  const float big = std::numeric_limits<float>::max();
  // MIN: [1, 0.25, big], [min(10, 0.5), 2, big], [0.5, 100, big] (twice).
  Value mn = mltrees_regress(1, mltrees_rows_a(), mltrees_regressor_a("MIN"));
  EXPECT_EQ(values_of<float>(mn), (std::vector<float>{1, 0.25f, big, 0.5f, 2, big, 0.5f, 100, big, 0.5f, 100, big}));
  // MAX: [1, 0.25, -big], [max(10, 0.5), 2, -big], [0.5, 100, -big] (twice).
  Value mx = mltrees_regress(3, mltrees_rows_a(), mltrees_regressor_a("MAX"));
  EXPECT_EQ(values_of<float>(mx), (std::vector<float>{1, 0.25f, -big, 10, 2, -big, 0.5f, 100, -big, 0.5f, 100, -big}));
}

TEST(MlTrees, RegressorMissingValueTracksTrue) {
  // Tree 0's node 0 sends NaN to its true child: [NaN, 6] -> (0: 1) + (0: 0.5) = [1.5, 0, 0].
  mltrees_attrs a = mltrees_join(mltrees_join(mltrees_nodes_a({1, 0, 0, 0, 0, 0, 0, 0}), mltrees_votes_a("target")),
                                 {attr_int("n_targets", 3)});
  EXPECT_EQ(values_of<float>(mltrees_regress(1, tensor<float>({1, 2}, {kNaN, 6}), a)), (std::vector<float>{1.5f, 0, 0}));
}

TEST(MlTrees, RegressorBaseValuesThenPostTransform) {
  // SUM then + base_values [1, 2, 3]: row [0, 0] -> [2, 2.25, 3], then LOGISTIC 1 / (1 + e^-v).
  mltrees_attrs a = mltrees_join(mltrees_regressor_a("SUM"),
                                 {attr_floats("base_values", {1, 2, 3}), attr_string("post_transform", "LOGISTIC")});
  Value y = mltrees_regress(3, tensor<float>({1, 2}, {0, 0}), a);
  std::vector<float> want;
  for (double s : {2.0, 2.25, 3.0}) want.push_back(static_cast<float>(1 / (1 + std::exp(-s))));
  EXPECT_EQ(values_of<float>(y), want);
}

// Ensemble B, F = 1, one target: the other modes and a tree that is one leaf.
//   tree 3: node 0  x > 5 (BRANCH_GT) ? node 1 (1) : node 2
//           node 2  x == 3 (BRANCH_EQ) ? node 3 (2) : node 4
//           node 4  x != 4 (BRANCH_NEQ) ? node 5 (4) : node 6 (8)
//   tree 7: node 0  LEAF (16)
mltrees_attrs mltrees_regressor_b(std::vector<int64_t> nan_true) {
  return {attr_ints("nodes_treeids", {3, 3, 3, 3, 3, 3, 3, 7}),
          attr_ints("nodes_nodeids", {0, 1, 2, 3, 4, 5, 6, 0}),
          attr_ints("nodes_featureids", {0, 0, 0, 0, 0, 0, 0, 0}),
          attr_strings("nodes_modes", {"BRANCH_GT", "LEAF", "BRANCH_EQ", "LEAF", "BRANCH_NEQ", "LEAF", "LEAF", "LEAF"}),
          attr_floats("nodes_values", {5, 0, 3, 0, 4, 0, 0, 0}),
          attr_ints("nodes_truenodeids", {1, 0, 3, 0, 5, 0, 0, 0}),
          attr_ints("nodes_falsenodeids", {2, 0, 4, 0, 6, 0, 0, 0}),
          attr_ints("nodes_missing_value_tracks_true", nan_true),
          attr_ints("target_treeids", {3, 3, 3, 3, 7}),
          attr_ints("target_nodeids", {1, 3, 5, 6, 0}),
          attr_ints("target_ids", {0, 0, 0, 0, 0}),
          attr_floats("target_weights", {1, 2, 4, 8, 16}),
          attr_int("n_targets", 1)};
}

TEST(MlTrees, RegressorGtEqNeqAndASingleLeafTree) {
  // 6: 6 > 5 -> 1;  3: -> 3 == 3 -> 2;  0: -> 0 != 4 -> 4;  4: -> 4 != 4 false -> 8;
  // 5: 5 > 5 false, 5 == 3 false, 5 != 4 -> 4;  NaN: > and == false, != true -> 4. Each + 16.
  Value x = tensor<double>({6, 1}, {6, 3, 0, 4, 5, std::nan("")});
  for (int64_t v : mltrees_versions)
    EXPECT_EQ(values_of<float>(mltrees_regress(v, x, mltrees_regressor_b({0, 0, 0, 0, 0, 0, 0, 0}))),
              (std::vector<float>{17, 18, 20, 24, 20, 20}));
  // NaN tracked true at node 0: 1 + 16.
  EXPECT_EQ(values_of<float>(mltrees_regress(1, tensor<float>({1, 1}, {kNaN}), mltrees_regressor_b({1, 0, 0, 0, 0, 0, 0, 0}))),
            (std::vector<float>{17}));
  // Integer X: 4 -> 24 as above.
  EXPECT_EQ(values_of<float>(mltrees_regress(1, tensor<int32_t>({1, 1}, {4}), mltrees_regressor_b({0, 0, 0, 0, 0, 0, 0, 0}))),
            (std::vector<float>{24}));
}

// One tree, F = 1: node 0  x <= split ? node 1 (w1) : node 2 (w2); the split and the weights as
// lists (float) or, with `as_tensor`, as double tensors.
mltrees_attrs mltrees_stump(bool as_tensor, double split, double w1, double w2, double base) {
  mltrees_attrs a = {attr_ints("nodes_treeids", {0, 0, 0}),     attr_ints("nodes_nodeids", {0, 1, 2}),
                     attr_ints("nodes_featureids", {0, 0, 0}),  attr_strings("nodes_modes", {"BRANCH_LEQ", "LEAF", "LEAF"}),
                     attr_ints("nodes_truenodeids", {1, 0, 0}), attr_ints("nodes_falsenodeids", {2, 0, 0}),
                     attr_ints("target_treeids", {0, 0}),       attr_ints("target_nodeids", {1, 2}),
                     attr_ints("target_ids", {0, 0}),           attr_int("n_targets", 1)};
  if (as_tensor)
    return mltrees_join(a, {attr_tensor("nodes_values_as_tensor", Tensor::from_vector<double>({3}, {split, 0, 0})),
                            attr_tensor("target_weights_as_tensor", Tensor::from_vector<double>({2}, {w1, w2})),
                            attr_tensor("base_values_as_tensor", Tensor::from_vector<double>({1}, {base}))});
  return mltrees_join(a, {attr_floats("nodes_values", {static_cast<float>(split), 0, 0}),
                          attr_floats("target_weights", {static_cast<float>(w1), static_cast<float>(w2)}),
                          attr_floats("base_values", {static_cast<float>(base)})});
}

TEST(MlTrees, RegressorAsTensorAttributesAreDouble) {
  // x = 0.1000000001 (double). The float split 0.1f = 0.100000001490116... holds it (true: w1);
  // the double split 0.1 does not (false: w2).
  Value x = tensor<double>({1, 1}, {0.1000000001});
  EXPECT_EQ(values_of<float>(mltrees_regress(3, x, mltrees_stump(false, 0.1, 1, 2, 0))), (std::vector<float>{1}));
  EXPECT_EQ(values_of<float>(mltrees_regress(3, x, mltrees_stump(true, 0.1, 1, 2, 0))), (std::vector<float>{2}));
  // Weights and base in double: w2 + base = 0.1 + 0.2 (in double 0.30000000000000004), rounded once to float.
  EXPECT_EQ(values_of<float>(mltrees_regress(5, x, mltrees_stump(true, 0.1, 1, 0.1, 0.2))),
            (std::vector<float>{static_cast<float>(0.1 + 0.2)}));
  // An integer feature is rounded to float before a float split: 2^24 + 1 -> 2^24 <= 2^24 (w1);
  // against the double split it stays 2^24 + 1 > 2^24 (w2).
  Value big = tensor<int64_t>({1, 1}, {16777217});
  EXPECT_EQ(values_of<float>(mltrees_regress(3, big, mltrees_stump(false, 16777216, 1, 2, 0))), (std::vector<float>{1}));
  EXPECT_EQ(values_of<float>(mltrees_regress(3, big, mltrees_stump(true, 16777216, 1, 2, 0))), (std::vector<float>{2}));
  // Both forms of one attribute: refused.
  expect_trap(
      [&] {
        mltrees_regress(3, x, mltrees_join(mltrees_stump(true, 0.1, 1, 2, 0), {attr_floats("nodes_values", {0, 0, 0})}));
      },
      "not both");
}

TEST(MlTrees, RegressorBadAttributesTrap) {
  Value x = tensor<float>({1, 2}, {0, 0});
  expect_trap([&] { mltrees_regress(1, x, mltrees_regressor_a("MEDIAN")); }, "aggregate_function");
  expect_trap([&] { mltrees_regress(1, x, mltrees_regressor_a("SUM", 1)); }, "outside [0, n_targets)");
  expect_trap([&] { mltrees_regress(1, x, mltrees_join(mltrees_nodes_a(), mltrees_votes_a("target"))); }, "n_targets");
  expect_trap(
      [&] {
        mltrees_regress(1, x, mltrees_join(mltrees_regressor_a("SUM"), {attr_floats("base_values", {1, 2})}));
      },
      "base_values");
  expect_trap([&] { mltrees_regress(1, x, mltrees_join(mltrees_regressor_a("SUM"), {attr_string("post_transform", "TANH")})); },
              "post_transform");
  expect_trap([&] { mltrees_regress(1, tensor<float>({1, 1}, {0}), mltrees_regressor_a("SUM")); }, "feature id 1");
  // A vote at a branch node (tree 0, node 0).
  mltrees_attrs branch_vote = mltrees_nodes_a();
  branch_vote = mltrees_join(branch_vote,
                             {attr_ints("target_treeids", {0}), attr_ints("target_nodeids", {0}), attr_ints("target_ids", {0}),
                              attr_floats("target_weights", {1}), attr_int("n_targets", 1)});
  expect_trap([&] { mltrees_regress(1, x, branch_vote); }, "not a LEAF");
  // A child that is not in the tree and an unknown mode.
  mltrees_attrs b = mltrees_regressor_b({0, 0, 0, 0, 0, 0, 0, 0});
  mltrees_attrs bad_child = b, bad_mode = b;
  bad_child[5] = attr_ints("nodes_truenodeids", {9, 0, 3, 0, 5, 0, 0, 0});
  bad_mode[3] = attr_strings("nodes_modes",
                             {"BRANCH_MEMBER", "LEAF", "BRANCH_EQ", "LEAF", "BRANCH_NEQ", "LEAF", "LEAF", "LEAF"});
  Value one = tensor<float>({1, 1}, {0});
  expect_trap([&] { mltrees_regress(1, one, bad_child); }, "not a node of the tree");
  expect_trap([&] { mltrees_regress(1, one, bad_mode); }, "unknown node mode");
  // Cycles: node 0 -> node 1 -> node 0 leaves the tree without a root; node 0 -> node 1 -> node 3
  // -> node 1 (x = 0 always true) is found by the walk.
  mltrees_attrs no_root = {
      attr_ints("nodes_treeids", {0, 0, 0}),      attr_ints("nodes_nodeids", {0, 1, 2}),
      attr_ints("nodes_featureids", {0, 0, 0}),   attr_strings("nodes_modes", {"BRANCH_LEQ", "BRANCH_LEQ", "LEAF"}),
      attr_floats("nodes_values", {0, 0, 0}),     attr_ints("nodes_truenodeids", {1, 0, 0}),
      attr_ints("nodes_falsenodeids", {2, 2, 0}), attr_int("n_targets", 1)};
  expect_trap([&] { mltrees_regress(1, one, no_root); }, "no root");
  mltrees_attrs loop = {attr_ints("nodes_treeids", {0, 0, 0, 0}),
                        attr_ints("nodes_nodeids", {0, 1, 2, 3}),
                        attr_ints("nodes_featureids", {0, 0, 0, 0}),
                        attr_strings("nodes_modes", {"BRANCH_LEQ", "BRANCH_LEQ", "LEAF", "BRANCH_LEQ"}),
                        attr_floats("nodes_values", {0, 0, 0, 0}),
                        attr_ints("nodes_truenodeids", {1, 3, 0, 1}),
                        attr_ints("nodes_falsenodeids", {2, 2, 0, 2}),
                        attr_int("n_targets", 1)};
  expect_trap([&] { mltrees_regress(1, one, loop); }, "has a cycle");
}

// ---------------------------------------------------------------------------------------------
// TreeEnsembleClassifier

mltrees_attrs mltrees_classifier_a(const mltrees_attrs& more) {
  return mltrees_join(mltrees_join(mltrees_nodes_a(), mltrees_votes_a("class")), more);
}

TEST(MlTrees, ClassifierScoresAndTopClassEveryVersion) {
  // Classes 0, 1, 2 (labels 10, 20, 30); class 2 has no vote. Z rows (ensemble A's sums):
  //   [1, 0.25, 0] -> 10;  [10.5, 2, 0] -> 10;  [0.5, 100, 0] -> 20 (twice).
  for (int64_t v : mltrees_versions) {
    std::vector<Value> out = mltrees_classify(v, mltrees_rows_a(),
                                              mltrees_classifier_a({attr_ints("classlabels_int64s", {10, 20, 30})}));
    EXPECT_EQ(out[0].tensor.shape(), (Shape{4}));
    EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{10, 10, 20, 20})) << v;
    EXPECT_EQ(out[1].tensor.shape(), (Shape{4, 3}));
    EXPECT_EQ(values_of<float>(out[1]), (std::vector<float>{1, 0.25f, 0, 10.5f, 2, 0, 0.5f, 100, 0, 0.5f, 100, 0})) << v;
  }
}

TEST(MlTrees, ClassifierTiesGoToTheFirstClassAndLabelsMayBeStrings) {
  // base_values [99.5, 0, 0]: row [2, 6] scores [100, 100, 0]: a tie between classes 0 and 1 -> "a".
  // Row [0, 0]: [100.5, 0.25, 0] -> "a"; and base_values [0, 0, 11]: row [2, 4] [10.5, 2, 11] -> "c".
  std::vector<Value> tie = mltrees_classify(1, tensor<float>({2, 2}, {2, 6, 0, 0}),
                                            mltrees_classifier_a({attr_strings("classlabels_strings", {"a", "b", "c"}),
                                                                  attr_floats("base_values", {99.5f, 0, 0})}));
  EXPECT_EQ(values_of<std::string>(tie[0]), (std::vector<std::string>{"a", "a"}));
  EXPECT_EQ(values_of<float>(tie[1]), (std::vector<float>{100, 100, 0, 100.5f, 0.25f, 0}));
  std::vector<Value> c = mltrees_classify(3, tensor<float>({1, 2}, {2, 4}),
                                          mltrees_classifier_a({attr_strings("classlabels_strings", {"a", "b", "c"}),
                                                                attr_floats("base_values", {0, 0, 11})}));
  EXPECT_EQ(values_of<std::string>(c[0]), (std::vector<std::string>{"c"}));
}

TEST(MlTrees, ClassifierBaseValuesComeBeforeThePostTransform) {
  // Row [0, 0]: votes [1, 0.25, 0] + base [1, 2, 3] = [2, 2.25, 3], then SOFTMAX
  // e^(v - 3) / sum; the top class is the third (30).
  std::vector<Value> out = mltrees_classify(5, tensor<float>({1, 2}, {0, 0}),
                                            mltrees_classifier_a({attr_ints("classlabels_int64s", {10, 20, 30}),
                                                                  attr_floats("base_values", {1, 2, 3}),
                                                                  attr_string("post_transform", "SOFTMAX")}));
  const double e0 = std::exp(-1.0), e1 = std::exp(-0.75), e2 = 1, sum = e0 + e1 + e2;
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{30}));
  EXPECT_EQ(values_of<float>(out[1]),
            (std::vector<float>{static_cast<float>(e0 / sum), static_cast<float>(e1 / sum), static_cast<float>(e2 / sum)}));
}

// Binary: one tree, F = 1: node 0  x <= 0 ? node 1 (w1) : node 2 (w2), both votes for class `id`
// (the converters name class 0), two labels.
mltrees_attrs mltrees_binary(int64_t id, float w1, float w2, const mltrees_attrs& more) {
  return mltrees_join({attr_ints("nodes_treeids", {0, 0, 0}), attr_ints("nodes_nodeids", {0, 1, 2}),
                       attr_ints("nodes_featureids", {0, 0, 0}), attr_strings("nodes_modes", {"BRANCH_LEQ", "LEAF", "LEAF"}),
                       attr_floats("nodes_values", {0, 0, 0}), attr_ints("nodes_truenodeids", {1, 0, 0}),
                       attr_ints("nodes_falsenodeids", {2, 0, 0}), attr_ints("class_treeids", {0, 0}),
                       attr_ints("class_nodeids", {1, 2}), attr_ints("class_ids", {id, id}),
                       attr_floats("class_weights", {w1, w2})},
                      more);
}

TEST(MlTrees, ClassifierBinaryScoreVotesForTheSecondLabel) {
  Value x = tensor<float>({2, 1}, {-1, 1});
  for (int64_t id : {0, 1}) {
    // NONE: s = 0.25 -> Z [1 - s, s] = [0.75, 0.25] -> label 0; s = 0.75 -> [0.25, 0.75] -> label 1.
    std::vector<Value> out = mltrees_classify(1, x, mltrees_binary(id, 0.25f, 0.75f, {attr_ints("classlabels_int64s", {0, 1})}));
    EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{0, 1})) << id;
    EXPECT_EQ(out[1].tensor.shape(), (Shape{2, 2}));
    EXPECT_EQ(values_of<float>(out[1]), (std::vector<float>{0.75f, 0.25f, 0.25f, 0.75f})) << id;
  }
  // One base value, added to s: 0.25 + 0.25 = 0.5 -> [0.5, 0.5], a tie -> the first label.
  std::vector<Value> tie = mltrees_classify(3, x,
                                            mltrees_binary(0, 0.25f, 0.75f,
                                                           {attr_strings("classlabels_strings", {"no", "yes"}),
                                                            attr_floats("base_values", {0.25f})}));
  EXPECT_EQ(values_of<std::string>(tie[0]), (std::vector<std::string>{"no", "yes"}));
  EXPECT_EQ(values_of<float>(tie[1]), (std::vector<float>{0.5f, 0.5f, 0, 1}));
}

TEST(MlTrees, ClassifierBinaryLogisticUsesMinusS) {
  // LOGISTIC, base_values [100, 0.5]: only the second (the second class's) is added.
  // x = -1: s = -2 + 0.5 = -1.5 -> [σ(1.5), σ(-1.5)] -> label 0;  x = 1: s = 3.5 -> [σ(-3.5), σ(3.5)] -> 1.
  std::vector<Value> out = mltrees_classify(5, tensor<float>({2, 1}, {-1, 1}),
                                            mltrees_binary(0, -2, 3,
                                                           {attr_ints("classlabels_int64s", {0, 1}),
                                                            attr_floats("base_values", {100, 0.5f}),
                                                            attr_string("post_transform", "LOGISTIC")}));
  auto sigma = [](double v) { return static_cast<float>(1 / (1 + std::exp(-v))); };
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(values_of<float>(out[1]), (std::vector<float>{sigma(1.5), sigma(-1.5), sigma(-3.5), sigma(3.5)}));
}

TEST(MlTrees, ClassifierTwoClassesVotedSeparatelyAreNotTheBinaryCase) {
  // Votes for class 0 (w1 at node 1) and class 1 (w2 at node 2): Z is the plain sums.
  mltrees_attrs a = mltrees_binary(0, 0.25f, 0.75f, {attr_ints("classlabels_int64s", {7, 9})});
  a[9] = attr_ints("class_ids", {0, 1});
  std::vector<Value> out = mltrees_classify(1, tensor<float>({2, 1}, {-1, 1}), a);
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{7, 9}));
  EXPECT_EQ(values_of<float>(out[1]), (std::vector<float>{0.25f, 0, 0, 0.75f}));
}

TEST(MlTrees, ClassifierBadAttributesTrap) {
  Value x = tensor<float>({1, 1}, {0});
  expect_trap([&] { mltrees_classify(1, x, mltrees_binary(0, 1, 2, {})); }, "exactly one of classlabels");
  expect_trap(
      [&] {
        mltrees_classify(
            1, x,
            mltrees_binary(0, 1, 2, {attr_ints("classlabels_int64s", {0, 1}), attr_strings("classlabels_strings", {"a", "b"})}));
      },
      "exactly one of classlabels");
  expect_trap([&] { mltrees_classify(1, x, mltrees_binary(0, 1, 2, {attr_ints("classlabels_int64s", {1})})); }, "at least two");
  expect_trap([&] { mltrees_classify(1, x, mltrees_binary(2, 1, 2, {attr_ints("classlabels_int64s", {0, 1})})); }, "class id");
  expect_trap(
      [&] {
        mltrees_classify(1, tensor<float>({1, 2}, {0, 0}),
                         mltrees_classifier_a({attr_ints("classlabels_int64s", {1, 2, 3}), attr_floats("base_values", {1, 2})}));
      },
      "base_values");
}

// ---------------------------------------------------------------------------------------------
// Shape rules

TEST(MlTreesShape, RegressorIsBatchByTargetsAndClassifierLabelsAndScores) {
  EXPECT_EQ(inferred(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 3]>
g (int64[N,4] X) => (float Y) { Y = ai.onnx.ml.TreeEnsembleRegressor<n_targets = 2, nodes_treeids = [0], nodes_nodeids = [0],
  nodes_featureids = [0], nodes_modes = ["LEAF"], nodes_values = [0.0], nodes_truenodeids = [0], nodes_falsenodeids = [0],
  target_treeids = [0], target_nodeids = [0], target_ids = [1], target_weights = [1.0]>(X) })",
                     "Y"),
            "tensor(float)[N,2]");
  const char* classifier = R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (double[N,4] X) => (string Y, float Z) { Y, Z = ai.onnx.ml.TreeEnsembleClassifier<classlabels_strings = ["a", "b", "c"],
  nodes_treeids = [0], nodes_nodeids = [0], nodes_featureids = [0], nodes_modes = ["LEAF"], nodes_values = [0.0],
  nodes_truenodeids = [0], nodes_falsenodeids = [0], class_treeids = [0], class_nodeids = [0], class_ids = [2],
  class_weights = [1.0]>(X) })";
  EXPECT_EQ(inferred(classifier, "Y"), "tensor(string)[N]");
  EXPECT_EQ(inferred(classifier, "Z"), "tensor(float)[N,3]");
}

}  // namespace
}  // namespace sonnx::testing
