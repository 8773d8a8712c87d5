// The enclosure of Gradient-1 (enclose/enclose_gradient.cpp; spec/accuracy.md, "Gradient"): on
// e = a·(a + b)/b with b broadcast along a's rows, de/da = (2a + b)/b and de/db = −Σ_rows a²/b²,
// evaluated through MPFR (2200 bits: exact but for the quotients, far below a double's ulp). For
// every element: (a) the exact value lies in the real enclosure, (b) the reference's output in the
// admissible one, (c) admissible ⊇ real, (d) a value 2^-10 relative off the reference lies outside.
// A value of xs that y does not depend on has the exact gradient 0.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "enclose_test_util.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_string;
using sonnx::testing::attr_strings;
using sonnx::testing::vi;

// a (2×3), b (3), u (2); Gradient of e with respect to a, b and u.
OneNodeModel gradient_model(const std::vector<float>& a, const std::vector<float>& b) {
  NamedValues feed{{"a", floats({2, 3}, a)}, {"b", floats({3}, b)}, {"u", floats({2}, {1, 2})}};
  std::vector<onnx::NodeProto> nodes{named_node("Add", {"a", "b"}, "c"), named_node("Mul", {"a", "c"}, "d"),
                                     named_node("Div", {"d", "b"}, "e")};
  onnx::NodeProto gradient = sonnx::testing::node("Gradient", {"a", "b", "u"}, {"da", "db", "du"},
                                                  {attr_strings("xs", {"a", "b", "u"}), attr_string("y", "e")},
                                                  "ai.onnx.preview.training");
  gradient.set_name("gradient");
  nodes.push_back(gradient);
  onnx::GraphProto g = sonnx::testing::graph("g", nodes, {vi("a"), vi("b"), vi("u")}, {vi("da"), vi("db"), vi("du")});
  return {model_of(g, 18, {{"ai.onnx.preview.training", 1}}), std::move(feed)};
}

void expect_element(const Exact& exact, const Bounds& real, const Bounds& admissible, const Tensor& ref, int64_t i) {
  SCOPED_TRACE(i);
  Interval r = bound_at(real, i), adm = bound_at(admissible, i);
  double got = ref.as_double(i);
  EXPECT_TRUE(exact.inside(r)) << "[" << r.lo << ", " << r.hi << "]";
  EXPECT_TRUE(adm.lo <= got && got <= adm.hi) << got << " not in [" << adm.lo << ", " << adm.hi << "]";
  EXPECT_TRUE(adm.lo <= r.lo && r.hi <= adm.hi);
  double off = got + std::ldexp(1.0, std::ilogb(got == 0 ? 1.0 : got) - 10);
  EXPECT_FALSE(adm.lo <= off && off <= adm.hi) << off << " in [" << adm.lo << ", " << adm.hi << "]";
}

TEST(EncloseGradient, ReverseModeThroughAddMulAndABroadcastDiv) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<float> a = uniform_floats(6, rng, -2, 2), b = uniform_floats(3, rng, 0.5f, 2);
    OneNodeModel m = gradient_model(a, b);
    auto real = enclose_model(m.model, m.feed, Semantics::Real);
    auto admissible = enclose_model(m.model, m.feed, Semantics::Admissible);
    NamedValues ref = Interpreter(m.model).run(m.feed);
    for (int64_t i = 0; i < 6; ++i) {  // (2a + b)/b
      Exact x(a[static_cast<size_t>(i)]), y(b[static_cast<size_t>(i % 3)]);
      mpfr_mul_2ui(x.get(), x.get(), 1, MPFR_RNDN);
      mpfr_add(x.get(), x.get(), y.get(), MPFR_RNDN);
      mpfr_div(x.get(), x.get(), y.get(), MPFR_RNDN);
      expect_element(x, real.at("da"), admissible.at("da"), ref.at("da").tensor, i);
    }
    for (int64_t j = 0; j < 3; ++j) {  // −Σ_i a_ij²/b_j²
      Exact sum, y(b[static_cast<size_t>(j)]);
      for (int64_t i = 0; i < 2; ++i) {
        Exact t(a[static_cast<size_t>(3 * i + j)]);
        mpfr_sqr(t.get(), t.get(), MPFR_RNDN);
        mpfr_sub(sum.get(), sum.get(), t.get(), MPFR_RNDN);
      }
      mpfr_div(sum.get(), sum.get(), y.get(), MPFR_RNDN);
      mpfr_div(sum.get(), sum.get(), y.get(), MPFR_RNDN);
      expect_element(sum, real.at("db"), admissible.at("db"), ref.at("db").tensor, j);
    }
    const Bounds& du = admissible.at("du");  // e does not depend on u
    for (int64_t i = 0; i < 2; ++i) {
      EXPECT_EQ(bound_at(du, i).lo, 0);
      EXPECT_EQ(bound_at(du, i).hi, 0);
    }
  }
}

TEST(EncloseGradient, APathReadingAValueOutsideXsAndZsIsNotEnclosed) {
  OneNodeModel m = gradient_model({1, 2, 3, 4, 5, 6}, {1, 1, 1});
  // xs without b: the path's Add and Div read b, a graph input the Gradient node is not given.
  for (auto& n : m.model.graph.nodes)
    if (n.op_type == "Gradient") {
      n.inputs = {"a"};
      n.outputs = {"da"};
      for (auto& at : n.attributes)
        if (at.name == "xs") at.strings = {"a"};
    }
  m.model.graph.outputs.resize(1);
  try {
    enclose_model(m.model, m.feed, Semantics::Admissible);
    FAIL() << "enclosed";
  } catch (const Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("reads 'b', neither in xs or zs"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sonnx::enclose
