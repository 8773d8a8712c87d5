// Enclosures of the ai.onnx.ml operators (enclose/enclose_ml.cpp, enclose_ml_trees.cpp;
// spec/accuracy.md, "Admissible results"): Binarizer, LabelEncoder, ArrayFeatureExtractor and
// TreeEnsemble. Expected values are derived here by hand (the comparisons, the table lookups, the
// tree paths) and, for sums and the logistic function, through MPFR. Checked: (a) the exact value
// lies in the real enclosure, (b) the reference's output in the admissible one, (c) admissible ⊇
// real, (d) a value 1000 float ulps off the reference lies outside; integer outputs equal; an
// enclosure that cannot decide a comparison says so (Undetermined); an undefined input is undefined.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "enclose_test_util.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_float;
using sonnx::testing::attr_int;
using sonnx::testing::attr_ints;
using sonnx::testing::attr_tensor;
using sonnx::testing::node;
using sonnx::testing::vi;

constexpr int64_t kMlDefaultOpset = 19;

// A model of `nodes` importing ai.onnx at 19 and ai.onnx.ml at `ml_version`, its inputs `feed`.
OneNodeModel ml_graph_model(int64_t ml_version, const std::vector<onnx::NodeProto>& nodes, NamedValues feed,
                            const std::vector<std::string>& outputs) {
  std::vector<onnx::ValueInfoProto> ins, outs;
  for (const auto& [name, v] : feed) ins.push_back(vi(name));
  for (const auto& name : outputs) outs.push_back(vi(name));
  onnx::ModelProto m;
  m.set_ir_version(8);
  for (auto [domain, version] : {std::pair<std::string, int64_t>{"", kMlDefaultOpset}, {"ai.onnx.ml", ml_version}}) {
    auto* imp = m.add_opset_import();
    imp->set_domain(domain);
    imp->set_version(version);
  }
  *m.mutable_graph() = sonnx::testing::graph("g", nodes, ins, outs);
  return {model_from_proto(m, {}), std::move(feed)};
}

onnx::NodeProto ml_node(const std::string& op, const std::vector<std::string>& in, const std::string& out,
                        const std::vector<onnx::AttributeProto>& attrs) {
  onnx::NodeProto n = node(op, in, {out}, attrs, "ai.onnx.ml");
  n.set_name(out + "_node");
  return n;
}

// One ml node reading x, its output y.
OneNodeModel ml_model(const std::string& op, int64_t version, const Value& x, const std::vector<onnx::AttributeProto>& attrs) {
  return ml_graph_model(version, {ml_node(op, {"x"}, "y", attrs)}, {{"x", x}}, {"y"});
}

Bounds enclose_y(const OneNodeModel& m, Semantics s) { return enclose_model(m.model, m.feed, s).at("y"); }
Tensor reference_y(const OneNodeModel& m) { return Interpreter(m.model).run(m.feed).at("y").tensor; }

// 1000 float ulps beyond v.
double ml_far_from(double v) { return v + 1000 * std::ldexp(1.0, std::ilogb(v == 0 ? 1.0 : v) - 23); }

// (b), (c) and (d) for every element (undefined elements skipped).
void expect_admissible(const Bounds& admissible, const Bounds& real, const Tensor& ref) {
  ASSERT_EQ(admissible.lo.shape(), ref.shape());
  for (int64_t i = 0; i < ref.size(); ++i) {
    Interval a = bound_at(admissible, i), r = bound_at(real, i);
    if (a.has_nan()) continue;
    EXPECT_TRUE(a.contains(ref.as_double(i)))
        << "element " << i << ": " << ref.as_double(i) << " outside [" << a.lo << ", " << a.hi << "]";
    EXPECT_TRUE(a.lo <= r.lo && r.hi <= a.hi) << "element " << i;
    EXPECT_FALSE(a.contains(ml_far_from(ref.as_double(i)))) << "element " << i;
  }
}

// The float just below the real a·b (a, b floats: the product is exact in double) when a·b is not
// a float itself: an admissible float product's enclosure has it as its lower end.
float float_below_product(float a, float b) {
  double p = static_cast<double>(a) * static_cast<double>(b);
  float t = static_cast<float>(p);
  if (static_cast<double>(t) > p) t = std::nextafter(t, -std::numeric_limits<float>::infinity());
  EXPECT_NE(static_cast<double>(t), p) << "the test needs a product that is not a float";
  return t;
}

