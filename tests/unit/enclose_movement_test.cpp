// Enclosures of GatherElements, ScatterElements, Scatter, GatherND, DepthToSpace, SpaceToDepth,
// Compress, ReverseSequence, OneHot, MaxUnpool, TensorScatter, Dropout, Round, Sign, Upsample and
// Col2Im (enclose/enclose_movement.cpp). The float inputs pass through Exp first, so they are
// intervals, not points. On small inputs whose result is worked out by hand (which input element
// each output element is, from the operator's definition): the exact value of that element (MPFR at
// 200 bits) lies in the real enclosure, the reference's result in the admissible one, and the value
// of another element in neither. The sums (ScatterElements' add and mul, Col2Im, Upsample's linear
// mode) against their exact values; Dropout in training, OneHot's float indices and Sign near 0
// where the bounds do not decide.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <string>
#include <vector>

#include "enclose_test_util.h"
#include "sonnx/errors.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_float;
using sonnx::testing::attr_floats;
using sonnx::testing::attr_int;
using sonnx::testing::attr_string;
using Attrs = std::vector<onnx::AttributeProto>;

// Floats base + 0.1·(j + 1): their exponentials are 10% apart.
Value spaced(const Shape& s, float base) {
  std::vector<float> v(static_cast<size_t>(shape_size(s)));
  for (size_t j = 0; j < v.size(); ++j) v[j] = base + 0.1f * static_cast<float>(j + 1);
  return floats(s, v);
}
Value ints(const Shape& s, const std::vector<int64_t>& v) { return Value(Tensor::from_vector<int64_t>(s, v)); }
Value bools(const Shape& s, const std::vector<bool>& v) {
  Tensor t(DType::Bool, s);
  for (size_t i = 0; i < v.size(); ++i) t.data<bool>()[i] = v[i];
  return Value(t);
}

// An input of the operator: through Exp (the operator reads e^x, an interval) or as given.
struct In {
  Value v;
  bool exp = false;
};
In through_exp(Value v) { return {std::move(v), true}; }
In given(Value v) { return {std::move(v), false}; }

// Where output element i comes from: element `element` of input `input`, or (input −1) 0.
struct Src {
  int input = -1;
  int64_t element = 0;
};

struct Case {
  std::string op;
  int64_t opset = 0;
  std::vector<In> in;
  Attrs attrs;
  std::vector<Src> want;  // output 0, element by element
  size_t outputs = 1;
};

// Output k of the case's operator is "y" (k = 0) or "y<k>"; input k is graph input "x<k>".
OneNodeModel case_model(const Case& t) {
  std::vector<onnx::NodeProto> nodes;
  NamedValues feed;
  std::vector<std::string> names, outs;
  for (size_t k = 0; k < t.in.size(); ++k) {
    if (t.in[k].v.kind == Value::Kind::None) {
      names.emplace_back();
      continue;
    }
    std::string x = "x" + std::to_string(k);
    feed[x] = t.in[k].v;
    if (t.in[k].exp) nodes.push_back(named_node("Exp", {x}, "e" + std::to_string(k)));
    names.push_back(t.in[k].exp ? "e" + std::to_string(k) : x);
  }
  for (size_t k = 0; k < t.outputs; ++k) outs.push_back(k == 0 ? "y" : "y" + std::to_string(k));
  onnx::NodeProto n = sonnx::testing::node(t.op, names, outs, t.attrs);
  n.set_name("op_node");
  nodes.push_back(n);
  return graph_model(t.opset, nodes, feed, outs);
}

// The exact value of element j of the case's input k into v (200 bits).
void exact_input(const Case& t, int k, int64_t j, Exact& v) {
  const In& in = t.in[static_cast<size_t>(k)];
  mpfr_set_d(v.get(), in.v.tensor.as_double(j), MPFR_RNDN);
  if (in.exp) mpfr_exp(v.get(), v.get(), MPFR_RNDN);
}
double approx_input(const Case& t, const Src& s) {
  if (s.input < 0) return 0;
  const In& in = t.in[static_cast<size_t>(s.input)];
  double x = in.v.tensor.as_double(s.element);
  return in.exp ? std::exp(x) : x;
}

