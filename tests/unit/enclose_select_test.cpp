// Enclosures of ArgMin, Hardmax, TopK, Unique, IsInf and IsNaN, and the Cast of floats to bool
// (enclose/enclose_select.cpp). On points worked out by hand (ties included, decided by the
// operator's rule: the first index, or the last with select_last_index); through Exp and Sin, whose
// results are intervals: decided where one outcome holds for every choice within them, with the
// exact values TopK and Unique select inside their enclosures and the reference's inside the
// admissible ones; Undetermined where two enclosures tie (e^x twice: equal, but the enclosures cannot
// know it) or an input is undefined.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "enclose_test_util.h"
#include "enclose/enclose_ops.h"
#include "sonnx/errors.h"

namespace sonnx::enclose {

namespace {
using sonnx::testing::kInf;

using sonnx::testing::attr_int;
using Attrs = std::vector<onnx::AttributeProto>;

Value ints(const Shape& s, const std::vector<int64_t>& v) { return Value(Tensor::from_vector<int64_t>(s, v)); }

std::vector<int64_t> int64s(const Bounds& b) {
  EXPECT_TRUE(b.exact());
  return b.lo.to_int64_vector();
}

std::vector<double> points(const Bounds& b) {
  std::vector<double> v;
  for (int64_t i = 0; i < b.lo.size(); ++i) {
    Interval e = bound_at(b, i);
    EXPECT_EQ(e.lo, e.hi) << "element " << i << " is no point";
    v.push_back(e.lo);
  }
  return v;
}

// Expects enclose_model to throw Undetermined naming the node and this input.
void expect_undetermined(const OneNodeModel& m, const std::string& node, Semantics s = Semantics::Real) {
  try {
    enclose_model(m.model, m.feed, s);
    ADD_FAILURE() << node << " should be undetermined";
  } catch (const Undetermined& e) {
    std::string what = e.what();
    EXPECT_NE(what.find(node), std::string::npos) << what;
    EXPECT_NE(what.find("at this input"), std::string::npos) << what;
  }
}

// op over Exp(x): every input an interval. Outputs y, y1, ...
OneNodeModel over_exp(const std::string& op, int64_t opset, const Value& x, const Attrs& attrs, size_t outputs = 1,
                      std::vector<std::pair<std::string, Value>> more = {}) {
  std::vector<std::string> in = {"e"}, out;
  for (size_t k = 0; k < outputs; ++k) out.push_back(k == 0 ? "y" : "y" + std::to_string(k));
  NamedValues feed = {{"x", x}};
  for (auto& [name, v] : more) in.push_back(name), feed[name] = v;
  onnx::NodeProto n = sonnx::testing::node(op, in, out, attrs);
  n.set_name("op_node");
  return graph_model(opset, {named_node("Exp", {"x"}, "e"), n}, feed, out);
}

// ---- ArgMin ----

TEST(EncloseSelect, ArgMinOfPointsTakesTheFirstOrLastMinimum) {
  Value x = floats({2, 3}, {3, 1, 2, 0, 5, 0});
  for (int64_t opset : {1, 11, 12, 13})
    EXPECT_EQ(int64s(enclose_output(one_node_model("ArgMin", opset, {x}, {attr_int("axis", 1), attr_int("keepdims", 0)}))),
              (std::vector<int64_t>{1, 0}))
        << "ArgMin-" << opset;
  EXPECT_EQ(int64s(enclose_output(one_node_model(
                "ArgMin", 12, {x}, {attr_int("axis", 1), attr_int("keepdims", 0), attr_int("select_last_index", 1)}))),
            (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(int64s(enclose_output(one_node_model("ArgMin", 13, {x}, {}))), (std::vector<int64_t>{1, 0, 1}));  // axis 0
}

TEST(EncloseSelect, ArgMinOfPointsWithTiesIsTheReferences) {
  std::mt19937 rng(61);
  std::uniform_int_distribution<int> level(0, 3), axis_pick(0, 2), coin(0, 1);
  const int64_t opsets[] = {1, 11, 12, 13};
  for (int t = 0; t < 40; ++t) {
    int64_t opset = opsets[t % 4];
    std::vector<float> x(5 * 6);
    for (float& v : x) v = static_cast<float>(level(rng));
    Attrs attrs = {attr_int("axis", axis_pick(rng) - 1), attr_int("keepdims", coin(rng))};
    if (opset >= 12) attrs.push_back(attr_int("select_last_index", coin(rng)));
    OneNodeModel m = one_node_model("ArgMin", opset, {floats({5, 6}, x)}, attrs);
    EXPECT_EQ(enclose_output(m).lo, reference_output(m)) << "ArgMin-" << opset;
  }
}

TEST(EncloseSelect, ArgMinThroughExpIsDecidedWhereTheMinimaAreApartAndOpenAtATie) {
  std::vector<float> x = {0.5f, -0.25f, 0.75f, 0.0f, 2.0f, 1.0f, -1.0f, 1.5f};
  OneNodeModel m = over_exp("ArgMin", 13, floats({2, 4}, x), {attr_int("axis", 1)});
  EXPECT_EQ(int64s(enclose_model(m.model, m.feed).at("y")), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(enclose_model(m.model, m.feed, Semantics::Admissible).at("y").lo, Interpreter(m.model).run(m.feed).at("y").tensor);
  x[3] = -0.25f;  // row 0 has e^−0.25 twice: two equal intervals
  expect_undetermined(over_exp("ArgMin", 13, floats({2, 4}, x), {attr_int("axis", 1)}), "op_node");
}

// ---- Hardmax ----

TEST(EncloseSelect, HardmaxOfPointsIsOneAtTheFirstMaximum) {
  Value x = floats({2, 3}, {1, 3, 3, 2, 0, 1});
  for (int64_t opset : {1, 11, 13})  // rows either way (axis 1 of a 2-D input)
    EXPECT_EQ(points(enclose_output(one_node_model("Hardmax", opset, {x}, {attr_int("axis", 1)}))),
              (std::vector<double>{0, 1, 0, 1, 0, 0}))
        << "Hardmax-" << opset;
  // Axis 0: versions 1 and 11 take the whole input as one row, 13 each column.
  for (int64_t opset : {1, 11})
    EXPECT_EQ(points(enclose_output(one_node_model("Hardmax", opset, {x}, {attr_int("axis", 0)}))),
              (std::vector<double>{0, 1, 0, 0, 0, 0}));
  EXPECT_EQ(points(enclose_output(one_node_model("Hardmax", 13, {x}, {attr_int("axis", 0)}))),
            (std::vector<double>{0, 1, 1, 1, 0, 0}));
}

TEST(EncloseSelect, HardmaxThroughExpIsTheReferencesAndOpenAtATie) {
  std::vector<float> x = {0.5f, -0.25f, 0.75f, 0.0f, 2.0f, 1.0f, -1.0f, 1.5f};
  OneNodeModel m = over_exp("Hardmax", 13, floats({2, 4}, x), {});
  Bounds b = enclose_model(m.model, m.feed, Semantics::Admissible).at("y");
  EXPECT_EQ(points(b), (std::vector<double>{0, 0, 1, 0, 1, 0, 0, 0}));
  Tensor r = Interpreter(m.model).run(m.feed).at("y").tensor;
  for (int64_t i = 0; i < 8; ++i) EXPECT_TRUE(bound_at(b, i).contains(r.as_double(i)));
  x[0] = 0.75f;
  expect_undetermined(over_exp("Hardmax", 13, floats({2, 4}, x), {}), "op_node");
}

// ---- TopK ----

TEST(EncloseSelect, TopKOfPointsSelectsInOrderWithTiesToTheLowerIndex) {
  Value x = floats({5}, {3, 1, 4, 1, 5});
  auto check = [](const OneNodeModel& m, std::vector<double> values, std::vector<int64_t> indices, const std::string& what) {
    auto out = enclose_model(m.model, m.feed);
    EXPECT_EQ(points(out.at("out0")), values) << what;
    EXPECT_EQ(int64s(out.at("out1")), indices) << what;
  };
  check(one_node_model("TopK", 1, {x}, {attr_int("k", 3)}, 2), {5, 4, 3}, {4, 2, 0}, "TopK-1");
  for (int64_t opset : {10, 11, 24})
    check(one_node_model("TopK", opset, {x, ints({1}, {3})}, {}, 2), {5, 4, 3}, {4, 2, 0}, "TopK-" + std::to_string(opset));
  for (int64_t opset : {11, 24})
    check(one_node_model("TopK", opset, {x, ints({1}, {2})}, {attr_int("largest", 0)}, 2), {1, 1}, {1, 3},
          "smallest, TopK-" + std::to_string(opset));
}

TEST(EncloseSelect, TopKThroughExpHoldsTheExactValuesAndDecidesTheIndices) {
  // Rows of [2, 5]; the two e^0.3 of row 1 tie but come after the k = 2 selected.
  std::vector<float> x = {0.1f, 1.2f, -0.4f, 0.8f, 0.5f, 2.0f, 0.3f, 1.0f, 0.3f, -1.0f};
  OneNodeModel m = over_exp("TopK", 11, floats({2, 5}, x), {}, 2, {{"k", ints({1}, {2})}});
  auto real = enclose_model(m.model, m.feed);
  auto admissible = enclose_model(m.model, m.feed, Semantics::Admissible);
  NamedValues r = Interpreter(m.model).run(m.feed);
  const std::vector<int64_t> want = {1, 3, 0, 2};  // row 0: e^1.2, e^0.8; row 1: e^2, e^1
  EXPECT_EQ(int64s(real.at("y1")), want);
  EXPECT_EQ(admissible.at("y1").lo, r.at("y1").tensor);
  for (int64_t j = 0; j < 4; ++j) {
    float chosen = x[static_cast<size_t>((j / 2) * 5 + want[static_cast<size_t>(j)])];
    Exact v(chosen, 200);
    mpfr_exp(v.get(), v.get(), MPFR_RNDN);
    Interval e = bound_at(real.at("y"), j), a = bound_at(admissible.at("y"), j);
    EXPECT_TRUE(v.inside(e)) << "value " << j;
    EXPECT_TRUE(a.contains(r.at("y").tensor.as_double(j))) << "value " << j;
    EXPECT_FALSE(a.contains(std::exp(static_cast<double>(x[static_cast<size_t>((j / 2) * 5 + 4)])))) << "a value not selected";
  }
  // k = 3 reaches the tie: which e^0.3 comes third is open.
  expect_undetermined(over_exp("TopK", 11, floats({2, 5}, x), {}, 2, {{"k", ints({1}, {3})}}), "op_node");
}

TEST(EncloseSelect, TopKWithAnOverlapInsideTheSelectedIsOpenAndUnsortedIsRefused) {
  // Row e^0.5, e^0.5: equal intervals, both selected: their order is open.
  expect_undetermined(over_exp("TopK", 24, floats({1, 3}, {0.5f, -1.0f, 0.5f}), {}, 2, {{"k", ints({1}, {2})}}), "op_node");
  OneNodeModel unsorted = over_exp("TopK", 11, floats({1, 3}, {0.5f, -1.0f, 0.25f}), {attr_int("sorted", 0)}, 2,
                                   {{"k", ints({1}, {2})}});
  EXPECT_THROW(enclose_model(unsorted.model, unsorted.feed), Unsupported);
}

// ---- Unique ----

TEST(EncloseSelect, UniqueOfPointsIsDecided) {
  Value x = floats({6}, {2, 1, 1, 3, 4, 3});
  struct Want {
    std::vector<double> y;
    std::vector<int64_t> indices, inverse, counts;
  };
  auto check = [](const OneNodeModel& m, const Want& w) {
    auto out = enclose_model(m.model, m.feed);
    EXPECT_EQ(points(out.at("out0")), w.y);
    EXPECT_EQ(int64s(out.at("out1")), w.indices);
    EXPECT_EQ(int64s(out.at("out2")), w.inverse);
    EXPECT_EQ(int64s(out.at("out3")), w.counts);
  };
  check(one_node_model("Unique", 11, {x}, {}, 4), {{1, 2, 3, 4}, {1, 0, 3, 4}, {1, 0, 0, 2, 3, 2}, {2, 1, 2, 1}});
  check(one_node_model("Unique", 11, {x}, {attr_int("sorted", 0)}, 4),
        {{2, 1, 3, 4}, {0, 1, 3, 4}, {0, 1, 1, 2, 3, 2}, {1, 2, 2, 1}});
  // Rows along axis 0: the first two are equal.
  check(one_node_model("Unique", 11, {floats({3, 3}, {1, 0, 0, 1, 0, 0, 2, 3, 4})}, {attr_int("axis", 0)}, 4),
        {{1, 0, 0, 2, 3, 4}, {0, 2}, {0, 0, 1}, {2, 1}});
}

TEST(EncloseSelect, UniqueThroughExpHoldsTheExactValuesAndIsOpenAtATie) {
  std::vector<float> x = {0.3f, -0.2f, 0.9f, 0.1f};
  OneNodeModel m = over_exp("Unique", 11, floats({4}, x), {}, 4);
  auto real = enclose_model(m.model, m.feed);
  auto admissible = enclose_model(m.model, m.feed, Semantics::Admissible);
  NamedValues r = Interpreter(m.model).run(m.feed);
  const std::vector<int64_t> first = {1, 3, 0, 2};  // ascending
  EXPECT_EQ(int64s(real.at("y1")), first);
  EXPECT_EQ(int64s(real.at("y2")), (std::vector<int64_t>{2, 0, 3, 1}));
  EXPECT_EQ(int64s(real.at("y3")), (std::vector<int64_t>{1, 1, 1, 1}));
  for (int k : {1, 2, 3}) EXPECT_EQ(admissible.at("y" + std::to_string(k)).lo, r.at("y" + std::to_string(k)).tensor);
  for (int64_t j = 0; j < 4; ++j) {
    Exact v(x[static_cast<size_t>(first[static_cast<size_t>(j)])], 200);
    mpfr_exp(v.get(), v.get(), MPFR_RNDN);
    EXPECT_TRUE(v.inside(bound_at(real.at("y"), j))) << "Y " << j;
    EXPECT_TRUE(bound_at(admissible.at("y"), j).contains(r.at("y").tensor.as_double(j))) << "Y " << j;
    EXPECT_FALSE(
        bound_at(admissible.at("y"), j).contains(std::exp(static_cast<double>(x[(first[static_cast<size_t>(j)] + 1) % 4]))));
  }
  x[3] = 0.3f;  // e^0.3 twice: equal, and the enclosures cannot tell
  expect_undetermined(over_exp("Unique", 11, floats({4}, x), {}, 4), "op_node");
}

// ---- IsInf, IsNaN ----

TEST(EncloseSelect, IsInfAndIsNaNOfPointsAreDecided) {
  Value x = floats({5}, {-1.2f, kInf, -kInf, 2.8f, 0});
  auto bools = [](const Bounds& b) {
    EXPECT_EQ(b.type, DType::Bool);
    std::vector<bool> v;
    for (int64_t i = 0; i < b.lo.size(); ++i) v.push_back(b.lo.data<bool>()[i]);
    return v;
  };
  for (int64_t opset : {10, 20}) {
    EXPECT_EQ(bools(enclose_output(one_node_model("IsInf", opset, {x}))), (std::vector<bool>{false, true, true, false, false}));
    EXPECT_EQ(bools(enclose_output(one_node_model("IsInf", opset, {x}, {attr_int("detect_positive", 0)}))),
              (std::vector<bool>{false, false, true, false, false}));
    EXPECT_EQ(bools(enclose_output(one_node_model("IsInf", opset, {x}, {attr_int("detect_negative", 0)}))),
              (std::vector<bool>{false, true, false, false, false}));
  }
  for (int64_t opset : {9, 13, 20})
    EXPECT_EQ(bools(enclose_output(one_node_model("IsNaN", opset, {x}))), (std::vector<bool>(5, false)));
}

TEST(EncloseSelect, IsInfAndIsNaNAreOpenWhereTheInputIsUndefinedOrMayBeInfinite) {
  // An undefined element (a NaN input) decides nothing.
  Value nan = floats({2}, {1.0f, std::numeric_limits<float>::quiet_NaN()});
  expect_undetermined(one_node_model("IsNaN", 13, {nan}), "node");
  expect_undetermined(one_node_model("IsInf", 20, {nan}), "node");
  // e^100 is a finite real, but in float it may overflow: decided under `real`, open under `admissible`.
  OneNodeModel big = over_exp("IsInf", 20, floats({1}, {100.0f}), {});
  EXPECT_FALSE(enclose_model(big.model, big.feed).at("y").lo.data<bool>()[0]);
  expect_undetermined(big, "op_node", Semantics::Admissible);
  // e^1000 lies beyond the doubles: [DBL_MAX, +∞] even under `real`.
  expect_undetermined(over_exp("IsInf", 20, floats({1}, {1000.0f}), {}), "op_node");
  OneNodeModel finite = over_exp("IsNaN", 20, floats({2}, {1000.0f, -3.0f}), {});
  EXPECT_FALSE(enclose_model(finite.model, finite.feed).at("y").lo.data<bool>()[0]);
}

// ---- Cast to bool ----

TEST(EncloseSelect, FloatToBoolIsDecidedWhereTheEnclosureExcludesZeroOrIsZero) {
  OneNodeModel m = one_node_model("Cast", 13, {floats({1}, {1.0f})}, {attr_int("to", static_cast<int64_t>(DType::Bool))});
  Interpreter reference(m.model);
  const Node& node = m.model.graph.nodes.at(0);
  auto cast = [&](std::vector<Interval> v) {
    Bounds x = float_bounds(DType::Float, {static_cast<int64_t>(v.size())});
    for (size_t i = 0; i < v.size(); ++i) set(x, static_cast<int64_t>(i), v[i]);
    OpCall call(node, 13, {&x}, reference, 13, Semantics::Real);
    return float_to_bool(call, x);
  };
  const double inf = std::numeric_limits<double>::infinity();
  Bounds b = cast({{0.5, 1}, {0, 0}, {-2, -1e-30}, {inf, inf}, {-0.0, 0.0}, {-inf, -1}});
  ASSERT_EQ(b.type, DType::Bool);
  const bool want[] = {true, false, true, true, false, true};
  for (int64_t i = 0; i < 6; ++i) EXPECT_EQ(b.lo.data<bool>()[i], want[i]) << "element " << i;
  EXPECT_THROW(cast({{-1, 1}}), Undetermined);
  EXPECT_THROW(cast({{0, 1e-300}}), Undetermined);
  EXPECT_THROW(cast({Interval::undefined()}), Undetermined);
}

}  // namespace
}  // namespace sonnx::enclose
