// Enclosures of the ai.onnx.ml predictors and encoders (enclose/enclose_ml_linear.cpp,
// enclose_ml_svm.cpp, enclose_ml_scaling.cpp, enclose_ml_tree_votes.cpp, enclose_ml.cpp;
// spec/accuracy.md, "The ai.onnx.ml operators"): LinearRegressor, LinearClassifier, Scaler,
// Normalizer, Imputer, OneHotEncoder, CategoryMapper, FeatureVectorizer, SVMRegressor,
// SVMClassifier, TreeEnsembleRegressor and TreeEnsembleClassifier. Expected values are derived
// here: sums, products and quotients exactly through MPFR, exp, tanh, the logistic function and
// square roots at 256 bits (or more), the comparisons, table lookups and tree paths by hand.
// Checked: (a) the exact value lies in the real enclosure, (b) the reference's output in the
// admissible one, (c) admissible ⊇ real, (d) a value 1000 float ulps off the reference lies
// outside (on data whose sums do not cancel); labels and other integer or string outputs equal the
// hand-derived ones; where a score tie or a comparison at a threshold leaves a label or a decision
// open, the enclosure is Undetermined.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "enclose/ml_svm_coupling.h"
#include "enclose_test_util.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_float;
using sonnx::testing::attr_floats;
using sonnx::testing::attr_int;
using sonnx::testing::attr_ints;
using sonnx::testing::attr_string;
using sonnx::testing::attr_strings;
using sonnx::testing::node;
using sonnx::testing::vi;

constexpr int64_t kMlencDefaultOpset = 19;
constexpr int64_t kMlencOpset = 3;  // ai.onnx.ml: version 1 of the predictors, 3 of the tree ensembles

using MlencInputs = std::vector<std::pair<std::string, Value>>;

// A model of `nodes` importing ai.onnx at 19 and ai.onnx.ml at `ml_opset`, its inputs `inputs`.
OneNodeModel mlenc_graph(int64_t ml_opset, const std::vector<onnx::NodeProto>& nodes, const MlencInputs& inputs,
                         const std::vector<std::string>& outputs) {
  std::vector<onnx::ValueInfoProto> ins, outs;
  NamedValues feed;
  for (const auto& [name, v] : inputs) {
    ins.push_back(vi(name));
    feed[name] = v;
  }
  for (const auto& name : outputs) outs.push_back(vi(name));
  onnx::ModelProto m;
  m.set_ir_version(8);
  for (auto [domain, version] : {std::pair<std::string, int64_t>{"", kMlencDefaultOpset}, {"ai.onnx.ml", ml_opset}}) {
    auto* imp = m.add_opset_import();
    imp->set_domain(domain);
    imp->set_version(version);
  }
  *m.mutable_graph() = sonnx::testing::graph("g", nodes, ins, outs);
  return {model_from_proto(m, {}), std::move(feed)};
}

onnx::NodeProto mlenc_node(const std::string& op, const std::vector<std::string>& in, const std::vector<std::string>& out,
                           const std::vector<onnx::AttributeProto>& attrs) {
  onnx::NodeProto n = node(op, in, out, attrs, "ai.onnx.ml");
  n.set_name(out[0] + "_node");
  return n;
}

// One ml node of `op` reading `inputs` (in order), its outputs `outputs`.
OneNodeModel mlenc_model(const std::string& op, const MlencInputs& inputs, const std::vector<onnx::AttributeProto>& attrs,
                         const std::vector<std::string>& outputs = {"y"}, int64_t ml_opset = kMlencOpset) {
  std::vector<std::string> names;
  for (const auto& [name, v] : inputs) names.push_back(name);
  return mlenc_graph(ml_opset, {mlenc_node(op, names, outputs, attrs)}, inputs, outputs);
}

// y = Op(a · b): a float input whose admissible enclosure is one float ulp wide around the product.
OneNodeModel mlenc_after_product(const std::string& op, float a, float b, const std::vector<onnx::AttributeProto>& attrs,
                                 const std::vector<std::string>& outputs = {"y"}) {
  return mlenc_graph(kMlencOpset, {node("Mul", {"a", "b"}, {"x"}), mlenc_node(op, {"x"}, outputs, attrs)},
                     {{"a", floats({1, 1}, {a})}, {"b", floats({1, 1}, {b})}}, outputs);
}

Bounds mlenc_enclose(const OneNodeModel& m, Semantics s, const std::string& name = "y") {
  return enclose_model(m.model, m.feed, s).at(name);
}
Tensor mlenc_reference(const OneNodeModel& m, const std::string& name = "y") {
  return Interpreter(m.model).run(m.feed).at(name).tensor;
}

// 1000 float ulps beyond v.
double mlenc_far(double v) { return v + 1000 * float_ulp(v); }

// (b), (c) and (d) for every element (undefined elements skipped).
void mlenc_expect_admissible(const Bounds& admissible, const Bounds& real, const Tensor& ref) {
  ASSERT_EQ(admissible.lo.shape(), ref.shape());
  for (int64_t i = 0; i < ref.size(); ++i) {
    const Interval a = bound_at(admissible, i), r = bound_at(real, i);
    if (a.has_nan()) continue;
    const double v = ref.as_double(i);
    EXPECT_TRUE(a.contains(v)) << "element " << i << ": " << v << " outside [" << a.lo << ", " << a.hi << "]";
    EXPECT_TRUE(!r.has_nan() && a.lo <= r.lo && r.hi <= a.hi) << "element " << i;
    EXPECT_FALSE(a.contains(mlenc_far(v))) << "element " << i << ": [" << a.lo << ", " << a.hi << "]";
  }
}

// Whether the interval holds v: its doubles below and above v are inside.
template <mpfr_prec_t Bits>
bool mlenc_holds(Interval i, const RealAt<Bits>& v) {
  return !i.has_nan() && i.lo <= mpfr_get_d(v.get(), MPFR_RNDD) && mpfr_get_d(v.get(), MPFR_RNDU) <= i.hi;
}

// v at 256 bits (for an elementary function of an exact sum).
Real256 mlenc_narrow(const Real& v) {
  Real256 r;
  mpfr_set(r.get(), v.get(), MPFR_RNDN);
  return r;
}

Real256 mlenc_logistic(const Real256& s) { return Real256(1) / (Real256(1) + (-s).exp()); }

// Σ a_i·b_i + c, exactly.
Real mlenc_dot(const std::vector<double>& a, const std::vector<double>& b, double c = 0) {
  Real s(c);
  for (size_t i = 0; i < a.size(); ++i) s = s + Real(a[i]) * Real(b[i]);
  return s;
}

// The float just below the real a·b (a, b floats: the product is exact in double), which must not
// be a float itself: the lower end of an admissible float product's enclosure.
float mlenc_float_below_product(float a, float b) {
  const double p = static_cast<double>(a) * static_cast<double>(b);
  float t = static_cast<float>(p);
  if (static_cast<double>(t) > p) t = std::nextafter(t, -std::numeric_limits<float>::infinity());
  EXPECT_NE(static_cast<double>(t), p) << "the test needs a product that is not a float";
  return t;
}

// The expected scores of row r of x [N, cols] against `rows` coefficient rows (+ intercepts).
std::vector<Real> mlenc_linear_scores(const std::vector<float>& x, int64_t r, int64_t cols, const std::vector<float>& coef,
                                      const std::vector<float>& intercepts) {
  std::vector<Real> s;
  const auto rows = static_cast<int64_t>(coef.size()) / cols;
  const std::vector<double> row(x.begin() + r * cols, x.begin() + (r + 1) * cols);
  for (int64_t k = 0; k < rows; ++k) {
    const std::vector<double> c(coef.begin() + k * cols, coef.begin() + (k + 1) * cols);
    s.push_back(mlenc_dot(row, c, intercepts.empty() ? 0.0 : intercepts[static_cast<size_t>(k)]));
  }
  return s;
}

// The softmax share of element k of the scores, at 256 bits.
Real256 mlenc_softmax_share(const std::vector<Real>& s, size_t k) {
  Real256 sum(0);
  for (const Real& v : s) sum = sum + mlenc_narrow(v - s[k]).exp();
  return Real256(1) / sum;
}

// The index of the first largest of exact values.
template <class R>
int64_t mlenc_first_max(const std::vector<R>& v) {
  size_t best = 0;
  for (size_t k = 1; k < v.size(); ++k)
    if (v[k] > v[best]) best = k;
  return static_cast<int64_t>(best);
}

// ---- LinearRegressor ----

TEST(EncloseMlModels, LinearRegressorEnclosesTheDotProductAndEachPostTransform) {
  std::mt19937 rng(21);
  const std::vector<float> x = uniform_floats(12, rng, 0.25f, 2.0f), coef = uniform_floats(6, rng, 0.25f, 2.0f);
  const std::vector<float> intercepts = {0.5f, 1.5f};
  for (const std::string& post : std::vector<std::string>{"NONE", "LOGISTIC", "SOFTMAX"}) {
    SCOPED_TRACE(post);
    OneNodeModel m = mlenc_model("LinearRegressor", {{"x", floats({4, 3}, x)}},
                                 {attr_floats("coefficients", coef), attr_floats("intercepts", intercepts),
                                  attr_int("targets", 2), attr_string("post_transform", post)});
    const Bounds real = mlenc_enclose(m, Semantics::Real);
    ASSERT_EQ(real.lo.shape(), (Shape{4, 2}));
    for (int64_t r = 0; r < 4; ++r) {
      const std::vector<Real> s = mlenc_linear_scores(x, r, 3, coef, intercepts);
      for (size_t t = 0; t < 2; ++t) {
        const Interval v = bound_at(real, r * 2 + static_cast<int64_t>(t));
        const bool holds = post == "NONE"       ? mlenc_holds(v, s[t])
                           : post == "LOGISTIC" ? mlenc_holds(v, mlenc_logistic(mlenc_narrow(s[t])))
                                                : mlenc_holds(v, mlenc_softmax_share(s, t));
        EXPECT_TRUE(holds) << "row " << r << " target " << t;
      }
    }
    mlenc_expect_admissible(mlenc_enclose(m, Semantics::Admissible), real, mlenc_reference(m));
  }
}