void check_case(const Case& t) {
  SCOPED_TRACE(t.op + "-" + std::to_string(t.opset));
  OneNodeModel m = case_model(t);
  Bounds real = enclose_model(m.model, m.feed).at("y");
  Bounds admissible = enclose_model(m.model, m.feed, Semantics::Admissible).at("y");
  Tensor r = Interpreter(m.model).run(m.feed).at("y").tensor;
  ASSERT_EQ(real.type, DType::Float);
  ASSERT_EQ(real.lo.shape(), r.shape());
  ASSERT_EQ(r.size(), static_cast<int64_t>(t.want.size()));
  for (size_t i = 0; i < t.want.size(); ++i) {
    SCOPED_TRACE("output element " + std::to_string(i));
    auto k = static_cast<int64_t>(i);
    const Src& s = t.want[i];
    Exact v(0, 200);
    if (s.input >= 0) exact_input(t, s.input, s.element, v);
    Interval e = bound_at(real, k), a = bound_at(admissible, k);
    EXPECT_TRUE(v.inside(e)) << "[" << e.lo << ", " << e.hi << "]";
    EXPECT_TRUE(a.contains(r.as_double(k))) << r.as_double(k) << " outside [" << a.lo << ", " << a.hi << "]";
    for (const Src& other : t.want)  // every other element's value: at least 4% away
      if (std::fabs(approx_input(t, other) - approx_input(t, s)) > 0.04 * std::fabs(approx_input(t, s))) {
        EXPECT_FALSE(a.contains(approx_input(t, other))) << "the value of input " << other.input << "'s " << other.element;
        EXPECT_FALSE(e.contains(approx_input(t, other)));
      }
  }
}

std::vector<Src> of(int input, const std::vector<int64_t>& elements) {
  std::vector<Src> s;
  for (int64_t e : elements) s.push_back({input, e});
  return s;
}

// ---- lifted: each output element is an input element ----

TEST(EncloseMovement, GatherElementsAndGatherNDTakeTheIndexedElements) {
  for (int64_t opset : {11, 13}) {
    check_case({"GatherElements",
                opset,
                {through_exp(spaced({2, 2}, 0)), given(ints({2, 2}, {0, 0, 1, 0}))},
                {attr_int("axis", 1)},
                of(0, {0, 0, 3, 2})});
    check_case({"GatherElements", opset, {through_exp(spaced({2, 2}, 0)), given(ints({1, 2}, {-1, 0}))}, {}, of(0, {2, 1})});
  }
  for (int64_t opset : {11, 12, 13})
    check_case({"GatherND", opset, {through_exp(spaced({2, 2}, 0)), given(ints({2, 2}, {0, 0, 1, 1}))}, {}, of(0, {0, 3})});
}

TEST(EncloseMovement, ScatterElementsAndScatterReplaceKeepTheMaxOrTheMin) {
  // out[indices[i][j]][j] = updates[i][j] along axis 0, worked out element by element.
  const std::vector<Src> replaced = {{2, 3}, {2, 1}, {0, 2}, {2, 0}, {0, 4}, {2, 5}, {0, 6}, {2, 4}, {2, 2}};
  auto inputs = [] {
    return std::vector<In>{through_exp(spaced({3, 3}, 0)), given(ints({2, 3}, {1, 0, 2, 0, 2, 1})),
                           through_exp(spaced({2, 3}, 2))};
  };
  for (int64_t opset : {11, 13, 16, 18}) check_case({"ScatterElements", opset, inputs(), {}, replaced});
  for (int64_t opset : {9, 11}) check_case({"Scatter", opset, inputs(), {attr_int("axis", 0)}, replaced});
  // Along axis 1 onto data e^0.1 … e^0.5: e^0.05 < e^0.2 stays below element 1, e^0.9 > e^0.4.
  auto onto_row = [] {
    return std::vector<In>{through_exp(spaced({1, 5}, 0)), given(ints({1, 2}, {1, 3})),
                           through_exp(floats({1, 2}, {0.05f, 0.9f}))};
  };
  check_case({"ScatterElements",
              18,
              onto_row(),
              {attr_int("axis", 1), attr_string("reduction", "max")},
              {{0, 0}, {0, 1}, {0, 2}, {2, 1}, {0, 4}}});
  check_case({"ScatterElements",
              18,
              onto_row(),
              {attr_int("axis", 1), attr_string("reduction", "min")},
              {{0, 0}, {2, 0}, {0, 2}, {0, 3}, {0, 4}}});
}