// y = Op(a · b) with the attributes `attrs`: a float input whose admissible enclosure is one float
// ulp wide, [t, t + ulp] for t = float_below_product(a, b).
OneNodeModel ml_after_product(const std::string& op, int64_t version, float a, float b,
                              const std::vector<onnx::AttributeProto>& attrs) {
  return ml_graph_model(version, {node("Mul", {"a", "b"}, {"x"}), ml_node(op, {"x"}, "y", attrs)},
                        {{"a", floats({1, 1}, {a})}, {"b", floats({1, 1}, {b})}}, {"y"});
}

// ---- Binarizer ----

TEST(EncloseMl, BinarizerComparesEachElementWithTheThreshold) {
  std::mt19937 rng(11);
  const float threshold = 0.25f;
  std::vector<float> x = uniform_floats(40, rng, -1.0f, 1.0f);
  x[3] = threshold;  // not greater: 0
  x[7] = std::nextafter(threshold, 1.0f);
  x[9] = -std::numeric_limits<float>::infinity();
  x[10] = std::numeric_limits<float>::infinity();
  OneNodeModel m = ml_model("Binarizer", 1, floats({5, 8}, x), {attr_float("threshold", threshold)});
  Bounds real = enclose_y(m, Semantics::Real), admissible = enclose_y(m, Semantics::Admissible);
  for (size_t i = 0; i < x.size(); ++i) {
    double expected = x[i] > threshold ? 1 : 0;
    EXPECT_EQ(bound_at(real, static_cast<int64_t>(i)).lo, expected) << i;
    EXPECT_EQ(bound_at(real, static_cast<int64_t>(i)).hi, expected) << i;
  }
  expect_admissible(admissible, real, reference_y(m));
}

TEST(EncloseMl, BinarizerOfAnUndefinedElementIsUndefined) {
  OneNodeModel m = ml_model("Binarizer", 1, floats({2}, {std::nanf(""), 2.0f}), {});
  Bounds real = enclose_y(m, Semantics::Real);
  EXPECT_TRUE(bound_at(real, 0).has_nan());
  EXPECT_EQ(bound_at(real, 1).lo, 1.0);
}

// The admissible product [t, t + ulp] with t the threshold: both outcomes are possible.
TEST(EncloseMl, BinarizerIsUndeterminedWhereTheBoundsStraddleTheThreshold) {
  const float a = 1.1f, b = 1.3f, t = float_below_product(a, b);
  OneNodeModel m = ml_after_product("Binarizer", 1, a, b, {attr_float("threshold", t)});
  EXPECT_NE(thrown_message<Undetermined>([&] { enclose_y(m, Semantics::Admissible); }).find("threshold"), std::string::npos);
  EXPECT_EQ(bound_at(enclose_y(m, Semantics::Real), 0).lo, 1.0);  // the real product is above t
}

// ---- LabelEncoder ----

const std::vector<float> kKeys = {1.5f, -2.25f, 7.0f, 1.5f};  // 1.5 twice: the last wins
const std::vector<int64_t> kValues = {10, 20, 30, 40};

std::vector<onnx::AttributeProto> float_key_table() {
  return {attr_tensor("keys_tensor", Tensor::from_vector<float>({4}, kKeys)),
          attr_tensor("values_tensor", Tensor::from_vector<int64_t>({4}, kValues)),
          attr_tensor("default_tensor", Tensor::from_vector<int64_t>({1}, {-7}))};
}

TEST(EncloseMl, LabelEncoderLooksUpFloatKeysExactly) {
  const std::vector<float> x = {1.5f, -2.25f, 7.0f, 3.0f, std::nextafter(1.5f, 2.0f), -0.0f};
  OneNodeModel m = ml_model("LabelEncoder", 4, floats({6}, x), float_key_table());
  Bounds admissible = enclose_y(m, Semantics::Admissible);
  ASSERT_TRUE(admissible.exact());
  EXPECT_TRUE(admissible.lo == Tensor::from_vector<int64_t>({6}, {40, 20, 30, -7, -7, -7}));
  EXPECT_TRUE(admissible.lo == reference_y(m));
}

TEST(EncloseMl, LabelEncoderIsUndeterminedWhereTheBoundsHoldAKey) {
  const float a = 1.1f, b = 1.3f, t = float_below_product(a, b);
  std::vector<onnx::AttributeProto> attrs = {attr_tensor("keys_tensor", Tensor::from_vector<float>({1}, {t})),
                                             attr_tensor("values_tensor", Tensor::from_vector<int64_t>({1}, {1}))};
  OneNodeModel m = ml_after_product("LabelEncoder", 4, a, b, attrs);
  EXPECT_NE(thrown_message<Undetermined>([&] { enclose_y(m, Semantics::Admissible); }).find("holds the key"), std::string::npos);
  // The real product is not the key t: the default, decided.
  EXPECT_TRUE(enclose_y(m, Semantics::Real).lo == Tensor::from_vector<int64_t>({1, 1}, {-1}));
}