// Integer X: the scores are reals the reference rounds, not values it defines. 3·0.1f + 7·0.2f is
// 228170141·2^-27, which needs 28 bits: the float the reference returns is not the real value.
TEST(EncloseMlModels, LinearRegressorOnIntegerFeaturesEnclosesTheRealSum) {
  OneNodeModel m = mlenc_model("LinearRegressor", {{"x", Value(Tensor::from_vector<int64_t>({1, 2}, {3, 7}))}},
                               {attr_floats("coefficients", {0.1f, 0.2f})});
  const Real exact = mlenc_dot({3, 7}, {0.1f, 0.2f});
  const Tensor ref = mlenc_reference(m);
  ASSERT_NE(mpfr_cmp_d(exact.get(), ref.as_double(0)), 0);
  const Bounds real = mlenc_enclose(m, Semantics::Real);
  EXPECT_TRUE(mlenc_holds(bound_at(real, 0), exact));
  EXPECT_FALSE(bound_at(real, 0).contains(ref.as_double(0)));
  mlenc_expect_admissible(mlenc_enclose(m, Semantics::Admissible), real, ref);
}

// Φ⁻¹(p) at 256 bits: the x with Φ(x) = erfc(−x/√2)/2 = p, by bisection on [−40, 40].
Real256 mlenc_probit(double p) {
  Real256 lo(-40), hi(40);
  const Real256 root2 = Real256(2).sqrt();
  for (int i = 0; i < 300; ++i) {
    const Real256 mid = (lo + hi) / Real256(2);
    Real256 t = -mid / root2;
    mpfr_erfc(t.get(), t.get(), MPFR_RNDN);
    if (t / Real256(2) < Real256(p)) lo = mid;
    else hi = mid;
  }
  return lo;
}

// PROBIT on the score 1·x: the tails (where 2p − 1 would lose the digits of p) and the middle.
// Under the admissible semantics the score 1 − 2^−24 may round past 1: undefined there.
TEST(EncloseMlModels, LinearRegressorProbitIsTheNormalQuantile) {
  const std::vector<float> x = {1e-30f, 3e-8f, 0.025f, 0.3f, 0.6f, 0.975f, 1 - 0x1p-24f};
  OneNodeModel m = mlenc_model("LinearRegressor", {{"x", floats({7, 1}, x)}},
                               {attr_floats("coefficients", {1.0f}), attr_string("post_transform", "PROBIT")});
  const Bounds real = mlenc_enclose(m, Semantics::Real);
  for (size_t i = 0; i < x.size(); ++i)
    EXPECT_TRUE(mlenc_holds(bound_at(real, static_cast<int64_t>(i)), mlenc_probit(x[i]))) << "p = " << x[i];
  mlenc_expect_admissible(mlenc_enclose(m, Semantics::Admissible), real, mlenc_reference(m));
}

// Φ⁻¹(0) = −∞, the limit (the score 1·0 is exactly 0); a score outside [0, 1] has no quantile:
// undefined.
TEST(EncloseMlModels, LinearRegressorProbitAtAndBeyondTheEnds) {
  OneNodeModel m = mlenc_model("LinearRegressor", {{"x", floats({2, 1}, {0.0f, 1.5f})}},
                               {attr_floats("coefficients", {1.0f}), attr_string("post_transform", "PROBIT")});
  const Bounds real = mlenc_enclose(m, Semantics::Real);
  constexpr double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(bound_at(real, 0).lo, -inf);
  EXPECT_EQ(bound_at(real, 0).hi, -inf);
  EXPECT_TRUE(bound_at(real, 1).has_nan());
}

// SOFTMAX_ZERO: target 1's coefficients and intercept are 0, so its score is exactly 0 and its
// share 0; targets 0 and 2 share a softmax between them alone. Row 1 is all zeros: 0.5 everywhere.
TEST(EncloseMlModels, LinearRegressorSoftmaxZeroLeavesExactZerosOut) {
  const std::vector<float> x = {0.75f, 1.5f, 0, 0};
  const std::vector<float> coef = {1.25f, -0.5f, 0, 0, 0.5f, 2.0f};
  OneNodeModel m = mlenc_model("LinearRegressor", {{"x", floats({2, 2}, x)}},
                               {attr_floats("coefficients", coef), attr_int("targets", 3),
                                attr_string("post_transform", "SOFTMAX_ZERO")});
  const Bounds real = mlenc_enclose(m, Semantics::Real);
  const std::vector<Real> s = mlenc_linear_scores(x, 0, 2, coef, {});  // 0.1875, 0, 3.375
  const std::vector<Real> kept = {s[0], s[2]};
  EXPECT_TRUE(mlenc_holds(bound_at(real, 0), mlenc_softmax_share(kept, 0)));
  EXPECT_EQ(bound_at(real, 1).lo, 0.0);
  EXPECT_EQ(bound_at(real, 1).hi, 0.0);
  EXPECT_TRUE(mlenc_holds(bound_at(real, 2), mlenc_softmax_share(kept, 1)));
  // A softmax over all three would give target 0 a smaller share: 1/(1 + e^-0.1875 + e^3.1875).
  EXPECT_FALSE(mlenc_holds(bound_at(real, 0), mlenc_softmax_share(s, 0)));
  for (int64_t k = 3; k < 6; ++k) {
    EXPECT_EQ(bound_at(real, k).lo, 0.5);
    EXPECT_EQ(bound_at(real, k).hi, 0.5);
  }
  mlenc_expect_admissible(mlenc_enclose(m, Semantics::Admissible), real, mlenc_reference(m));
}

// A score whose bounds hold 0 and other values leaves SOFTMAX_ZERO's set open: 0.1·3 − 0.3 is not
// 0 in reals (0.1f and 0.3f are not tenths), but its admissible rounding error reaches across 0.
TEST(EncloseMlModels, LinearRegressorSoftmaxZeroOfAScoreThatMayBeZeroIsUndetermined) {
  OneNodeModel m = mlenc_model("LinearRegressor", {{"x", floats({1, 2}, {3, 1})}},
                               {attr_floats("coefficients", {1, 1, 0.1f, -0.3f}), attr_int("targets", 2),
                                attr_floats("intercepts", {0, 0}), attr_string("post_transform", "SOFTMAX_ZERO")});
  EXPECT_NE(thrown_message<Undetermined>([&] { mlenc_enclose(m, Semantics::Admissible); }).find("whether score 1 is zero"),
            std::string::npos);
}

// ---- LinearClassifier ----

TEST(EncloseMlModels, LinearClassifierLabelsAreTheFirstLargestScore) {
  std::mt19937 rng(22);
  const std::vector<float> x = uniform_floats(10, rng, 0.25f, 2.0f), coef = uniform_floats(6, rng, 0.25f, 2.0f);
  const std::vector<float> intercepts = {0.25f, -0.5f, 0.75f};
  for (const std::string& post : std::vector<std::string>{"NONE", "SOFTMAX"}) {
    SCOPED_TRACE(post);
    OneNodeModel m = mlenc_model("LinearClassifier", {{"x", floats({5, 2}, x)}},
                                 {attr_floats("coefficients", coef), attr_floats("intercepts", intercepts),
                                  attr_ints("classlabels_ints", {10, 20, 30}), attr_string("post_transform", post)},
                                 {"y", "z"});
    const Bounds label = mlenc_enclose(m, Semantics::Admissible, "y"), real = mlenc_enclose(m, Semantics::Real, "z");
    std::vector<int64_t> expected;
    for (int64_t r = 0; r < 5; ++r) {
      const std::vector<Real> s = mlenc_linear_scores(x, r, 2, coef, intercepts);
      expected.push_back(10 * (1 + mlenc_first_max(s)));
      for (size_t k = 0; k < 3; ++k) {
        const Interval v = bound_at(real, r * 3 + static_cast<int64_t>(k));
        EXPECT_TRUE(post == "NONE" ? mlenc_holds(v, s[k]) : mlenc_holds(v, mlenc_softmax_share(s, k))) << "row " << r;
      }
    }
    ASSERT_TRUE(label.exact());
    EXPECT_TRUE(label.lo == Tensor::from_vector<int64_t>({5}, expected));
    EXPECT_TRUE(label.lo == mlenc_reference(m, "y"));
    EXPECT_TRUE(mlenc_enclose(m, Semantics::Real, "y").lo == label.lo);
    mlenc_expect_admissible(mlenc_enclose(m, Semantics::Admissible, "z"), real, mlenc_reference(m, "z"));
  }
}

// One coefficient row between two labels: the second where s > 0; Z is [σ(-s), σ(s)] under LOGISTIC.
TEST(EncloseMlModels, LinearClassifierBinaryRowPicksBySign) {
  const std::vector<float> x = {1.5f, -0.25f, -2.0f, 0.75f, 0.5f, 0.5f, -1.0f, -1.25f};
  const std::vector<float> coef = {0.75f, 1.25f};
  OneNodeModel m = mlenc_model("LinearClassifier", {{"x", floats({4, 2}, x)}},
                               {attr_floats("coefficients", coef), attr_floats("intercepts", {0.125f}),
                                attr_strings("classlabels_strings", {"neg", "pos"}), attr_string("post_transform", "LOGISTIC")},
                               {"y", "z"});
  const Bounds real = mlenc_enclose(m, Semantics::Real, "z");
  std::vector<std::string> expected;
  for (int64_t r = 0; r < 4; ++r) {
    const Real s = mlenc_linear_scores(x, r, 2, coef, {0.125f})[0];
    expected.push_back(s > Real(0) ? "pos" : "neg");
    EXPECT_TRUE(mlenc_holds(bound_at(real, r * 2), mlenc_logistic(-mlenc_narrow(s)))) << "row " << r;
    EXPECT_TRUE(mlenc_holds(bound_at(real, r * 2 + 1), mlenc_logistic(mlenc_narrow(s)))) << "row " << r;
  }
  const Bounds label = mlenc_enclose(m, Semantics::Admissible, "y");
  EXPECT_TRUE(label.lo == Tensor::from_vector<std::string>({4}, expected));
  EXPECT_TRUE(label.lo == mlenc_reference(m, "y"));
  mlenc_expect_admissible(mlenc_enclose(m, Semantics::Admissible, "z"), real, mlenc_reference(m, "z"));
}