TEST(EncloseMovement, DepthToSpaceAndSpaceToDepthMoveTheBlocks) {
  // [1, 8, 1, 1] to [1, 2, 2, 2]: output (c, i, j) reads channel (i·2 + j)·2 + c (DCR) or c·4 + i·2 + j (CRD).
  const std::vector<int64_t> dcr = {0, 2, 4, 6, 1, 3, 5, 7}, crd = {0, 1, 2, 3, 4, 5, 6, 7};
  for (int64_t opset : {6, 11, 13})  // 6: DepthToSpace-1 beside Exp-6
    check_case({"DepthToSpace", opset, {through_exp(spaced({1, 8, 1, 1}, 0))}, {attr_int("blocksize", 2)}, of(0, dcr)});
  for (int64_t opset : {11, 13})
    check_case({"DepthToSpace",
                opset,
                {through_exp(spaced({1, 8, 1, 1}, 0))},
                {attr_int("blocksize", 2), attr_string("mode", "CRD")},
                of(0, crd)});
  // [1, 2, 2, 2] to [1, 8, 1, 1]: output channel (i·2 + j)·2 + c reads x[c][i][j].
  for (int64_t opset : {6, 13})
    check_case({"SpaceToDepth",
                opset,
                {through_exp(spaced({1, 2, 2, 2}, 0))},
                {attr_int("blocksize", 2)},
                of(0, {0, 4, 1, 5, 2, 6, 3, 7})});
}

TEST(EncloseMovement, CompressAndReverseSequenceSelectAndReverse) {
  for (int64_t opset : {9, 11}) {
    check_case({"Compress",
                opset,
                {through_exp(spaced({3, 2}, 0)), given(bools({3}, {false, true, true}))},
                {attr_int("axis", 0)},
                of(0, {2, 3, 4, 5})});
    check_case({"Compress", opset, {through_exp(spaced({3, 2}, 0)), given(bools({3}, {true, false, true}))}, {}, of(0, {0, 2})});
  }
  check_case({"Compress",
              11,
              {through_exp(spaced({3, 2}, 0)), given(bools({2}, {false, true}))},
              {attr_int("axis", -1)},
              of(0, {1, 3, 5})});
  // x[t][b], time along axis 0: batch 0 reversed over 4 steps, batch 1 over its first 2.
  check_case({"ReverseSequence",
              10,
              {through_exp(spaced({4, 2}, 0)), given(ints({2}, {4, 2}))},
              {attr_int("time_axis", 0), attr_int("batch_axis", 1)},
              of(0, {6, 3, 4, 1, 2, 5, 0, 7})});
}