TEST(EncloseMl, LabelEncoderOfStringsIsTheReferences) {
  std::vector<onnx::AttributeProto> attrs = {sonnx::testing::attr_strings("keys_strings", {"a", "b"}),
                                             attr_ints("values_int64s", {5, 6})};
  OneNodeModel m = ml_model("LabelEncoder", 2, Value(Tensor::from_vector<std::string>({3}, {"b", "z", "a"})), attrs);
  Bounds y = enclose_y(m, Semantics::Admissible);
  EXPECT_TRUE(y.lo == Tensor::from_vector<int64_t>({3}, {6, -1, 5}));
}

// ---- ArrayFeatureExtractor ----

TEST(EncloseMl, ArrayFeatureExtractorMovesTheChosenColumns) {
  std::mt19937 rng(5);
  std::vector<float> x = wide_floats(12, rng);
  OneNodeModel m = ml_graph_model(1, {ml_node("ArrayFeatureExtractor", {"x", "i"}, "y", {})},
                                  {{"x", floats({3, 4}, x)}, {"i", Value(Tensor::from_vector<int64_t>({2}, {3, 0}))}}, {"y"});
  Bounds real = enclose_y(m, Semantics::Real);
  ASSERT_EQ(real.lo.shape(), (Shape{3, 2}));
  for (int64_t r = 0; r < 3; ++r)
    for (int64_t j = 0; j < 2; ++j) {
      double v = x[static_cast<size_t>(r * 4 + (j == 0 ? 3 : 0))];
      EXPECT_EQ(bound_at(real, r * 2 + j).lo, v);
      EXPECT_EQ(bound_at(real, r * 2 + j).hi, v);
    }
  expect_admissible(enclose_y(m, Semantics::Admissible), real, reference_y(m));
}

// ---- TreeEnsemble ----

// Two trees over X [N, 2], two targets:
//   tree 0 (root 0): x0 <= 0.5 ? leaf 0 (target 0, 1.25) : node 1: x1 < -0.25 ? leaf 1 (target 1, 2.5)
//                                                                          : leaf 2 (target 0, -0.75)
//   tree 1 (root 2): x1 >= 0 ? leaf 3 (target 1, 0.1) : leaf 4 (target 0, 3.3)
const std::vector<float> kLeafWeights = {1.25f, 2.5f, -0.75f, 0.1f, 3.3f};
const std::vector<float> kSplits = {0.5f, -0.25f, 0.0f};

std::vector<onnx::AttributeProto> two_trees(int64_t aggregate, int64_t post_transform) {
  return {attr_int("n_targets", 2),
          attr_int("aggregate_function", aggregate),
          attr_int("post_transform", post_transform),
          attr_ints("tree_roots", {0, 2}),
          attr_ints("nodes_featureids", {0, 1, 1}),
          attr_tensor("nodes_modes", Tensor::from_vector<uint8_t>({3}, {0, 1, 2})),
          attr_tensor("nodes_splits", Tensor::from_vector<float>({3}, kSplits)),
          attr_ints("nodes_truenodeids", {0, 1, 3}),
          attr_ints("nodes_trueleafs", {1, 1, 1}),
          attr_ints("nodes_falsenodeids", {1, 2, 4}),
          attr_ints("nodes_falseleafs", {0, 1, 1}),
          attr_ints("leaf_targetids", {0, 1, 0, 1, 0}),
          attr_tensor("leaf_weights", Tensor::from_vector<float>({5}, kLeafWeights))};
}

// The leaves row (x0, x1) reaches, by hand from the trees above.
std::vector<size_t> two_tree_leaves(double x0, double x1) {
  size_t first = x0 <= 0.5 ? 0 : x1 < -0.25 ? 1 : 2;
  size_t second = x1 >= 0 ? 3 : 4;
  return {first, second};
}
const int64_t kLeafTarget[5] = {0, 1, 0, 1, 0};

std::vector<float> tree_rows(std::mt19937& rng) {
  std::vector<float> x = uniform_floats(16, rng, -1.0f, 1.0f);
  x[0] = 0.5f;    // on the split of node 0: x0 <= 0.5 holds
  x[3] = -0.25f;  // on the split of node 1: not < -0.25
  x[5] = 0.0f;    // on the split of node 2: >= 0 holds
  return x;
}