// Two equal coefficient rows tie exactly; a binary score exactly 0 sits on the threshold. A sum's
// enclosure is never a point, so neither label is decided, under either semantics.
TEST(EncloseMlModels, LinearClassifierTiesAndZeroScoresAreUndetermined) {
  OneNodeModel tie = mlenc_model("LinearClassifier", {{"x", floats({1, 2}, {1.0f, 2.0f})}},
                                 {attr_floats("coefficients", {0.5f, 0.25f, 0.5f, 0.25f, 0.0f, 0.125f}),
                                  attr_ints("classlabels_ints", {1, 2, 3})},
                                 {"y", "z"});
  for (Semantics s : {Semantics::Real, Semantics::Admissible})
    EXPECT_NE(thrown_message<Undetermined>([&] { mlenc_enclose(tie, s, "y"); }).find("its label of row 0"), std::string::npos);
  OneNodeModel zero = mlenc_model("LinearClassifier", {{"x", floats({1, 2}, {1.0f, 1.0f})}},
                                  {attr_floats("coefficients", {0.5f, -0.5f}), attr_ints("classlabels_ints", {0, 1})},
                                  {"y", "z"});
  EXPECT_NE(thrown_message<Undetermined>([&] { mlenc_enclose(zero, Semantics::Real, "y"); }).find("lies on both sides of 0"),
            std::string::npos);
}

// ---- Scaler ----

TEST(EncloseMlModels, ScalerSubtractsTheOffsetThenScales) {
  std::mt19937 rng(23);
  std::vector<float> x = uniform_floats(12, rng, -2.0f, 2.0f);
  const std::vector<float> offset = {0.5f, -1.25f, 0.1f, 3.0f}, scale = {2.0f, 0.3f, -1.7f, 0.01f};
  x[2] = offset[2];  // (x - offset) exactly 0
  OneNodeModel m = mlenc_model("Scaler", {{"x", floats({3, 4}, x)}},
                               {attr_floats("offset", offset), attr_floats("scale", scale)});
  const Bounds real = mlenc_enclose(m, Semantics::Real);
  for (int64_t i = 0; i < 12; ++i) {
    const size_t f = static_cast<size_t>(i % 4);
    const Real exact = (Real(x[static_cast<size_t>(i)]) - Real(offset[f])) * Real(scale[f]);
    EXPECT_TRUE(mlenc_holds(bound_at(real, i), exact)) << i;
  }
  EXPECT_EQ(bound_at(real, 2).lo, 0.0);
  EXPECT_EQ(bound_at(real, 2).hi, 0.0);
  mlenc_expect_admissible(mlenc_enclose(m, Semantics::Admissible), real, mlenc_reference(m));
}

TEST(EncloseMlModels, ScalerOfIntegersWithOneOffsetForAll) {
  const std::vector<int32_t> x = {3, -7, 100, 16777217};  // the last is no float
  OneNodeModel m = mlenc_model("Scaler", {{"x", Value(Tensor::from_vector<int32_t>({4}, x))}},
                               {attr_floats("offset", {0.3f}), attr_floats("scale", {1.1f})});
  const Bounds real = mlenc_enclose(m, Semantics::Real);
  for (int64_t i = 0; i < 4; ++i)
    EXPECT_TRUE(mlenc_holds(bound_at(real, i), (Real(x[static_cast<size_t>(i)]) - Real(0.3f)) * Real(1.1f))) << i;
  mlenc_expect_admissible(mlenc_enclose(m, Semantics::Admissible), real, mlenc_reference(m));
}

// ---- Normalizer ----

// Rows: random; all zeros (left as it is); all negative (MAX divides by a negative maximum); one
// zero element among others.
const std::vector<float> kMlencNormRows = {0.75f, -1.5f, 0.3f, 0.0f, 0.0f, 0.0f, -1.0f, -3.0f, -0.5f, 5.0f, 0.0f, -2.0f};

TEST(EncloseMlModels, NormalizerDividesEachRowByItsNorm) {
  const std::vector<float>& x = kMlencNormRows;
  for (const std::string& norm : std::vector<std::string>{"MAX", "L1", "L2"}) {
    SCOPED_TRACE(norm);
    OneNodeModel m = mlenc_model("Normalizer", {{"x", floats({4, 3}, x)}}, {attr_string("norm", norm)});
    const Bounds real = mlenc_enclose(m, Semantics::Real);
    for (int64_t r = 0; r < 4; ++r) {
      Real d = norm == "MAX" ? Real(x[static_cast<size_t>(r * 3)]) : Real(0);
      for (int64_t k = 0; k < 3; ++k) {
        const Real v(x[static_cast<size_t>(r * 3 + k)]);
        if (norm == "MAX" && v > d) d = v;
        if (norm == "L1") d = d + v.abs();
        if (norm == "L2") d = d + v * v;
      }
      if (norm == "L2") d = d.sqrt();
      for (int64_t k = 0; k < 3; ++k) {
        const Real v(x[static_cast<size_t>(r * 3 + k)]);
        const Real expected = mpfr_zero_p(d.get()) ? v : v / d;  // a zero divisor leaves the row
        EXPECT_TRUE(mlenc_holds(bound_at(real, r * 3 + k), expected)) << "row " << r << " element " << k;
      }
    }
    for (int64_t k = 3; k < 6; ++k) EXPECT_EQ(bound_at(real, k).hi - bound_at(real, k).lo, 0.0);  // the zero row: 0
    mlenc_expect_admissible(mlenc_enclose(m, Semantics::Admissible), real, mlenc_reference(m));
  }
}

TEST(EncloseMlModels, NormalizerRowWithAnUndefinedElementIsUndefined) {
  OneNodeModel m = mlenc_model("Normalizer", {{"x", floats({2, 2}, {std::nanf(""), 1.0f, 3.0f, 4.0f})}},
                               {attr_string("norm", "L2")});
  const Bounds real = mlenc_enclose(m, Semantics::Real);
  EXPECT_TRUE(bound_at(real, 0).has_nan());
  EXPECT_TRUE(bound_at(real, 1).has_nan());
  EXPECT_TRUE(bound_at(real, 2).contains(0.6));  // 3/5, 4/5: exact in the reals, not in double
  EXPECT_TRUE(bound_at(real, 3).contains(0.8));
  EXPECT_LT(bound_at(real, 3).width(), 1e-15);
}