TEST(EncloseMovement, OneHotMaxUnpoolAndTensorScatterPlaceTheirValues) {
  // Rows for indices 1, −1 (the last from version 11; all off in 9) and 0: values [off, on].
  const std::vector<Src> v11 = of(2, {0, 1, 0, 0, 0, 1, 1, 0, 0}), v9 = of(2, {0, 1, 0, 0, 0, 0, 1, 0, 0});
  auto inputs = [] {
    return std::vector<In>{given(ints({3}, {1, -1, 0})), given(ints({}, {3})), through_exp(floats({2}, {-1.0f, 1.0f}))};
  };
  check_case({"OneHot", 11, inputs(), {}, v11});
  check_case({"OneHot", 9, inputs(), {}, v9});
  // Float indices and depth, given (points): truncated as Cast does, 1.7 to 1 and 0.2 to 0.
  check_case({"OneHot",
              11,
              {given(floats({2}, {1.7f, 0.2f})), given(floats({1}, {3.0f})), through_exp(floats({2}, {-1.0f, 1.0f}))},
              {},
              of(2, {0, 1, 0, 1, 0, 0})});
  // Kernel 2 and stride 2 over 4×4: the pooled values back at positions 5, 2, 12 and 15, 0 elsewhere.
  std::vector<Src> unpooled(16);
  unpooled[5] = {0, 0}, unpooled[2] = {0, 1}, unpooled[12] = {0, 2}, unpooled[15] = {0, 3};
  for (int64_t opset : {9, 11, 22})
    check_case({"MaxUnpool",
                opset,
                {through_exp(spaced({1, 1, 2, 2}, 0)), given(ints({1, 1, 2, 2}, {5, 2, 12, 15}))},
                {sonnx::testing::attr_ints("kernel_shape", {2, 2}), sonnx::testing::attr_ints("strides", {2, 2})},
                unpooled});
  // Cache [2, 4, 1]: batch 0 written at position 1, batch 1 at 3 (linear); circular: [2, 2, 1] updates
  // from positions 3 and 2, wrapping around.
  check_case({"TensorScatter",
              24,
              {through_exp(spaced({2, 4, 1}, 0)), through_exp(spaced({2, 1, 1}, 3)), given(ints({2}, {1, 3}))},
              {},
              {{0, 0}, {1, 0}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {0, 6}, {1, 1}}});
  check_case({"TensorScatter",
              24,
              {through_exp(spaced({2, 4, 1}, 0)), through_exp(spaced({2, 2, 1}, 3)), given(ints({2}, {3, 2}))},
              {attr_string("mode", "circular")},
              {{1, 1}, {0, 1}, {0, 2}, {1, 0}, {0, 4}, {0, 5}, {1, 2}, {1, 3}}});
}

TEST(EncloseMovement, UpsampleNearestRepeatsTheElements) {
  // X [1, 1, 2, 2] by 2 and 3: output (i, j) reads x[⌊i/2⌋][⌊j/3⌋].
  std::vector<Src> want;
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 6; ++j) want.push_back({0, (i / 2) * 2 + j / 3});
  check_case({"Upsample", 9, {through_exp(spaced({1, 1, 2, 2}, 0)), given(floats({4}, {1, 1, 2, 3}))}, {}, want});
  check_case({"Upsample", 7, {through_exp(spaced({1, 1, 2, 2}, 0))}, {attr_floats("scales", {1, 1, 2, 3})}, want});
  check_case({"Upsample",
              6,  // Upsample-1 beside Exp-6
              {through_exp(spaced({1, 1, 2, 2}, 0))},
              {attr_float("height_scale", 2), attr_float("width_scale", 3)},
              want});
}

// ---- Dropout ----

TEST(EncloseMovement, DropoutInInferenceIsTheIdentityWithAMaskOfOnes) {
  struct Version {
    int64_t opset;
    std::vector<In> in;
    Attrs attrs;
  };
  const std::vector<Version> versions = {
      {6, {through_exp(spaced({4}, 0))}, {attr_int("is_test", 1)}},
      {7, {through_exp(spaced({4}, 0))}, {attr_float("ratio", 0.3f)}},
      {10, {through_exp(spaced({4}, 0))}, {}},
      {12, {through_exp(spaced({4}, 0))}, {}},
      {13, {through_exp(spaced({4}, 0)), given(floats({}, {0.5f})), given(bools({}, {false}))}, {}},
      {22, {through_exp(spaced({4}, 0)), given(floats({}, {0.5f})), given(bools({}, {false}))}, {}},
      {22, {through_exp(spaced({4}, 0)), given(floats({}, {0.0f})), given(bools({}, {true}))}, {}},  // nothing dropped
  };
  for (const Version& v : versions) {
    Case t{"Dropout", v.opset, v.in, v.attrs, of(0, {0, 1, 2, 3}), 2};
    check_case(t);
    OneNodeModel m = case_model(t);
    Bounds mask = enclose_model(m.model, m.feed).at("y1");
    ASSERT_EQ(mask.lo.size(), 4);
    for (int64_t i = 0; i < 4; ++i) {
      if (v.opset < 10) {  // of the data type: 1
        EXPECT_EQ(mask.type, DType::Float);
        EXPECT_EQ(bound_at(mask, i).lo, 1.0);
        EXPECT_EQ(bound_at(mask, i).hi, 1.0);
      } else {
        ASSERT_EQ(mask.type, DType::Bool);
        EXPECT_TRUE(mask.lo.data<bool>()[i]) << "Dropout-" << v.opset;
      }
    }
  }
}