TEST(EncloseMl, TreeEnsembleSumsAndAveragesTheLeavesEachRowReaches) {
  std::mt19937 rng(3);
  std::vector<float> x = tree_rows(rng);
  for (int64_t aggregate : {1, 0}) {  // SUM, AVERAGE
    SCOPED_TRACE(aggregate == 1 ? "SUM" : "AVERAGE");
    OneNodeModel m = ml_model("TreeEnsemble", 5, floats({8, 2}, x), two_trees(aggregate, 0));
    Bounds real = enclose_y(m, Semantics::Real);
    ASSERT_EQ(real.lo.shape(), (Shape{8, 2}));
    for (int64_t r = 0; r < 8; ++r) {
      Exact score[2];
      for (size_t l : two_tree_leaves(x[static_cast<size_t>(2 * r)], x[static_cast<size_t>(2 * r + 1)]))
        score[kLeafTarget[l]].add_product(kLeafWeights[l], aggregate == 0 ? 0.5 : 1.0);  // the average of two trees
      for (int64_t k = 0; k < 2; ++k) EXPECT_TRUE(score[k].inside(bound_at(real, r * 2 + k))) << "row " << r << " target " << k;
    }
    expect_admissible(enclose_y(m, Semantics::Admissible), real, reference_y(m));
  }
}

// MIN and MAX: the weight itself; a target no leaf reaches has no value the spec gives.
TEST(EncloseMl, TreeEnsembleMinAndMaxAreExactAndUnreachedTargetsUndefined) {
  const std::vector<float> x = {0.0f, 0.5f, 0.0f, -0.5f};  // row 0: leaves 0, 3; row 1: leaves 0, 4
  for (int64_t aggregate : {2, 3}) {
    OneNodeModel m = ml_model("TreeEnsemble", 5, floats({2, 2}, x), two_trees(aggregate, 0));
    Bounds real = enclose_y(m, Semantics::Real);
    EXPECT_EQ(bound_at(real, 0).lo, 1.25);
    EXPECT_EQ(bound_at(real, 1).hi, static_cast<double>(0.1f));
    double both = aggregate == 2 ? 1.25 : static_cast<double>(3.3f);  // row 1, target 0: leaves 0 and 4
    EXPECT_EQ(bound_at(real, 2).lo, both);
    EXPECT_EQ(bound_at(real, 2).hi, both);
    EXPECT_TRUE(bound_at(real, 3).has_nan());  // row 1 reaches no leaf of target 1
    expect_admissible(enclose_y(m, Semantics::Admissible), real, reference_y(m));
  }
}

// Exact 1 / (1 + e^-s) of the exact score s (a sum of floats), at 200 bits.
double logistic_of_exact_sum(const std::vector<double>& terms, mpfr_rnd_t rnd) {
  Exact s(0, 200);
  for (double t : terms) mpfr_add_d(s.get(), s.get(), t, MPFR_RNDN);  // exact: a few floats
  mpfr_neg(s.get(), s.get(), MPFR_RNDN);
  mpfr_exp(s.get(), s.get(), MPFR_RNDN);
  mpfr_add_ui(s.get(), s.get(), 1, MPFR_RNDN);
  mpfr_ui_div(s.get(), 1, s.get(), MPFR_RNDN);
  return mpfr_get_d(s.get(), rnd);
}

TEST(EncloseMl, TreeEnsembleLogisticAndSoftmaxPostTransforms) {
  std::mt19937 rng(8);
  std::vector<float> x = tree_rows(rng);
  OneNodeModel logistic = ml_model("TreeEnsemble", 5, floats({8, 2}, x), two_trees(1, 2));
  Bounds real = enclose_y(logistic, Semantics::Real);
  for (int64_t r = 0; r < 8; ++r) {
    std::vector<double> terms[2];
    for (size_t l : two_tree_leaves(x[static_cast<size_t>(2 * r)], x[static_cast<size_t>(2 * r + 1)]))
      terms[kLeafTarget[l]].push_back(kLeafWeights[l]);
    for (int64_t k = 0; k < 2; ++k) {
      Interval v = bound_at(real, r * 2 + k);
      // The 200-bit value rounded down and up brackets the exact one.
      EXPECT_LE(v.lo, logistic_of_exact_sum(terms[k], MPFR_RNDD)) << "row " << r;
      EXPECT_GE(v.hi, logistic_of_exact_sum(terms[k], MPFR_RNDU)) << "row " << r;
    }
  }
  expect_admissible(enclose_y(logistic, Semantics::Admissible), real, reference_y(logistic));

  OneNodeModel softmax = ml_model("TreeEnsemble", 5, floats({8, 2}, x), two_trees(1, 1));
  Bounds sreal = enclose_y(softmax, Semantics::Real);
  for (int64_t r = 0; r < 8; ++r) {  // two shares: the logistic of the difference of the scores
    std::vector<double> terms[2];
    for (size_t l : two_tree_leaves(x[static_cast<size_t>(2 * r)], x[static_cast<size_t>(2 * r + 1)]))
      terms[kLeafTarget[l]].push_back(kLeafWeights[l]);
    std::vector<double> diff = terms[0];
    for (double t : terms[1]) diff.push_back(-t);
    Interval v = bound_at(sreal, r * 2);
    EXPECT_LE(v.lo, logistic_of_exact_sum(diff, MPFR_RNDD)) << "row " << r;
    EXPECT_GE(v.hi, logistic_of_exact_sum(diff, MPFR_RNDU)) << "row " << r;
  }
  expect_admissible(enclose_y(softmax, Semantics::Admissible), sreal, reference_y(softmax));
}