// 1e-30f · 1e-16f is about 1e-46, below float's smallest subnormal: its admissible enclosure is
// [0, 2^-149], so the maximum of the row may be 0 (the row left as it is) or a tiny positive
// number (the quotient 1): the admissible enclosure bounds nothing; the real one is 1.
TEST(EncloseMlModels, NormalizerMaxOfARowThatMayBeZeroIsUnbounded) {
  OneNodeModel m = mlenc_after_product("Normalizer", 1e-30f, 1e-16f, {attr_string("norm", "MAX")});
  const Interval real = bound_at(mlenc_enclose(m, Semantics::Real), 0);
  EXPECT_EQ(real.lo, 1.0);
  EXPECT_EQ(real.hi, 1.0);
  const Interval admissible = bound_at(mlenc_enclose(m, Semantics::Admissible), 0);
  EXPECT_EQ(admissible.lo, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(admissible.hi, std::numeric_limits<double>::infinity());
}

// ---- Imputer ----

TEST(EncloseMlModels, ImputerReplacesTheValuesEqualToTheReplacedOne) {
  OneNodeModel m = mlenc_model("Imputer", {{"x", floats({2, 3}, {1.0f, 0.0f, 5.0f, -0.0f, 2.0f, 0.0f})}},
                               {attr_floats("imputed_value_floats", {7.0f, 8.0f, 9.0f}),
                                attr_float("replaced_value_float", 0.0f)});
  const std::vector<double> expected = {1, 8, 5, 7, 2, 9};  // -0 equals 0
  for (Semantics s : {Semantics::Real, Semantics::Admissible}) {
    const Bounds y = mlenc_enclose(m, s);
    for (int64_t i = 0; i < 6; ++i) {
      EXPECT_EQ(bound_at(y, i).lo, expected[static_cast<size_t>(i)]) << i;
      EXPECT_EQ(bound_at(y, i).hi, expected[static_cast<size_t>(i)]) << i;
    }
  }
  const Bounds real = mlenc_enclose(m, Semantics::Real);
  mlenc_expect_admissible(mlenc_enclose(m, Semantics::Admissible), real, mlenc_reference(m));
}

// The admissible product [t, t + ulp] holds the replaced value t: the element is replaced or not,
// the hull of both; the real product is not t: it stays.
TEST(EncloseMlModels, ImputerHoldsBothOutcomesWhereTheBoundsHoldTheReplacedValue) {
  const float a = 1.1f, b = 1.3f, t = mlenc_float_below_product(a, b);
  OneNodeModel m = mlenc_after_product("Imputer", a, b,
                                       {attr_floats("imputed_value_floats", {42.0f}), attr_float("replaced_value_float", t)});
  const Interval real = bound_at(mlenc_enclose(m, Semantics::Real), 0);
  EXPECT_TRUE(real.contains(static_cast<double>(a) * static_cast<double>(b)));
  EXPECT_FALSE(real.contains(42.0));
  const Interval admissible = bound_at(mlenc_enclose(m, Semantics::Admissible), 0);
  EXPECT_TRUE(admissible.contains(42.0));
  EXPECT_TRUE(admissible.contains(t));
}

// A NaN input has no real value: whatever an implementation holds there (NaN, imputed) is admissible.
TEST(EncloseMlModels, ImputerOfAnUndefinedElementIsUndefined) {
  OneNodeModel m = mlenc_model("Imputer", {{"x", floats({2}, {std::nanf(""), 1.5f})}},
                               {attr_floats("imputed_value_floats", {7.0f}), attr_float("replaced_value_float", std::nanf(""))});
  const Bounds real = mlenc_enclose(m, Semantics::Real);
  EXPECT_TRUE(bound_at(real, 0).has_nan());
  EXPECT_EQ(bound_at(real, 1).lo, 1.5);
}

// ---- OneHotEncoder ----

TEST(EncloseMlModels, OneHotEncoderTruncatesFloatsToCategories) {
  // cats 1, 0, 3, 2: 1.7 -> 1 (position 0), -0.5 -> 0 (1), 3 -> 3 (2), 2.999 -> 2 (3), 100 and -1.2
  // (-1) are no category: zeros.
  const std::vector<float> x = {1.7f, -0.5f, 3.0f, 2.999f, 100.0f, -1.2f};
  const int64_t position[6] = {0, 1, 2, 3, -1, -1};
  OneNodeModel m = mlenc_model("OneHotEncoder", {{"x", floats({2, 3}, x)}}, {attr_ints("cats_int64s", {1, 0, 3, 2})});
  const Tensor ref = mlenc_reference(m);
  for (Semantics s : {Semantics::Real, Semantics::Admissible}) {
    const Bounds y = mlenc_enclose(m, s);
    ASSERT_EQ(y.lo.shape(), (Shape{2, 3, 4}));
    for (int64_t i = 0; i < 6; ++i)
      for (int64_t j = 0; j < 4; ++j) {
        const double expected = position[i] == j ? 1.0 : 0.0;
        EXPECT_EQ(bound_at(y, i * 4 + j).lo, expected) << i << ", " << j;
        EXPECT_EQ(bound_at(y, i * 4 + j).hi, expected) << i << ", " << j;
        EXPECT_EQ(ref.as_double(i * 4 + j), expected);
      }
  }
  mlenc_expect_admissible(mlenc_enclose(m, Semantics::Admissible), mlenc_enclose(m, Semantics::Real), ref);
  OneNodeModel strict = mlenc_model("OneHotEncoder", {{"x", floats({1}, {100.0f})}},
                                    {attr_ints("cats_int64s", {1, 0}), attr_int("zeros", 0)});
  EXPECT_THROW(mlenc_enclose(strict, Semantics::Real), Trap);
}

// A product just below 3, whose admissible enclosure reaches 3: it truncates to 2 or to 3, two
// categories; the real product truncates to 2. With a = 1.7 the products a·b of consecutive floats
// b near 3/a are about 2e-7 apart, less than the float spacing below 3: one lands in between.
TEST(EncloseMlModels, OneHotEncoderIsUndeterminedWhereTheBoundsReachAnotherInteger) {
  const float a = 1.7f;
  float b = 3.0f / a;
  for (int step = 0; step < 8; ++step) b = std::nextafter(b, 4.0f);  // a·b above 3, then down
  bool found = false;
  for (int step = 0; step < 64 && !found; ++step) {
    const double p = static_cast<double>(a) * static_cast<double>(b);
    found = p < 3.0 && p > static_cast<double>(std::nextafter(3.0f, 0.0f));
    if (!found) b = std::nextafter(b, 0.0f);
  }
  ASSERT_TRUE(found);
  OneNodeModel m = mlenc_after_product("OneHotEncoder", a, b, {attr_ints("cats_int64s", {2, 3})});
  EXPECT_NE(thrown_message<Undetermined>([&] { mlenc_enclose(m, Semantics::Admissible); }).find("more than one category"),
            std::string::npos);
  const Bounds real = mlenc_enclose(m, Semantics::Real);
  EXPECT_EQ(bound_at(real, 0).lo, 1.0);  // category 2, position 0
  EXPECT_EQ(bound_at(real, 1).hi, 0.0);
}

TEST(EncloseMlModels, OneHotEncoderOfIntegersAndStringsIsTheReferences) {
  OneNodeModel ints = mlenc_model("OneHotEncoder", {{"x", Value(Tensor::from_vector<int64_t>({3}, {2, 9, 0}))}},
                                  {attr_ints("cats_int64s", {0, 2})});
  EXPECT_TRUE(mlenc_enclose(ints, Semantics::Admissible).lo == Tensor::from_vector<double>({3, 2}, {0, 1, 0, 0, 1, 0}));
  OneNodeModel strings = mlenc_model("OneHotEncoder", {{"x", Value(Tensor::from_vector<std::string>({2}, {"b", "a"}))}},
                                     {attr_strings("cats_strings", {"a", "b"})});
  EXPECT_TRUE(mlenc_enclose(strings, Semantics::Admissible).lo == Tensor::from_vector<double>({2, 2}, {0, 1, 1, 0}));
}

// ---- CategoryMapper ----

TEST(EncloseMlModels, CategoryMapperMapsStringsAndIntegersExactly) {
  const std::vector<onnx::AttributeProto> attrs = {attr_ints("cats_int64s", {1, 2, 3}),
                                                   attr_strings("cats_strings", {"a", "b", "c"})};
  OneNodeModel to_int = mlenc_model("CategoryMapper", {{"x", Value(Tensor::from_vector<std::string>({3}, {"c", "z", "a"}))}},
                                    attrs);
  Bounds y = mlenc_enclose(to_int, Semantics::Admissible);
  ASSERT_TRUE(y.exact());
  EXPECT_TRUE(y.lo == Tensor::from_vector<int64_t>({3}, {3, -1, 1}));
  OneNodeModel to_string = mlenc_model("CategoryMapper", {{"x", Value(Tensor::from_vector<int64_t>({2}, {2, 7}))}}, attrs);
  EXPECT_TRUE(mlenc_enclose(to_string, Semantics::Real).lo == Tensor::from_vector<std::string>({2}, {"b", "_Unused"}));
}

// ---- FeatureVectorizer ----

TEST(EncloseMlModels, FeatureVectorizerPlacesTheInputsSideBySide) {
  std::mt19937 rng(24);
  const std::vector<float> a = wide_floats(6, rng), b = wide_floats(2, rng);
  OneNodeModel m = mlenc_model("FeatureVectorizer", {{"a", floats({2, 3}, a)}, {"b", floats({2, 1}, b)}},
                               {attr_ints("inputdimensions", {2, 3})});
  const Bounds real = mlenc_enclose(m, Semantics::Real);
  ASSERT_EQ(real.lo.shape(), (Shape{2, 5}));
  for (int64_t r = 0; r < 2; ++r) {  // a's first two columns, b's one column, two zeros
    const double row[5] = {a[static_cast<size_t>(r * 3)], a[static_cast<size_t>(r * 3 + 1)], b[static_cast<size_t>(r)], 0, 0};
    for (int64_t k = 0; k < 5; ++k) {
      EXPECT_EQ(bound_at(real, r * 5 + k).lo, row[k]);
      EXPECT_EQ(bound_at(real, r * 5 + k).hi, row[k]);
    }
  }
  mlenc_expect_admissible(mlenc_enclose(m, Semantics::Admissible), real, mlenc_reference(m));
}

// Double inputs are converted to float, rounded to nearest (as Cast does): 0.1 becomes 0.1f.
TEST(EncloseMlModels, FeatureVectorizerRoundsDoublesToTheNearestFloat) {
  OneNodeModel m = mlenc_model("FeatureVectorizer", {{"a", Value(Tensor::from_vector<double>({1, 2}, {0.1, -1e-50}))}},
                               {attr_ints("inputdimensions", {2})});
  const Bounds real = mlenc_enclose(m, Semantics::Real);
  EXPECT_EQ(bound_at(real, 0).lo, static_cast<double>(0.1f));
  EXPECT_EQ(bound_at(real, 0).hi, static_cast<double>(0.1f));
  EXPECT_EQ(bound_at(real, 1).hi, 0.0);  // -1e-50 rounds to -0
  mlenc_expect_admissible(mlenc_enclose(m, Semantics::Admissible), real, mlenc_reference(m));
}

// ---- SVMRegressor and SVMClassifier ----

// Three support vectors over two features, kernel_params [gamma, coef0, degree].
const std::vector<float> kMlencSupport = {0.25f, 0.75f, 1.0f, 0.5f, 0.6f, 0.3f};
const std::vector<float> kMlencKernelParams = {0.5f, 0.5f, 3.0f};

// K(x, v) at 256 bits from its exact argument: LINEAR x·v, POLY (γ·x·v + c₀)³ (exact at 2200
// bits), RBF exp(−γ·|x − v|²), SIGMOID tanh(γ·x·v + c₀).
Real256 mlenc_svm_kernel(const std::string& type, const std::vector<double>& x, const float* v) {
  const double gamma = kMlencKernelParams[0], coef0 = kMlencKernelParams[1];
  if (type == "RBF") {
    Real s(0);
    for (size_t i = 0; i < x.size(); ++i) s = s + (Real(x[i]) - Real(v[i])) * (Real(x[i]) - Real(v[i]));
    return (mlenc_narrow(s * Real(-gamma))).exp();
  }
  const Real dot = mlenc_dot(x, std::vector<double>(v, v + x.size()));
  if (type == "LINEAR") return mlenc_narrow(dot);
  const Real t = Real(gamma) * dot + Real(coef0);
  if (type == "POLY") return mlenc_narrow(t.pow(3));
  return mlenc_narrow(t).tanh();
}

std::vector<onnx::AttributeProto> mlenc_svm_kernel_attrs(const std::string& type) {
  return {attr_string("kernel_type", type), attr_floats("kernel_params", kMlencKernelParams),
          attr_floats("support_vectors", kMlencSupport)};
}

// Positive coefficients and kernel values: the decision value's sum does not cancel.
TEST(EncloseMlModels, SVMRegressorEnclosesEachKernel) {
  std::mt19937 rng(25);
  const std::vector<float> x = uniform_floats(8, rng, 0.25f, 1.0f), coef = {0.5f, 1.5f, 0.75f};
  for (const std::string& type : std::vector<std::string>{"LINEAR", "POLY", "RBF", "SIGMOID"})
    for (const std::string& post : std::vector<std::string>{"NONE", "LOGISTIC"}) {
      SCOPED_TRACE(type + " " + post);
      std::vector<onnx::AttributeProto> attrs = mlenc_svm_kernel_attrs(type);
      for (const auto& a : {attr_int("n_supports", 3), attr_floats("coefficients", coef), attr_floats("rho", {0.25f}),
                            attr_string("post_transform", post)})
        attrs.push_back(a);
      OneNodeModel m = mlenc_model("SVMRegressor", {{"x", floats({4, 2}, x)}}, attrs);
      const Bounds real = mlenc_enclose(m, Semantics::Real);
      for (int64_t r = 0; r < 4; ++r) {
        const std::vector<double> row = {x[static_cast<size_t>(2 * r)], x[static_cast<size_t>(2 * r + 1)]};
        Real256 y(0.25);
        for (size_t j = 0; j < 3; ++j) y = y + Real256(coef[j]) * mlenc_svm_kernel(type, row, kMlencSupport.data() + 2 * j);
        EXPECT_TRUE(mlenc_holds(bound_at(real, r), post == "NONE" ? y : mlenc_logistic(y))) << "row " << r;
      }
      mlenc_expect_admissible(mlenc_enclose(m, Semantics::Admissible), real, mlenc_reference(m));
    }
}

// The linear form (n_supports 0): y = x·coefficients + rho, one_class its sign, +1 or -1; a row at
// y = 0 exactly leaves the sign open.
TEST(EncloseMlModels, SVMRegressorOneClassIsDecidedWhereTheBoundsDecideTheSign) {
  const std::vector<onnx::AttributeProto> attrs = {attr_floats("coefficients", {1.0f, -1.0f}), attr_floats("rho", {0.0f}),
                                                   attr_int("one_class", 1)};
  OneNodeModel m = mlenc_model("SVMRegressor", {{"x", floats({2, 2}, {2.0f, 1.0f, 1.0f, 3.0f})}}, attrs);
  const Tensor ref = mlenc_reference(m);
  for (Semantics s : {Semantics::Real, Semantics::Admissible}) {
    const Bounds y = mlenc_enclose(m, s);
    for (int64_t r = 0; r < 2; ++r) {
      const double expected = r == 0 ? 1.0 : -1.0;
      EXPECT_EQ(bound_at(y, r).lo, expected);
      EXPECT_EQ(bound_at(y, r).hi, expected);
      EXPECT_EQ(ref.as_double(r), expected);
    }
  }
  OneNodeModel zero = mlenc_model("SVMRegressor", {{"x", floats({1, 2}, {1.5f, 1.5f})}}, attrs);
  EXPECT_NE(thrown_message<Undetermined>([&] { mlenc_enclose(zero, Semantics::Real); }).find("one_class's sign"),
            std::string::npos);
}

// Pair decision values of three classes, one support vector each (coefficient rows 0 and 1 of
// three entries; pair (i, j) weighs class i's vector by row j - 1 and class j's by row i).
const std::vector<float> kMlencPairCoef = {1.0f, -0.8f, -0.6f, 0.9f, 1.1f, -1.2f};
const std::vector<float> kMlencPairRho = {0.1f, -0.2f, 0.05f};

// The exact pair values d(0,1), d(0,2), d(1,2) of a row under the RBF kernel, at 256 bits.
std::vector<Real256> mlenc_pair_values(const std::vector<double>& row) {
  std::vector<Real256> k;
  for (size_t v = 0; v < 3; ++v) k.push_back(mlenc_svm_kernel("RBF", row, kMlencSupport.data() + 2 * v));
  const std::vector<float>& c = kMlencPairCoef;
  return {Real256(c[0]) * k[0] + Real256(c[1]) * k[1] + Real256(kMlencPairRho[0]),
          Real256(c[3]) * k[0] + Real256(c[2]) * k[2] + Real256(kMlencPairRho[1]),
          Real256(c[4]) * k[1] + Real256(c[5]) * k[2] + Real256(kMlencPairRho[2])};
}

// Rows whose pair values all lie at least 0.1 from 0, so that (d) is meaningful beside the sums'
// allowance; the votes: d > 0 for the first class of the pair.
TEST(EncloseMlModels, SVMClassifierVotesOfThreeClasses) {
  std::mt19937 rng(26);
  std::vector<float> x;
  std::vector<int64_t> labels;
  std::vector<std::vector<Real256>> values;
  while (labels.size() < 5) {
    const std::vector<float> row = uniform_floats(2, rng, 0.0f, 1.5f);
    const std::vector<Real256> d = mlenc_pair_values({row[0], row[1]});
    bool clear = true;
    for (const Real256& v : d) clear = clear && (v.abs() > Real256(0.1));
    if (!clear) continue;
    const int64_t pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    std::vector<int64_t> votes(3, 0);
    for (size_t p = 0; p < 3; ++p) ++votes[static_cast<size_t>(d[p] > Real256(0) ? pairs[p][0] : pairs[p][1])];
    x.insert(x.end(), row.begin(), row.end());
    labels.push_back(5 + mlenc_first_max(votes));
    values.push_back(d);
  }
  std::vector<onnx::AttributeProto> attrs = mlenc_svm_kernel_attrs("RBF");
  for (const auto& a : {attr_ints("vectors_per_class", {1, 1, 1}), attr_floats("coefficients", kMlencPairCoef),
                        attr_floats("rho", kMlencPairRho), attr_ints("classlabels_ints", {5, 6, 7})})
    attrs.push_back(a);
  OneNodeModel m = mlenc_model("SVMClassifier", {{"x", floats({5, 2}, x)}}, attrs, {"y", "z"});
  const Bounds real = mlenc_enclose(m, Semantics::Real, "z");
  for (int64_t r = 0; r < 5; ++r)
    for (int64_t p = 0; p < 3; ++p)
      EXPECT_TRUE(mlenc_holds(bound_at(real, r * 3 + p), values[static_cast<size_t>(r)][static_cast<size_t>(p)]))
          << r << ", " << p;
  for (Semantics s : {Semantics::Real, Semantics::Admissible}) {
    const Bounds y = mlenc_enclose(m, s, "y");
    EXPECT_TRUE(y.lo == Tensor::from_vector<int64_t>({5}, labels));
  }
  EXPECT_TRUE(mlenc_reference(m, "y") == Tensor::from_vector<int64_t>({5}, labels));
  mlenc_expect_admissible(mlenc_enclose(m, Semantics::Admissible, "z"), real, mlenc_reference(m, "z"));
}

// LINEAR kernel, support vectors (1, 0), (0, 1), (1, 1), the row x = (1, 1): d(0,1) = K₀ + rho₀ and
// d(0,2) = K₀ + rho₁, d(1,2) = 0·K₁ + 0·K₂ + 0 = 0 exactly (every product has a zero factor: a
// decided vote for class 2). With rho = 0.5, 0.5 class 0 wins both its pairs. With rho = −1, −1,
// d(0,1) = d(0,2) = 1 − 1 = 0 in reals, but each is a dot product whose bounds hold 0 and more:
// open votes, and class 0 (two votes) or class 2 (two votes) may win: Undetermined.
TEST(EncloseMlModels, SVMClassifierOpenVotesDecideOnlyWhereTheyCannotChangeTheWinner) {
  auto model = [](float rho0, float rho1) {
    return mlenc_model("SVMClassifier", {{"x", floats({1, 2}, {1.0f, 1.0f})}},
                       {attr_string("kernel_type", "LINEAR"), attr_floats("support_vectors", {1, 0, 0, 1, 1, 1}),
                        attr_ints("vectors_per_class", {1, 1, 1}), attr_floats("coefficients", {1, 0, 0, 1, 0, 0}),
                        attr_floats("rho", {rho0, rho1, 0.0f}), attr_ints("classlabels_ints", {0, 1, 2})},
                       {"y", "z"});
  };
  const OneNodeModel decided = model(0.5f, 0.5f);
  for (Semantics s : {Semantics::Real, Semantics::Admissible})
    EXPECT_TRUE(mlenc_enclose(decided, s, "y").lo == Tensor::from_vector<int64_t>({1}, {0}));
  EXPECT_TRUE(mlenc_reference(decided, "y") == Tensor::from_vector<int64_t>({1}, {0}));
  const OneNodeModel open = model(-1.0f, -1.0f);
  EXPECT_NE(thrown_message<Undetermined>([&] { mlenc_enclose(open, Semantics::Real, "y"); }).find("votes are open"),
            std::string::npos);
}

// Two classes, two vectors for the first: one pair value d, Z = [-d, d] after the post_transform,
// the label the first class where d > 0 (its vote).
TEST(EncloseMlModels, SVMClassifierOfTwoClassesGivesThePairValueBothWays) {
  const std::vector<float> x = {0.2f, 0.9f, 1.1f, 0.3f, 0.6f, 0.6f};
  const std::vector<float> coef = {1.5f, -0.25f, -2.0f};
  std::vector<onnx::AttributeProto> attrs = mlenc_svm_kernel_attrs("POLY");
  for (const auto& a : {attr_ints("vectors_per_class", {2, 1}), attr_floats("coefficients", coef), attr_floats("rho", {0.125f}),
                        attr_strings("classlabels_strings", {"a", "b"}), attr_string("post_transform", "LOGISTIC")})
    attrs.push_back(a);
  OneNodeModel m = mlenc_model("SVMClassifier", {{"x", floats({3, 2}, x)}}, attrs, {"y", "z"});
  const Bounds real = mlenc_enclose(m, Semantics::Real, "z");
  std::vector<std::string> labels;
  for (int64_t r = 0; r < 3; ++r) {
    const std::vector<double> row = {x[static_cast<size_t>(2 * r)], x[static_cast<size_t>(2 * r + 1)]};
    Real256 d(0.125);
    for (size_t v = 0; v < 3; ++v) d = d + Real256(coef[v]) * mlenc_svm_kernel("POLY", row, kMlencSupport.data() + 2 * v);
    labels.push_back(d > Real256(0) ? "a" : "b");
    EXPECT_TRUE(mlenc_holds(bound_at(real, r * 2), mlenc_logistic(-d))) << "row " << r;
    EXPECT_TRUE(mlenc_holds(bound_at(real, r * 2 + 1), mlenc_logistic(d))) << "row " << r;
  }
  EXPECT_TRUE(mlenc_enclose(m, Semantics::Admissible, "y").lo == Tensor::from_vector<std::string>({3}, labels));
  EXPECT_TRUE(mlenc_reference(m, "y") == Tensor::from_vector<std::string>({3}, labels));
  mlenc_expect_admissible(mlenc_enclose(m, Semantics::Admissible, "z"), real, mlenc_reference(m, "z"));
}

// The linear form: score_k = x·coefficients_k + rho, the first largest picked, Z the softmax.
TEST(EncloseMlModels, SVMClassifierLinearFormPicksTheLargestScore) {
  std::mt19937 rng(27);
  const std::vector<float> x = uniform_floats(8, rng, 0.25f, 2.0f), coef = uniform_floats(6, rng, 0.25f, 2.0f);
  OneNodeModel m = mlenc_model("SVMClassifier", {{"x", floats({4, 2}, x)}},
                               {attr_floats("coefficients", coef), attr_floats("rho", {0.5f}),
                                attr_ints("classlabels_ints", {1, 2, 3}), attr_string("post_transform", "SOFTMAX")},
                               {"y", "z"});
  const Bounds real = mlenc_enclose(m, Semantics::Real, "z");
  std::vector<int64_t> labels;
  for (int64_t r = 0; r < 4; ++r) {
    const std::vector<Real> s = mlenc_linear_scores(x, r, 2, coef, {0.5f, 0.5f, 0.5f});
    labels.push_back(1 + mlenc_first_max(s));
    for (size_t k = 0; k < 3; ++k)
      EXPECT_TRUE(mlenc_holds(bound_at(real, r * 3 + static_cast<int64_t>(k)), mlenc_softmax_share(s, k)));
  }
  EXPECT_TRUE(mlenc_enclose(m, Semantics::Admissible, "y").lo == Tensor::from_vector<int64_t>({4}, labels));
  EXPECT_TRUE(mlenc_reference(m, "y") == Tensor::from_vector<int64_t>({4}, labels));
  mlenc_expect_admissible(mlenc_enclose(m, Semantics::Admissible, "z"), real, mlenc_reference(m, "z"));
}

// libsvm's pairwise coupling written out here at 256 bits (Wu, Lin and Weng 2004, method 2): from
// p = 1/k, coordinate steps on min pᵀQp subject to Σp = 1, each followed by renormalising p, until
// max_t |(Qp)_t − pᵀQp| < 0.005/k (at most 100 rounds). The exact iterate up to 256-bit rounding.
std::vector<Real256> mlenc_coupled(const std::vector<Real256>& r, size_t k) {
  std::vector<Real256> q(k * k, Real256(0)), p(k, Real256(1) / Real256(static_cast<double>(k))), qp(k, Real256(0));
  for (size_t t = 0; t < k; ++t)
    for (size_t j = 0; j < k; ++j)
      if (j != t) {
        q[t * k + t] = q[t * k + t] + r[j * k + t] * r[j * k + t];
        q[t * k + j] = Real256(0) - r[j * k + t] * r[t * k + j];
      }
  const Real256 eps = Real256(0.005 / static_cast<double>(k));
  for (int round = 0; round < 100; ++round) {
    Real256 pqp(0), error(0);
    for (size_t t = 0; t < k; ++t) {
      qp[t] = Real256(0);
      for (size_t j = 0; j < k; ++j) qp[t] = qp[t] + q[t * k + j] * p[j];
      pqp = pqp + p[t] * qp[t];
    }
    for (size_t t = 0; t < k; ++t)
      if ((qp[t] - pqp).abs() > error) error = (qp[t] - pqp).abs();
    if (error < eps) break;
    for (size_t t = 0; t < k; ++t) {
      const Real256 step = (pqp - qp[t]) / q[t * k + t], grow = Real256(1) + step;
      p[t] = p[t] + step;
      pqp = (pqp + step * (step * q[t * k + t] + Real256(2) * qp[t])) / (grow * grow);
      for (size_t j = 0; j < k; ++j) {
        qp[j] = (qp[j] + step * q[t * k + j]) / grow;
        p[j] = p[j] / grow;
      }
    }
  }
  return p;
}

// The same problem's exact minimiser: the bordered system [Q e; eᵀ 0][p; b] = [0; 1] solved by
// Gaussian elimination at 256 bits.
std::vector<Real256> mlenc_coupling_limit(const std::vector<Real256>& r, size_t k) {
  const size_t m = k + 1;
  std::vector<Real256> a(m * (m + 1), Real256(0));  // [M | rhs]
  for (size_t t = 0; t < k; ++t) {
    for (size_t j = 0; j < k; ++j)
      if (j != t) {
        a[t * (m + 1) + t] = a[t * (m + 1) + t] + r[j * k + t] * r[j * k + t];
        a[t * (m + 1) + j] = Real256(0) - r[j * k + t] * r[t * k + j];
      }
    a[t * (m + 1) + k] = a[k * (m + 1) + t] = Real256(1);
  }
  a[k * (m + 1) + m] = Real256(1);
  for (size_t col = 0; col < m; ++col) {
    size_t pivot = col;
    for (size_t i = col + 1; i < m; ++i)
      if (a[i * (m + 1) + col].abs() > a[pivot * (m + 1) + col].abs()) pivot = i;
    for (size_t j = 0; j <= m; ++j) std::swap(a[pivot * (m + 1) + j], a[col * (m + 1) + j]);
    for (size_t i = col + 1; i < m; ++i) {
      const Real256 f = a[i * (m + 1) + col] / a[col * (m + 1) + col];
      for (size_t j = col; j <= m; ++j) a[i * (m + 1) + j] = a[i * (m + 1) + j] - f * a[col * (m + 1) + j];
    }
  }
  std::vector<Real256> z(m, Real256(0));
  for (size_t i = m; i-- > 0;) {
    Real256 s = a[i * (m + 1) + m];
    for (size_t j = i + 1; j < m; ++j) s = s - a[i * (m + 1) + j] * z[j];
    z[i] = s / a[i * (m + 1) + i];
  }
  z.pop_back();
  return z;
}

const std::vector<float> kMlencProbA = {-1.5f, -2.0f, -1.0f}, kMlencProbB = {0.125f, -0.25f, 0.375f};

// Three classes under RBF with Platt's coefficients: Z is the coupling of the pair probabilities
// 1/(1 + exp(a·d + b)). The real enclosure holds the exact iterate and the exact minimiser; the
// admissible one holds the reference's output and the real enclosure, is at most 0.01 wide (the
// tolerance 0.005/3 of the stopping rule is what the iterate may differ by), and leaves out each
// row's averages of the class's pair probabilities (the first, non-iterative method of the paper).
TEST(EncloseMlModels, SVMClassifierProbabilitiesHoldTheCouplingsIterateAndLimit) {
  std::mt19937 rng(28);
  const std::vector<float> x = uniform_floats(8, rng, 0.0f, 1.5f);
  std::vector<onnx::AttributeProto> attrs = mlenc_svm_kernel_attrs("RBF");
  for (const auto& a : {attr_ints("vectors_per_class", {1, 1, 1}), attr_floats("coefficients", kMlencPairCoef),
                        attr_floats("rho", kMlencPairRho), attr_floats("prob_a", kMlencProbA),
                        attr_floats("prob_b", kMlencProbB), attr_ints("classlabels_ints", {0, 1, 2})})
    attrs.push_back(a);
  OneNodeModel m = mlenc_model("SVMClassifier", {{"x", floats({4, 2}, x)}}, attrs, {"y", "z"});
  const Bounds real = mlenc_enclose(m, Semantics::Real, "z"), admissible = mlenc_enclose(m, Semantics::Admissible, "z");
  const Tensor ref = mlenc_reference(m, "z");
  for (int64_t row = 0; row < 4; ++row) {
    const std::vector<Real256> d = mlenc_pair_values({x[static_cast<size_t>(2 * row)], x[static_cast<size_t>(2 * row + 1)]});
    std::vector<Real256> r(9, Real256(0));
    const size_t pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    for (size_t p = 0; p < 3; ++p) {
      const Real256 q = mlenc_logistic(Real256(0) - (Real256(kMlencProbA[p]) * d[p] + Real256(kMlencProbB[p])));
      r[pairs[p][0] * 3 + pairs[p][1]] = q;
      r[pairs[p][1] * 3 + pairs[p][0]] = Real256(1) - q;
    }
    const std::vector<Real256> iterate = mlenc_coupled(r, 3), limit = mlenc_coupling_limit(r, 3);
    bool averages_held = true;
    for (size_t t = 0; t < 3; ++t) {
      SCOPED_TRACE("row " + std::to_string(row) + ", class " + std::to_string(t));
      const int64_t i = row * 3 + static_cast<int64_t>(t);
      const Interval re = bound_at(real, i), ad = bound_at(admissible, i);
      EXPECT_TRUE(mlenc_holds(re, iterate[t]));
      EXPECT_TRUE(mlenc_holds(re, limit[t]));
      EXPECT_TRUE(ad.contains(ref.as_double(i))) << ref.as_double(i) << " outside [" << ad.lo << ", " << ad.hi << "]";
      EXPECT_TRUE(ad.lo <= re.lo && re.hi <= ad.hi);
      EXPECT_LT(ad.width(), 0.01);
      const Real256 average = (r[t * 3 + (t + 1) % 3] + r[t * 3 + (t + 2) % 3]) / Real256(3);
      averages_held = averages_held && mlenc_holds(ad, average);
    }
    EXPECT_FALSE(averages_held) << "row " << row;
  }
}

// Two classes: the coupling's minimiser is the pair probability itself, p = (q, 1 − q).
TEST(EncloseMlModels, SVMClassifierProbabilitiesOfTwoClassesArePlattsSigmoid) {
  std::vector<onnx::AttributeProto> attrs = mlenc_svm_kernel_attrs("POLY");
  const std::vector<float> coef = {1.5f, -0.25f, -2.0f};
  for (const auto& a :
       {attr_ints("vectors_per_class", {2, 1}), attr_floats("coefficients", coef), attr_floats("rho", {0.125f}),
        attr_floats("prob_a", {-0.75f}), attr_floats("prob_b", {0.0625f}), attr_ints("classlabels_ints", {0, 1})})
    attrs.push_back(a);
  const std::vector<float> x = {0.2f, 0.9f, 1.1f, 0.3f};
  OneNodeModel m = mlenc_model("SVMClassifier", {{"x", floats({2, 2}, x)}}, attrs, {"y", "z"});
  const Bounds real = mlenc_enclose(m, Semantics::Real, "z"), admissible = mlenc_enclose(m, Semantics::Admissible, "z");
  const Tensor ref = mlenc_reference(m, "z");
  for (int64_t row = 0; row < 2; ++row) {
    const std::vector<double> v = {x[static_cast<size_t>(2 * row)], x[static_cast<size_t>(2 * row + 1)]};
    Real256 d(0.125);
    for (size_t j = 0; j < 3; ++j) d = d + Real256(coef[j]) * mlenc_svm_kernel("POLY", v, kMlencSupport.data() + 2 * j);
    const Real256 q = mlenc_logistic(Real256(0) - (Real256(-0.75) * d + Real256(0.0625)));
    EXPECT_TRUE(mlenc_holds(bound_at(real, 2 * row), q)) << "row " << row;
    EXPECT_TRUE(mlenc_holds(bound_at(real, 2 * row + 1), Real256(1) - q)) << "row " << row;
    for (int64_t t = 0; t < 2; ++t) EXPECT_TRUE(bound_at(admissible, 2 * row + t).contains(ref.as_double(2 * row + t)));
  }
}

// Pair probabilities known only within [0.05, 0.95] leave the coupling's matrix too open for the
// proof: no enclosure, and the reason says so.
TEST(EncloseMlModels, SVMClassifierCouplingOfWideBoundsIsUndetermined) {
  std::vector<Interval> r(9, Interval::point(0));
  for (size_t i = 0; i < 3; ++i)
    for (size_t j = 0; j < 3; ++j)
      if (i != j) r[i * 3 + j] = {0.05, 0.95};
  std::string why;
  EXPECT_TRUE(svm_coupling_enclosure(r, 3, {}, why).empty());
  EXPECT_NE(why.find("too wide"), std::string::npos) << why;
  // The same matrix known exactly at 0.5 everywhere: p = (1/3, 1/3, 1/3) within the tolerance's reach.
  for (size_t i = 0; i < 3; ++i)
    for (size_t j = 0; j < 3; ++j)
      if (i != j) r[i * 3 + j] = Interval::point(0.5);
  why.clear();
  const std::vector<Interval> p = svm_coupling_enclosure(r, 3, {}, why);
  ASSERT_EQ(p.size(), 3u) << why;
  for (const Interval& v : p) EXPECT_TRUE(v.lo <= 1.0 / 3 && 1.0 / 3 <= v.hi && v.width() < 0.02) << v.lo << ", " << v.hi;
}

// ---- TreeEnsembleRegressor and TreeEnsembleClassifier ----

// Two trees over X [N, 2] (nodes named by tree and node id):
//   tree 0: node 0: x0 <= 0.5 ? leaf 1 : node 2: x1 < -0.25 ? leaf 3 : leaf 4
//   tree 1: node 0: x1 >= 0 ? leaf 1 : leaf 2
std::vector<onnx::AttributeProto> mlenc_tree_nodes() {
  return {attr_ints("nodes_treeids", {0, 0, 0, 0, 0, 1, 1, 1}),
          attr_ints("nodes_nodeids", {0, 1, 2, 3, 4, 0, 1, 2}),
          attr_ints("nodes_featureids", {0, 0, 1, 0, 0, 1, 0, 0}),
          attr_strings("nodes_modes", {"BRANCH_LEQ", "LEAF", "BRANCH_LT", "LEAF", "LEAF", "BRANCH_GTE", "LEAF", "LEAF"}),
          attr_floats("nodes_values", {0.5f, 0, -0.25f, 0, 0, 0, 0, 0}),
          attr_ints("nodes_truenodeids", {1, 0, 3, 0, 0, 1, 0, 0}),
          attr_ints("nodes_falsenodeids", {2, 0, 4, 0, 0, 2, 0, 0})};
}

// A vote of `weight` for target (or class) `id` at leaf `node` of tree `tree`.
struct MlencVote {
  int64_t tree, node, id;
  float weight;
};

void mlenc_add_votes(std::vector<onnx::AttributeProto>& attrs, const std::string& prefix, const std::vector<MlencVote>& votes) {
  std::vector<int64_t> trees, nodes, ids;
  std::vector<float> weights;
  for (const MlencVote& v : votes) {
    trees.push_back(v.tree);
    nodes.push_back(v.node);
    ids.push_back(v.id);
    weights.push_back(v.weight);
  }
  attrs.push_back(attr_ints(prefix + "_treeids", trees));
  attrs.push_back(attr_ints(prefix + "_nodeids", nodes));
  attrs.push_back(attr_ints(prefix + "_ids", ids));
  attrs.push_back(attr_floats(prefix + "_weights", weights));
}

// The leaves (tree, node) a row reaches, by hand from the trees above.
std::set<std::pair<int64_t, int64_t>> mlenc_leaves(double x0, double x1) {
  return {{0, x0 <= 0.5 ? 1 : x1 < -0.25 ? 3 : 4}, {1, x1 >= 0 ? 1 : 2}};
}

// Rows that reach every pair of leaves, three of them on a split (0.5 <= 0.5, 0 >= 0, -0.25 is not
// < -0.25).
const std::vector<float> kMlencTreeRows = {0.25f,   0.5f,  0.25f, -0.5f, 0.75f, -0.5f, 0.75f,
                                           -0.125f, 0.75f, 0.25f, 0.5f,  0.0f,  0.75f, -0.25f};
constexpr int64_t kMlencTreeRowCount = 7;

const std::vector<MlencVote> kMlencTargetVotes = {{0, 1, 0, 1.25f}, {0, 3, 1, 2.5f}, {0, 4, 0, -0.75f},
                                                  {1, 1, 1, 0.1f},  {1, 2, 0, 3.3f}, {1, 2, 1, -1.5f}};
const std::vector<float> kMlencTargetBase = {0.5f, -0.125f, 2.0f};  // target 2 has no votes

TEST(EncloseMlModels, TreeEnsembleRegressorAggregatesTheVotesOfEachVersion) {
  const std::vector<float>& x = kMlencTreeRows;
  for (int64_t version : {1, 3, 5})
    for (const std::string& aggregate : std::vector<std::string>{"SUM", "AVERAGE", "MIN", "MAX"}) {
      SCOPED_TRACE(aggregate + " at version " + std::to_string(version));
      std::vector<onnx::AttributeProto> attrs = mlenc_tree_nodes();
      mlenc_add_votes(attrs, "target", kMlencTargetVotes);
      for (const auto& a : {attr_int("n_targets", 3), attr_floats("base_values", kMlencTargetBase),
                            attr_string("aggregate_function", aggregate)})
        attrs.push_back(a);
      OneNodeModel m = mlenc_model("TreeEnsembleRegressor", {{"x", floats({kMlencTreeRowCount, 2}, x)}}, attrs, {"y"}, version);
      const Bounds real = mlenc_enclose(m, Semantics::Real);
      for (int64_t r = 0; r < kMlencTreeRowCount; ++r) {
        const auto leaves = mlenc_leaves(x[static_cast<size_t>(2 * r)], x[static_cast<size_t>(2 * r + 1)]);
        for (int64_t t = 0; t < 3; ++t) {
          std::vector<double> w;
          for (const MlencVote& v : kMlencTargetVotes)
            if (v.id == t && leaves.count({v.tree, v.node})) w.push_back(v.weight);
          const Interval got = bound_at(real, r * 3 + t);
          const double base = kMlencTargetBase[static_cast<size_t>(t)];
          if (aggregate == "MIN" || aggregate == "MAX") {
            if (w.empty()) {
              EXPECT_TRUE(got.has_nan()) << "row " << r << " target " << t;  // no vote: no value the spec gives
              continue;
            }
            const double extreme = aggregate == "MIN" ? *std::min_element(w.begin(), w.end())
                                                      : *std::max_element(w.begin(), w.end());
            EXPECT_TRUE(mlenc_holds(got, Real(extreme) + Real(base))) << "row " << r << " target " << t;
            continue;
          }
          Real sum(0);
          for (double v : w) sum = sum + Real(v);
          const Real expected = aggregate == "AVERAGE" ? sum / Real(2) + Real(base) : sum + Real(base);
          EXPECT_TRUE(mlenc_holds(got, expected)) << "row " << r << " target " << t;
        }
      }
      mlenc_expect_admissible(mlenc_enclose(m, Semantics::Admissible), real, mlenc_reference(m));
    }
}

// Integer features are compared as the reference rounds them to float: exact here.
TEST(EncloseMlModels, TreeEnsembleRegressorOfIntegerFeatures) {
  std::vector<onnx::AttributeProto> attrs = mlenc_tree_nodes();
  mlenc_add_votes(attrs, "target", kMlencTargetVotes);
  attrs.push_back(attr_int("n_targets", 2));
  OneNodeModel m = mlenc_model("TreeEnsembleRegressor", {{"x", Value(Tensor::from_vector<int64_t>({2, 2}, {0, 1, 1, -1}))}},
                               attrs);
  const Bounds real = mlenc_enclose(m, Semantics::Real);
  // Row 0: leaves (0, 1), (1, 1): 1.25 and 0.1. Row 1: leaves (0, 3), (1, 2): 3.3 and 2.5 - 1.5.
  EXPECT_TRUE(mlenc_holds(bound_at(real, 0), Real(1.25f)));
  EXPECT_TRUE(mlenc_holds(bound_at(real, 1), Real(0.1f)));
  EXPECT_TRUE(mlenc_holds(bound_at(real, 2), Real(3.3f)));
  EXPECT_TRUE(mlenc_holds(bound_at(real, 3), Real(2.5f) + Real(-1.5f)));
  mlenc_expect_admissible(mlenc_enclose(m, Semantics::Admissible), real, mlenc_reference(m));
}

TEST(EncloseMlModels, TreeEnsembleRegressorIsUndeterminedWhereTheBoundsStraddleASplit) {
  const float a = 1.1f, b = 1.3f, t = mlenc_float_below_product(a, b);
  std::vector<onnx::AttributeProto> attrs = {
      attr_ints("nodes_treeids", {0, 0, 0}),      attr_ints("nodes_nodeids", {0, 1, 2}),
      attr_ints("nodes_featureids", {0, 0, 0}),   attr_strings("nodes_modes", {"BRANCH_LEQ", "LEAF", "LEAF"}),
      attr_floats("nodes_values", {t, 0, 0}),     attr_ints("nodes_truenodeids", {1, 0, 0}),
      attr_ints("nodes_falsenodeids", {2, 0, 0}), attr_int("n_targets", 1)};
  mlenc_add_votes(attrs, "target", {{0, 1, 0, 1.0f}, {0, 2, 0, 2.0f}});
  OneNodeModel m = mlenc_after_product("TreeEnsembleRegressor", a, b, attrs);
  EXPECT_NE(thrown_message<Undetermined>([&] { mlenc_enclose(m, Semantics::Admissible); }).find("allows both branches"),
            std::string::npos);
  const Interval real = bound_at(mlenc_enclose(m, Semantics::Real), 0);  // the real product is above the split
  EXPECT_TRUE(real.contains(2.0));
  EXPECT_FALSE(real.contains(1.0));
}

TEST(EncloseMlModels, TreeEnsembleRegressorRowWithAnUndefinedFeatureIsUndefined) {
  std::vector<onnx::AttributeProto> attrs = mlenc_tree_nodes();
  mlenc_add_votes(attrs, "target", kMlencTargetVotes);
  attrs.push_back(attr_int("n_targets", 2));
  OneNodeModel m = mlenc_model("TreeEnsembleRegressor", {{"x", floats({2, 2}, {std::nanf(""), 0.5f, 0.25f, 0.5f})}}, attrs);
  const Bounds real = mlenc_enclose(m, Semantics::Real);
  EXPECT_TRUE(bound_at(real, 0).has_nan());
  EXPECT_TRUE(bound_at(real, 1).has_nan());
  EXPECT_TRUE(mlenc_holds(bound_at(real, 2), Real(1.25f)));  // row 1: leaves (0, 1), (1, 1)
  EXPECT_TRUE(mlenc_holds(bound_at(real, 3), Real(0.1f)));
}

const std::vector<MlencVote> kMlencClassVotes = {
    {0, 1, 0, 1.25f}, {0, 3, 1, 2.5f}, {0, 4, 2, 0.75f}, {1, 1, 1, 0.1f}, {1, 2, 0, 3.3f}};
const std::vector<float> kMlencClassBase = {0.1f, 0.2f, 0.3f};

TEST(EncloseMlModels, TreeEnsembleClassifierScoresAndLabels) {
  const std::vector<float>& x = kMlencTreeRows;
  for (int64_t version : {1, 3, 5})
    for (const std::string& post : std::vector<std::string>{"NONE", "SOFTMAX"}) {
      SCOPED_TRACE(post + " at version " + std::to_string(version));
      std::vector<onnx::AttributeProto> attrs = mlenc_tree_nodes();
      mlenc_add_votes(attrs, "class", kMlencClassVotes);
      for (const auto& a : {attr_floats("base_values", kMlencClassBase), attr_ints("classlabels_int64s", {7, 8, 9}),
                            attr_string("post_transform", post)})
        attrs.push_back(a);
      OneNodeModel m = mlenc_model("TreeEnsembleClassifier", {{"x", floats({kMlencTreeRowCount, 2}, x)}}, attrs, {"y", "z"},
                                   version);
      const Bounds real = mlenc_enclose(m, Semantics::Real, "z");
      std::vector<int64_t> labels;
      for (int64_t r = 0; r < kMlencTreeRowCount; ++r) {
        const auto leaves = mlenc_leaves(x[static_cast<size_t>(2 * r)], x[static_cast<size_t>(2 * r + 1)]);
        std::vector<Real> z;
        for (int64_t k = 0; k < 3; ++k) {
          Real s(kMlencClassBase[static_cast<size_t>(k)]);
          for (const MlencVote& v : kMlencClassVotes)
            if (v.id == k && leaves.count({v.tree, v.node})) s = s + Real(v.weight);
          z.push_back(s);
        }
        labels.push_back(7 + mlenc_first_max(z));  // the softmax keeps the order
        for (size_t k = 0; k < 3; ++k) {
          const Interval got = bound_at(real, r * 3 + static_cast<int64_t>(k));
          EXPECT_TRUE(post == "NONE" ? mlenc_holds(got, z[k]) : mlenc_holds(got, mlenc_softmax_share(z, k))) << "row " << r;
        }
      }
      for (Semantics s : {Semantics::Real, Semantics::Admissible})
        EXPECT_TRUE(mlenc_enclose(m, s, "y").lo == Tensor::from_vector<int64_t>({kMlencTreeRowCount}, labels));
      EXPECT_TRUE(mlenc_reference(m, "y") == Tensor::from_vector<int64_t>({kMlencTreeRowCount}, labels));
      mlenc_expect_admissible(mlenc_enclose(m, Semantics::Admissible, "z"), real, mlenc_reference(m, "z"));
    }
}

// Every vote for class 1 of two: the binary form. s = the votes + base_values[0] is the second
// class's score, the first's 1 - s under NONE and -s under LOGISTIC (then σ of each).
const std::vector<MlencVote> kMlencBinaryVotes = {
    {0, 1, 1, 1.375f}, {0, 3, 1, -2.5f}, {0, 4, 1, 0.75f}, {1, 1, 1, 0.25f}, {1, 2, 1, -0.375f}};

OneNodeModel mlenc_binary_trees(const std::vector<float>& x, const std::string& post) {
  std::vector<onnx::AttributeProto> attrs = mlenc_tree_nodes();
  mlenc_add_votes(attrs, "class", kMlencBinaryVotes);
  for (const auto& a : {attr_floats("base_values", {0.125f}), attr_strings("classlabels_strings", {"no", "yes"}),
                        attr_string("post_transform", post)})
    attrs.push_back(a);
  return mlenc_model("TreeEnsembleClassifier", {{"x", floats({static_cast<int64_t>(x.size() / 2), 2}, x)}}, attrs, {"y", "z"});
}

Real mlenc_binary_score(double x0, double x1) {
  Real s(0.125);
  for (const MlencVote& v : kMlencBinaryVotes)
    if (mlenc_leaves(x0, x1).count({v.tree, v.node})) s = s + Real(v.weight);
  return s;
}

TEST(EncloseMlModels, TreeEnsembleClassifierBinaryFormComplementsTheScore) {
  // Leaves (0,1)+(1,1), (0,1)+(1,2), (0,3)+(1,2), (0,4)+(1,1): s = 1.75, 1.125, -2.75, 1.125.
  const std::vector<float> x = {0.25f, 0.5f, 0.25f, -0.5f, 0.75f, -0.5f, 0.75f, 0.25f};
  for (const std::string& post : std::vector<std::string>{"NONE", "LOGISTIC"}) {
    SCOPED_TRACE(post);
    OneNodeModel m = mlenc_binary_trees(x, post);
    const Bounds real = mlenc_enclose(m, Semantics::Real, "z");
    std::vector<std::string> labels;
    for (int64_t r = 0; r < 4; ++r) {
      const Real s = mlenc_binary_score(x[static_cast<size_t>(2 * r)], x[static_cast<size_t>(2 * r + 1)]);
      const Real first = post == "NONE" ? Real(1) - s : -s;
      labels.push_back(s > first ? "yes" : "no");
      if (post == "NONE") {
        EXPECT_TRUE(mlenc_holds(bound_at(real, r * 2), first)) << "row " << r;
        EXPECT_TRUE(mlenc_holds(bound_at(real, r * 2 + 1), s)) << "row " << r;
      } else {
        EXPECT_TRUE(mlenc_holds(bound_at(real, r * 2), mlenc_logistic(mlenc_narrow(first)))) << "row " << r;
        EXPECT_TRUE(mlenc_holds(bound_at(real, r * 2 + 1), mlenc_logistic(mlenc_narrow(s)))) << "row " << r;
      }
    }
    EXPECT_TRUE(mlenc_enclose(m, Semantics::Admissible, "y").lo == Tensor::from_vector<std::string>({4}, labels));
    EXPECT_TRUE(mlenc_reference(m, "y") == Tensor::from_vector<std::string>({4}, labels));
    mlenc_expect_admissible(mlenc_enclose(m, Semantics::Admissible, "z"), real, mlenc_reference(m, "z"));
  }
}

// Leaves (0,4)+(1,2): s = 0.75 - 0.375 + 0.125 = 0.5 exactly, so under NONE 1 - s = s: the label is
// a tie, open under both semantics; under LOGISTIC s > 0 decides it.
TEST(EncloseMlModels, TreeEnsembleClassifierTieIsUndetermined) {
  const std::vector<float> x = {0.75f, -0.125f};
  for (Semantics s : {Semantics::Real, Semantics::Admissible})
    EXPECT_NE(thrown_message<Undetermined>([&] {
                mlenc_enclose(mlenc_binary_trees(x, "NONE"), s, "y");
              }).find("its label of row 0"),
              std::string::npos);
  EXPECT_TRUE(mlenc_enclose(mlenc_binary_trees(x, "LOGISTIC"), Semantics::Admissible, "y").lo ==
              Tensor::from_vector<std::string>({1}, {"yes"}));
}

TEST(EncloseMlModels, TreeEnsembleClassifierLabelOfAnUndefinedRowIsUndetermined) {
  OneNodeModel m = mlenc_binary_trees({std::nanf(""), 0.5f}, "NONE");
  EXPECT_NE(thrown_message<Undetermined>([&] { mlenc_enclose(m, Semantics::Real, "y"); }).find("reads an undefined feature"),
            std::string::npos);
}

}  // namespace
}  // namespace sonnx::enclose