TEST(EncloseMovement, DropoutInTrainingIsRandomAndNotEnclosed) {
  const std::vector<Case> training = {
      {"Dropout", 6, {through_exp(spaced({4}, 0))}, {}, {}, 1},  // is_test defaults to 0
      {"Dropout", 22, {through_exp(spaced({4}, 0)), given(floats({}, {0.5f})), given(bools({}, {true}))}, {}, {}, 1},
      {"Dropout", 13, {through_exp(spaced({4}, 0)), given(Value()), given(bools({}, {true}))}, {}, {}, 1},  // ratio 0.5
  };
  for (const Case& t : training) {
    OneNodeModel m = case_model(t);
    try {
      enclose_model(m.model, m.feed);
      ADD_FAILURE() << "Dropout-" << t.opset << " in training was enclosed";
    } catch (const Unsupported& e) {
      EXPECT_NE(std::string(e.what()).find("no enclosure for Dropout-" + std::to_string(t.opset) + " in training mode"),
                std::string::npos)
          << e.what();
    }
  }
}

// ---- Round and Sign: nondecreasing, exact ----

TEST(EncloseMovement, RoundHalvesToEvenAndHoldsTheRoundedExactValue) {
  const std::vector<float> x = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 2.4999998f, 0.49999997f, -0.0f, 1e9f, 3.7f, -3.7f};
  const std::vector<double> want = {0, 2, 2, -0.0, -2, -2, 2, 0, -0.0, 1e9, 4, -4};
  for (int64_t opset : {11, 22}) {
    Bounds b = enclose_output(one_node_model("Round", opset, {floats({12}, x)}));
    for (int64_t i = 0; i < 12; ++i) {
      EXPECT_EQ(bound_at(b, i).lo, want[static_cast<size_t>(i)]) << "Round(" << x[static_cast<size_t>(i)] << ")";
      EXPECT_EQ(bound_at(b, i).hi, want[static_cast<size_t>(i)]) << "Round(" << x[static_cast<size_t>(i)] << ")";
    }
  }
  // Of e^x, x from −2 to 2.5: the exact e^x rounded to the nearest integer (never a tie).
  std::vector<float> y;
  for (int i = -20; i <= 25; ++i) y.push_back(0.1f * static_cast<float>(i));
  Case t{"Round", 22, {through_exp(floats({46}, y))}, {}, {}};
  OneNodeModel m = case_model(t);
  Bounds real = enclose_model(m.model, m.feed).at("y"),
         admissible = enclose_model(m.model, m.feed, Semantics::Admissible).at("y");
  Tensor r = Interpreter(m.model).run(m.feed).at("y").tensor;
  for (int64_t i = 0; i < 46; ++i) {
    Exact v(y[static_cast<size_t>(i)], 200);
    mpfr_exp(v.get(), v.get(), MPFR_RNDN);
    mpfr_rint(v.get(), v.get(), MPFR_RNDN);
    EXPECT_TRUE(v.inside(bound_at(real, i))) << "x = " << y[static_cast<size_t>(i)];
    EXPECT_TRUE(bound_at(admissible, i).contains(r.as_double(i)));
    EXPECT_FALSE(bound_at(real, i).contains(mpfr_get_d(v.get(), MPFR_RNDN) + 1)) << "x = " << y[static_cast<size_t>(i)];
  }
}