TEST(EncloseMl, TreeEnsembleRowWithAnUndefinedFeatureIsUndefined) {
  OneNodeModel m = ml_model("TreeEnsemble", 5, floats({2, 2}, {std::nanf(""), 0.5f, 0.0f, 0.5f}), two_trees(1, 0));
  Bounds real = enclose_y(m, Semantics::Real);
  EXPECT_TRUE(bound_at(real, 0).has_nan());
  EXPECT_TRUE(bound_at(real, 1).has_nan());
  EXPECT_TRUE(bound_at(real, 2).contains(1.25));  // row 1: leaves 0 and 3, a sum of one term
  EXPECT_TRUE(bound_at(real, 3).contains(static_cast<double>(0.1f)));
}

// Node 0's split is the float just below the admissible product: the bounds take both branches.
TEST(EncloseMl, TreeEnsembleIsUndeterminedWhereTheBoundsStraddleASplit) {
  const float a = 1.1f, b = 1.3f, t = float_below_product(a, b);
  std::vector<onnx::AttributeProto> attrs = {attr_int("n_targets", 1),
                                             attr_ints("tree_roots", {0}),
                                             attr_ints("nodes_featureids", {0}),
                                             attr_tensor("nodes_modes", Tensor::from_vector<uint8_t>({1}, {0})),
                                             attr_tensor("nodes_splits", Tensor::from_vector<float>({1}, {t})),
                                             attr_ints("nodes_truenodeids", {0}),
                                             attr_ints("nodes_trueleafs", {1}),
                                             attr_ints("nodes_falsenodeids", {1}),
                                             attr_ints("nodes_falseleafs", {1}),
                                             attr_ints("leaf_targetids", {0, 0}),
                                             attr_tensor("leaf_weights", Tensor::from_vector<float>({2}, {1.0f, 2.0f}))};
  OneNodeModel m = ml_after_product("TreeEnsemble", 5, a, b, attrs);
  EXPECT_NE(thrown_message<Undetermined>([&] { enclose_y(m, Semantics::Admissible); }).find("allows both branches"),
            std::string::npos);
  Interval real = bound_at(enclose_y(m, Semantics::Real), 0);  // the real product is above the split: leaf 2
  EXPECT_TRUE(real.contains(2.0));
  EXPECT_FALSE(real.contains(1.0));
}

// PROBIT on the trees' scores (SUM): row (0, 0) reaches leaves 0 and 3, scores (1.25, 0.1); row
// (0.75, 0.5) leaves 2 and 3, scores (−0.75, 0.1). 1.25 and −0.75 have no real quantile (the
// reference's NaN): undefined; Φ⁻¹(0.1) = −1.2815515655446004 is held.
TEST(EncloseMl, TreeEnsembleProbitHoldsTheQuantileOrIsUndefinedOutsideZeroOne) {
  OneNodeModel m = ml_model("TreeEnsemble", 5, floats({2, 2}, {0.0f, 0.0f, 0.75f, 0.5f}), two_trees(1, 4));
  const Bounds admissible = enclose_y(m, Semantics::Admissible);
  const Tensor ref = reference_y(m);
  for (int64_t i : {0, 2}) {
    EXPECT_TRUE(std::isnan(ref.as_double(i))) << "element " << i;
    EXPECT_TRUE(bound_at(admissible, i).has_nan()) << "element " << i;
  }
  for (int64_t i : {1, 3}) {
    EXPECT_TRUE(bound_at(admissible, i).contains(ref.as_double(i))) << "element " << i;
    EXPECT_NEAR(ref.as_double(i), -1.2815515655446004, 1e-6);
    EXPECT_FALSE(bound_at(admissible, i).contains(ml_far_from(ref.as_double(i))));
  }
}

}  // namespace
}  // namespace sonnx::enclose