TEST(EncloseMovement, SignIsDecidedAwayFromZeroAndSpansZeroNearIt) {
  const std::vector<float> x = {-2, -0.0f, 0, 1e-45f, -std::numeric_limits<float>::infinity(), 3e38f};
  const std::vector<double> want = {-1, 0, 0, 1, -1, 1};
  for (int64_t opset : {9, 13}) {
    Bounds b = enclose_output(one_node_model("Sign", opset, {floats({6}, x)}));
    for (int64_t i = 0; i < 6; ++i) {
      EXPECT_EQ(bound_at(b, i).lo, want[static_cast<size_t>(i)]) << "Sign(" << x[static_cast<size_t>(i)] << ")";
      EXPECT_EQ(bound_at(b, i).hi, want[static_cast<size_t>(i)]) << "Sign(" << x[static_cast<size_t>(i)] << ")";
    }
  }
  // sin(π as a float) ≈ −8.7e-8 is decided negative; e^x − e^x is an interval around its exact 0.
  OneNodeModel m = graph_model(13,
                               {named_node("Sin", {"p"}, "s"), named_node("Sign", {"s"}, "sign_s"),
                                named_node("Exp", {"x"}, "e"), named_node("Sub", {"e", "e"}, "d"),
                                named_node("Sign", {"d"}, "sign_d")},
                               {{"p", floats({1}, {3.14159265f})}, {"x", floats({1}, {0.7f})}}, {"sign_s", "sign_d"});
  auto real = enclose_model(m.model, m.feed);
  EXPECT_EQ(bound_at(real.at("sign_s"), 0).lo, -1.0);
  EXPECT_EQ(bound_at(real.at("sign_s"), 0).hi, -1.0);
  Interval d = bound_at(real.at("sign_d"), 0);
  EXPECT_TRUE(d.contains(0)) << "the exact e^0.7 − e^0.7";
  EXPECT_EQ(d.lo, -1.0);
  EXPECT_EQ(d.hi, 1.0);
}

// ---- sums: ScatterElements' add and mul, Col2Im, Upsample's linear mode ----

TEST(EncloseMovement, ScatterElementsAddAndMulHoldTheExactSumAndProduct) {
  // Both updates land on element 1: d1 + u0 + u1, d1·u0·u1; the others stay.
  for (const char* reduction : {"add", "mul"})
    for (int64_t opset : {16, 18}) {
      SCOPED_TRACE(std::string(reduction) + " at opset " + std::to_string(opset));
      Case t{"ScatterElements",
             opset,
             {through_exp(spaced({1, 3}, 0)), given(ints({1, 2}, {1, 1})), through_exp(floats({1, 2}, {-0.7f, 0.45f}))},
             {attr_int("axis", 1), attr_string("reduction", reduction)},
             {}};
      OneNodeModel m = case_model(t);
      Bounds real = enclose_model(m.model, m.feed).at("y");
      Bounds admissible = enclose_model(m.model, m.feed, Semantics::Admissible).at("y");
      Tensor r = Interpreter(m.model).run(m.feed).at("y").tensor;
      Exact d(0, 200), u(0, 200);
      exact_input(t, 0, 1, d);
      for (int64_t j = 0; j < 2; ++j) {
        exact_input(t, 2, j, u);
        if (std::string(reduction) == "add") mpfr_add(d.get(), d.get(), u.get(), MPFR_RNDN);
        else mpfr_mul(d.get(), d.get(), u.get(), MPFR_RNDN);
      }
      Interval e = bound_at(real, 1);
      EXPECT_TRUE(d.inside(e)) << "[" << e.lo << ", " << e.hi << "]";
      EXPECT_LE(ulps_of_double(e), 64.0) << "a sum of three";
      double exact = mpfr_get_d(d.get(), MPFR_RNDN);
      EXPECT_TRUE(bound_at(admissible, 1).contains(r.as_double(1)));
      EXPECT_FALSE(bound_at(admissible, 1).contains(exact * (1 + 0x1p-12))) << "a few float roundings at most";
      for (int64_t j : {0, 2}) {
        Exact keep(0, 200);
        exact_input(t, 0, j, keep);
        EXPECT_TRUE(keep.inside(bound_at(real, j)));
        EXPECT_TRUE(bound_at(admissible, j).contains(r.as_double(j)));
      }
    }
}

// Col2Im by its definition: block offset (ki, kj) of block (li, lj) lands on (li·s0 + ki·d0 − p0,
// lj·s1 + kj·d1 − p1), if inside the image; the input's row is the offset ki·bw + kj, its column
// the block li·cols + lj.
TEST(EncloseMovement, Col2ImHoldsTheExactSumsOfTheOverlappingBlocks) {
  struct Geometry {
    int64_t image[2], block[2], dilation[2], stride[2], pad[4];
  };
  const Geometry geometries[] = {
      {{3, 3}, {2, 2}, {1, 1}, {1, 1}, {0, 0, 0, 0}},  // overlapping: the centre sums four
      {{4, 5}, {2, 3}, {1, 1}, {2, 1}, {1, 0, 1, 0}},  // strides and pads
      {{5, 5}, {2, 2}, {2, 2}, {1, 1}, {0, 0, 0, 0}},  // dilations
  };
  for (const Geometry& g : geometries) {
    int64_t counts[2];
    for (int a = 0; a < 2; ++a)
      counts[a] = (g.image[a] + g.pad[a] + g.pad[a + 2] - g.dilation[a] * (g.block[a] - 1) - 1) / g.stride[a] + 1;
    const int64_t rows = g.block[0] * g.block[1], cols = counts[0] * counts[1], channels = 2;
    std::vector<float> x(static_cast<size_t>(channels * rows * cols));
    for (size_t j = 0; j < x.size(); ++j) x[j] = 0.05f * static_cast<float>(j % 37) - 0.9f;
    Attrs attrs = {sonnx::testing::attr_ints("dilations", {g.dilation[0], g.dilation[1]}),
                   sonnx::testing::attr_ints("strides", {g.stride[0], g.stride[1]}),
                   sonnx::testing::attr_ints("pads", {g.pad[0], g.pad[1], g.pad[2], g.pad[3]})};
    Case t{"Col2Im",
           18,
           {through_exp(floats({1, channels * rows, cols}, x)), given(ints({2}, {g.image[0], g.image[1]})),
            given(ints({2}, {g.block[0], g.block[1]}))},
           attrs,
           {}};
    OneNodeModel m = case_model(t);
    Bounds real = enclose_model(m.model, m.feed).at("y");
    Bounds admissible = enclose_model(m.model, m.feed, Semantics::Admissible).at("y");
    Tensor r = Interpreter(m.model).run(m.feed).at("y").tensor;
    const int64_t plane = g.image[0] * g.image[1];
    ASSERT_EQ(r.shape(), (Shape{1, channels, g.image[0], g.image[1]}));
    std::deque<Exact> sums;  // Exact does not move: built in place
    for (int64_t e = 0; e < channels * plane; ++e) sums.emplace_back(0, 200);
    Exact term(0, 200);
    for (int64_t c = 0; c < channels; ++c)
      for (int64_t ki = 0; ki < g.block[0]; ++ki)
        for (int64_t kj = 0; kj < g.block[1]; ++kj)
          for (int64_t li = 0; li < counts[0]; ++li)
            for (int64_t lj = 0; lj < counts[1]; ++lj) {
              int64_t p = li * g.stride[0] + ki * g.dilation[0] - g.pad[0], q = lj * g.stride[1] + kj * g.dilation[1] - g.pad[1];
              if (p < 0 || p >= g.image[0] || q < 0 || q >= g.image[1]) continue;
              exact_input(t, 0, (c * rows + ki * g.block[1] + kj) * cols + li * counts[1] + lj, term);
              Exact& s = sums[static_cast<size_t>(c * plane + p * g.image[1] + q)];
              mpfr_add(s.get(), s.get(), term.get(), MPFR_RNDN);
            }
    for (int64_t e = 0; e < channels * plane; ++e) {
      Exact& s = sums[static_cast<size_t>(e)];
      EXPECT_TRUE(s.inside(bound_at(real, e))) << "element " << e;
      EXPECT_TRUE(bound_at(admissible, e).contains(r.as_double(e))) << "element " << e;
      double exact = mpfr_get_d(s.get(), MPFR_RNDN);
      if (exact != 0) {
        EXPECT_FALSE(bound_at(admissible, e).contains(exact * (1 + 0x1p-12))) << "element " << e;
      }
    }
  }
}

// Upsample-7 linear (Resize-10's enclosure): x_original = o / scale, interpolated between ⌊x⌋ and
// ⌊x⌋ + 1, the last element repeating past the end.
TEST(EncloseMovement, UpsampleLinearHoldsTheExactInterpolation) {
  Case t{"Upsample",
         7,
         {through_exp(spaced({1, 1, 2, 3}, 0))},
         {attr_floats("scales", {1, 1, 2, 2}), attr_string("mode", "linear")},
         {}};
  OneNodeModel m = case_model(t);
  Bounds real = enclose_model(m.model, m.feed).at("y");
  Bounds admissible = enclose_model(m.model, m.feed, Semantics::Admissible).at("y");
  Tensor r = Interpreter(m.model).run(m.feed).at("y").tensor;
  ASSERT_EQ(r.shape(), (Shape{1, 1, 4, 6}));
  auto taps = [](int64_t o, int64_t in, int64_t& i0, int64_t& i1, double& frac) {  // scale 2
    double x = static_cast<double>(o) / 2;
    i0 = std::min<int64_t>(static_cast<int64_t>(std::floor(x)), in - 1);
    i1 = std::min<int64_t>(i0 + 1, in - 1);
    frac = x - std::floor(x);
  };
  for (int64_t oi = 0; oi < 4; ++oi)
    for (int64_t oj = 0; oj < 6; ++oj) {
      int64_t a0, a1, b0, b1;
      double fa, fb;
      taps(oi, 2, a0, a1, fa);
      taps(oj, 3, b0, b1, fb);
      Exact sum(0, 200), term(0, 200);
      const int64_t rows[2] = {a0, a1}, cols[2] = {b0, b1};
      const double wr[2] = {1 - fa, fa}, wc[2] = {1 - fb, fb};
      for (int u = 0; u < 2; ++u)
        for (int w = 0; w < 2; ++w) {
          exact_input(t, 0, rows[u] * 3 + cols[w], term);
          mpfr_mul_d(term.get(), term.get(), wr[u] * wc[w], MPFR_RNDN);  // weights in {0, ¼, ½, 1}: exact
          mpfr_add(sum.get(), sum.get(), term.get(), MPFR_RNDN);
        }
      int64_t e = oi * 6 + oj;
      EXPECT_TRUE(sum.inside(bound_at(real, e))) << "(" << oi << ", " << oj << ")";
      EXPECT_TRUE(bound_at(admissible, e).contains(r.as_double(e))) << "(" << oi << ", " << oj << ")";
      EXPECT_FALSE(bound_at(admissible, e).contains(mpfr_get_d(sum.get(), MPFR_RNDN) * (1 + 0x1p-12)));
    }
}

// ---- where float inputs choose ----

TEST(EncloseMovement, OneHotFloatIndicesChooseOnlyWhereTheyTruncateToOneInteger) {
  // (2 / 3)·3 is enclosed around 2 (2/3 is not a float): it truncates to 1 or 2.
  OneNodeModel m = graph_model(
      11,
      {named_node("Div", {"i", "three"}, "q"), named_node("Mul", {"q", "three"}, "idx"),
       named_node("OneHot", {"idx", "depth", "values"}, "y")},
      {{"i", floats({1}, {2.0f})}, {"three", floats({1}, {3.0f})}, {"depth", ints({}, {4})}, {"values", floats({2}, {0, 1})}},
      {"y"});
  try {
    enclose_model(m.model, m.feed);
    ADD_FAILURE() << "OneHot of an index around 2 was enclosed";
  } catch (const Undetermined& e) {
    EXPECT_NE(std::string(e.what()).find("y_node"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("indices"), std::string::npos) << e.what();
  }
  // 2.5 / 3 · 3 truncates to 2 whatever the rounding.
  m.feed["i"] = floats({1}, {2.5f});
  Bounds y = enclose_model(m.model, m.feed).at("y");
  const double want[] = {0, 0, 1, 0};
  for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(bound_at(y, i).lo, want[i]) << "element " << i;
}

}  // namespace
}  // namespace sonnx::enclose
