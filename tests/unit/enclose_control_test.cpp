// Enclosures through control flow (enclose/enclose_control.cpp; spec/accuracy.md, "Enclosures"):
// an If on an exact condition is its taken branch, walked with the outer values' bounds; a Loop
// with an exact trip count and condition is its body walked once per iteration. Checked: the exact
// real value (MPFR, by hand) lies in the real enclosure and the other branch's does not; the
// reference's output lies in the admissible enclosure; Attention-23's body, whose Ifs test the rank
// of Q, is enclosed on both of its branches; a Scan (versions 16 and 8) slices, carries and stacks
// as the reference; and what stays refused says why.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "enclose_test_util.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_graph;
using sonnx::testing::attr_int;
using sonnx::testing::bool_scalar;
using sonnx::testing::graph;
using sonnx::testing::i64_scalar;
using sonnx::testing::node;
using sonnx::testing::vi;

constexpr int64_t kControlOpset = 16;

// The reference's value of output `name`.
Tensor reference_value(const OneNodeModel& m, const std::string& name) {
  return Interpreter(m.model).run(m.feed).at(name).tensor;
}

// Every element of the float tensor `ref` lies in `b`.
void expect_contains_reference(const Bounds& b, const Tensor& ref) {
  ASSERT_EQ(b.lo.shape(), ref.shape());
  for (int64_t i = 0; i < ref.size(); ++i)
    EXPECT_TRUE(bound_at(b, i).contains(ref.as_double(i)))
        << "element " << i << ": " << ref.as_double(i) << " outside [" << bound_at(b, i).lo << ", " << bound_at(b, i).hi << "]";
}

// ---- If ----

const std::vector<float> kX = {1.1f, -2.3f, 3.7f};
const std::vector<float> kY = {0.3f, 5.9f, -1.7f};

// z = If(c) then x * y else x - y, both branches reading the outer x and y; x is read by a node
// before the If too (the walk must keep it for the branch).
OneNodeModel if_model(bool cond) {
  onnx::GraphProto then_g = graph("then", {node("Mul", {"x", "y"}, {"t"})}, {}, {vi("t")});
  onnx::GraphProto else_g = graph("else", {node("Sub", {"x", "y"}, {"e"})}, {}, {vi("e")});
  return graph_model(kControlOpset,
                     {node("Abs", {"x"}, {"ax"}),
                      node("If", {"c"}, {"z"}, {attr_graph("then_branch", then_g), attr_graph("else_branch", else_g)})},
                     {{"x", floats({3}, kX)}, {"y", floats({3}, kY)}, {"c", bool_scalar(cond)}}, {"ax", "z"});
}

TEST(EncloseControl, IfEnclosesTheBranchItsExactConditionTakes) {
  for (bool cond : {true, false}) {
    SCOPED_TRACE(cond ? "then" : "else");
    OneNodeModel m = if_model(cond);
    Bounds z = enclose_model(m.model, m.feed, Semantics::Real).at("z");
    ASSERT_EQ(z.lo.shape(), Shape{3});
    for (size_t i = 0; i < 3; ++i) {
      double x = kX[i], y = kY[i];
      Exact product, difference(x);
      product.add_product(x, y);
      mpfr_sub_d(difference.get(), difference.get(), y, MPFR_RNDN);  // exact at 2200 bits
      Interval zi = bound_at(z, static_cast<int64_t>(i));
      EXPECT_TRUE((cond ? product : difference).inside(zi)) << "element " << i;
      EXPECT_FALSE((cond ? difference : product).inside(zi)) << "element " << i << ": the other branch's value";
    }
    expect_contains_reference(enclose_model(m.model, m.feed, Semantics::Admissible).at("z"), reference_value(m, "z"));
  }
}

// An If inside the taken branch of an If reads the values of both enclosing graphs.
TEST(EncloseControl, NestedIfReadsEveryEnclosingScope) {
  onnx::GraphProto inner_then = graph("inner_then", {node("Add", {"x", "t0"}, {"u"})}, {}, {vi("u")});
  onnx::GraphProto inner_else = graph("inner_else", {node("Neg", {"t0"}, {"v"})}, {}, {vi("v")});
  onnx::GraphProto outer_then = graph("outer_then",
                                      {node("Mul", {"x", "y"}, {"t0"}),
                                       node("If", {"c"}, {"w"},
                                            {attr_graph("then_branch", inner_then), attr_graph("else_branch", inner_else)})},
                                      {}, {vi("w")});
  onnx::GraphProto outer_else = graph("outer_else", {node("Identity", {"y"}, {"q"})}, {}, {vi("q")});
  OneNodeModel m = graph_model(
      kControlOpset, {node("If", {"c"}, {"z"}, {attr_graph("then_branch", outer_then), attr_graph("else_branch", outer_else)})},
      {{"x", floats({3}, kX)}, {"y", floats({3}, kY)}, {"c", bool_scalar(true)}}, {"z"});
  Bounds z = enclose_model(m.model, m.feed, Semantics::Real).at("z");
  for (size_t i = 0; i < 3; ++i) {
    Exact sum(kX[i]);  // x + x * y
    sum.add_product(kX[i], kY[i]);
    EXPECT_TRUE(sum.inside(bound_at(z, static_cast<int64_t>(i)))) << "element " << i;
  }
  expect_contains_reference(enclose_model(m.model, m.feed, Semantics::Admissible).at("z"), reference_value(m, "z"));
}

// A refusal inside a branch names the operator, then the branch.
TEST(EncloseControl, ARefusalInsideABranchNamesTheBranch) {
  onnx::GraphProto then_g = graph("then", {node("RandomUniformLike", {"x"}, {"r"})}, {}, {vi("r")});
  onnx::GraphProto else_g = graph("else", {node("Identity", {"x"}, {"e"})}, {}, {vi("e")});
  OneNodeModel m = graph_model(
      kControlOpset, {node("If", {"c"}, {"z"}, {attr_graph("then_branch", then_g), attr_graph("else_branch", else_g)})},
      {{"x", floats({3}, kX)}, {"c", bool_scalar(true)}}, {"z"});
  std::string why = thrown_message<Unsupported>([&] { enclose_model(m.model, m.feed); });
  EXPECT_NE(why.find("no enclosure for RandomUniformLike-1, in the then_branch of If-16"), std::string::npos) << why;
  m.feed["c"] = bool_scalar(false);  // the branch not taken is not enclosed
  EXPECT_EQ(thrown_message<Unsupported>([&] { enclose_model(m.model, m.feed); }), "");
}

// ---- If in a function body: Attention-23 chooses by the rank of Q ----

std::vector<float> attention_values(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  return uniform_floats(n, rng, -1.0f, 1.0f);
}

void expect_attention_enclosed(const OneNodeModel& m) {
  Bounds real = enclose_output(m, Semantics::Real);
  Bounds admissible = enclose_output(m, Semantics::Admissible);
  Tensor ref = reference_output(m);
  expect_contains_reference(admissible, ref);
  // Roundings and exp, sqrt: neither enclosure is a point; every element is bounded.
  EXPECT_GT(widest_in_ulps(admissible), 0);
  EXPECT_GT(widest_in_ulps(real), 0);
  EXPECT_TRUE(std::isfinite(widest_in_ulps(admissible)));
}

// 4-D Q, K, V (batch 1, 2 heads, 3 positions, size 4): the body's Ifs take their else branches
// (the inputs as given, the heads kept).
TEST(EncloseControl, Attention23On4dInputsThroughItsBody) {
  OneNodeModel m = one_node_model("Attention", 23,
                                  {floats({1, 2, 3, 4}, attention_values(24, 1)), floats({1, 2, 3, 4}, attention_values(24, 2)),
                                   floats({1, 2, 3, 4}, attention_values(24, 3))});
  expect_attention_enclosed(m);
}

// 3-D Q, K, V (batch 1, 3 positions, 2 heads of size 4): the then branches split the heads
// (reading Q, K, V from the body's scope) and merge them back.
TEST(EncloseControl, Attention23On3dInputsThroughItsBody) {
  OneNodeModel m = one_node_model("Attention", 23,
                                  {floats({1, 3, 8}, attention_values(24, 4)), floats({1, 3, 8}, attention_values(24, 5)),
                                   floats({1, 3, 8}, attention_values(24, 6))},
                                  {attr_int("q_num_heads", 2), attr_int("kv_num_heads", 2)});
  expect_attention_enclosed(m);
}

// ---- Loop ----

// s = 0; repeat M times (while the body's condition, iteration < stop_after, holds): s = s + a;
// outputs the final s and each iteration's s stacked. The body reads a from the outer graph.
OneNodeModel loop_model(int64_t trips, int64_t stop_after) {
  onnx::GraphProto body = graph("body",
                                {node("Add", {"s_in", "a"}, {"s_out"}), node("Identity", {"s_out"}, {"s_scan"}),
                                 node("Less", {"iter", "stop"}, {"cond_out"})},
                                {vi("iter"), vi("cond_in"), vi("s_in")}, {vi("cond_out"), vi("s_out"), vi("s_scan")});
  return graph_model(kControlOpset, {node("Loop", {"M", "c", "s0"}, {"s_final", "s_all"}, {attr_graph("body", body)})},
                     {{"M", i64_scalar(trips)},
                      {"c", bool_scalar(true)},
                      {"s0", floats({}, {0.0f})},
                      {"a", floats({}, {0.1f})},
                      {"stop", i64_scalar(stop_after)}},
                     {"s_final", "s_all"});
}

void expect_loop_sums(int64_t trips, int64_t stop_after, int64_t iterations) {
  OneNodeModel m = loop_model(trips, stop_after);
  std::map<std::string, Bounds> real = enclose_model(m.model, m.feed, Semantics::Real);
  const double a = 0.1f;  // the float nearest 0.1, exactly
  Exact total;
  total.add_product(static_cast<double>(iterations), a);
  EXPECT_TRUE(total.inside(bound_at(real.at("s_final"), 0)));
  const Bounds& all = real.at("s_all");
  ASSERT_EQ(all.lo.shape(), Shape{iterations});
  for (int64_t k = 0; k < iterations; ++k) {
    Exact partial;
    partial.add_product(static_cast<double>(k + 1), a);
    EXPECT_TRUE(partial.inside(bound_at(all, k))) << "iteration " << k;
  }
  std::map<std::string, Bounds> admissible = enclose_model(m.model, m.feed, Semantics::Admissible);
  expect_contains_reference(admissible.at("s_final"), reference_value(m, "s_final"));
  expect_contains_reference(admissible.at("s_all"), reference_value(m, "s_all"));
  EXPECT_GT(widest_in_ulps(admissible.at("s_final")), 0) << "five roundings allowed";
}

TEST(EncloseControl, LoopSumsAFloatMTimes) { expect_loop_sums(5, 100, 5); }

// The body's condition turns false after iteration 2 (2 < 2 is false): three iterations of ten.
TEST(EncloseControl, LoopStopsWhenItsConditionTurnsFalse) { expect_loop_sums(10, 2, 3); }

// ---- refusals ----

TEST(EncloseControl, ALoopBeyondTheIterationBoundIsRefusedWithItsCount) {
  OneNodeModel m = loop_model(20000, 30000);
  std::string why = thrown_message<Unsupported>([&] { enclose_model(m.model, m.feed); });
  EXPECT_NE(why.find("no enclosure for Loop-16: its trip count M = 20000 exceeds the 10000 iterations"), std::string::npos)
      << why;
}

// No trip count, and a body that passes its condition on unchanged: the loop would never end.
TEST(EncloseControl, ALoopWhoseConditionNeverTurnsFalseIsRefused) {
  onnx::GraphProto body = graph("body", {node("Identity", {"cond_in"}, {"cond_out"}), node("Identity", {"s_in"}, {"s_out"})},
                                {vi("iter"), vi("cond_in"), vi("s_in")}, {vi("cond_out"), vi("s_out")});
  OneNodeModel m = graph_model(kControlOpset, {node("Loop", {"", "c", "s0"}, {"s"}, {attr_graph("body", body)})},
                               {{"c", bool_scalar(true)}, {"s0", floats({}, {0.0f})}}, {"s"});
  std::string why = thrown_message<Unsupported>([&] { enclose_model(m.model, m.feed); });
  EXPECT_NE(why.find("no enclosure for Loop-16: its condition still holds after the 10000 iterations"), std::string::npos)
      << why;
}

// ---- Scan ----

using sonnx::testing::attr_ints;

// 1000 float ulps beyond the value v: an answer no allowance admits.
double far_from(double v) { return v + 1000 * std::ldexp(1.0, std::ilogb(v == 0 ? 1.0 : v) - 23); }

// Every element of `real` lies in `admissible`, and a value 1000 float ulps off the reference does not.
void expect_admissible_contains_real_and_excludes_far(const Bounds& admissible, const Bounds& real, const Tensor& ref) {
  for (int64_t i = 0; i < ref.size(); ++i) {
    Interval a = bound_at(admissible, i), r = bound_at(real, i);
    EXPECT_TRUE(a.lo <= r.lo && r.hi <= a.hi) << "element " << i;
    EXPECT_FALSE(a.contains(far_from(ref.as_double(i)))) << "element " << i;
  }
}

// The body of both Scans: s_out = s_in + x_i, and s_out again as the scan output.
onnx::GraphProto scan_sum_body() {
  return graph("body", {node("Add", {"s_in", "x_i"}, {"s_out"}), node("Identity", {"s_out"}, {"s_scan"})},
               {vi("s_in"), vi("x_i")}, {vi("s_out"), vi("s_scan")});
}

const std::vector<float> kScanX = {1.1f, -2.3f, 3.7f, 0.3f, 5.9f, -1.7f};  // [2, 3]

// Scan-16 over the columns of x [2, 3] (axis 1) in reverse, each step's running sum prepended
// along axis 1: s_all[r, p] is the sum of x[r, p..2], s_final[r] the sum of row r.
TEST(EncloseControl, ScanSlicesAlongItsAxisAndStacksInItsDirections) {
  OneNodeModel m = graph_model(kControlOpset,
                               {node("Scan", {"s0", "x"}, {"s_final", "s_all"},
                                     {attr_graph("body", scan_sum_body()), attr_int("num_scan_inputs", 1),
                                      attr_ints("scan_input_axes", {1}), attr_ints("scan_input_directions", {1}),
                                      attr_ints("scan_output_axes", {1}), attr_ints("scan_output_directions", {1})})},
                               {{"s0", floats({2}, {0.0f, 0.0f})}, {"x", floats({2, 3}, kScanX)}}, {"s_final", "s_all"});
  std::map<std::string, Bounds> real = enclose_model(m.model, m.feed, Semantics::Real);
  const Bounds& all = real.at("s_all");
  ASSERT_EQ(all.lo.shape(), (Shape{2, 3}));
  for (int64_t r = 0; r < 2; ++r) {
    for (int64_t p = 0; p < 3; ++p) {
      Exact suffix;
      for (int64_t j = p; j < 3; ++j) suffix.add_product(kScanX[static_cast<size_t>(r * 3 + j)], 1);
      EXPECT_TRUE(suffix.inside(bound_at(all, r * 3 + p))) << "s_all[" << r << ", " << p << "]";
      if (p == 0) {
        EXPECT_TRUE(suffix.inside(bound_at(real.at("s_final"), r))) << "s_final[" << r << "]";
      }
    }
  }
  std::map<std::string, Bounds> admissible = enclose_model(m.model, m.feed, Semantics::Admissible);
  for (const char* name : {"s_final", "s_all"}) {
    SCOPED_TRACE(name);
    Tensor ref = reference_value(m, name);
    expect_contains_reference(admissible.at(name), ref);
    expect_admissible_contains_real_and_excludes_far(admissible.at(name), real.at(name), ref);
  }
}

// Scan-8: x [2 (batch), 3 (sequence)], sequence_lens {3, 1}: row 0 summed over three steps, row 1
// over one, its scan output padded with zeros.
TEST(EncloseControl, Scan8ScansEachBatchEntryForItsLength) {
  OneNodeModel m = graph_model(8,
                               {node("Scan", {"lens", "s0", "x"}, {"s_final", "s_all"},
                                     {attr_graph("body", scan_sum_body()), attr_int("num_scan_inputs", 1)})},
                               {{"lens", Value(Tensor::from_vector<int64_t>({2}, {3, 1}))},
                                {"s0", floats({2}, {0.5f, -0.25f})},
                                {"x", floats({2, 3}, kScanX)}},
                               {"s_final", "s_all"});
  std::map<std::string, Bounds> real = enclose_model(m.model, m.feed, Semantics::Real);
  const Bounds& all = real.at("s_all");
  ASSERT_EQ(all.lo.shape(), (Shape{2, 3}));
  const double start[2] = {0.5, -0.25};
  const int64_t lens[2] = {3, 1};
  for (int64_t b = 0; b < 2; ++b) {
    Exact prefix(start[b]);
    for (int64_t t = 0; t < 3; ++t) {
      if (t < lens[b]) {
        prefix.add_product(kScanX[static_cast<size_t>(b * 3 + t)], 1);
        EXPECT_TRUE(prefix.inside(bound_at(all, b * 3 + t))) << "s_all[" << b << ", " << t << "]";
      } else {
        EXPECT_EQ(bound_at(all, b * 3 + t).lo, 0.0);  // padding: exactly zero
        EXPECT_EQ(bound_at(all, b * 3 + t).hi, 0.0);
      }
    }
    EXPECT_TRUE(prefix.inside(bound_at(real.at("s_final"), b))) << "s_final[" << b << "]";
  }
  std::map<std::string, Bounds> admissible = enclose_model(m.model, m.feed, Semantics::Admissible);
  for (const char* name : {"s_final", "s_all"}) {
    SCOPED_TRACE(name);
    Tensor ref = reference_value(m, name);
    expect_contains_reference(admissible.at(name), ref);
  }
  expect_admissible_contains_real_and_excludes_far(admissible.at("s_final"), real.at("s_final"), reference_value(m, "s_final"));
}

// On integers the Scan is exact: its outputs are the reference's, element for element.
TEST(EncloseControl, ScanOfIntegersIsExact) {
  OneNodeModel m = graph_model(kControlOpset,
                               {node("Scan", {"s0", "x"}, {"s_final", "s_all"},
                                     {attr_graph("body", scan_sum_body()), attr_int("num_scan_inputs", 1)})},
                               {{"s0", Value(Tensor::from_vector<int64_t>({2}, {1, 2}))},
                                {"x", Value(Tensor::from_vector<int64_t>({3, 2}, {4, -5, 6, 7, -8, 9}))}},
                               {"s_final", "s_all"});
  std::map<std::string, Bounds> admissible = enclose_model(m.model, m.feed, Semantics::Admissible);
  for (const char* name : {"s_final", "s_all"}) {
    ASSERT_TRUE(admissible.at(name).exact());
    EXPECT_TRUE(admissible.at(name).lo == reference_value(m, name)) << name;
  }
  EXPECT_TRUE(admissible.at("s_final").lo == Tensor::from_vector<int64_t>({2}, {3, 13}));  // 1 + 4 + 6 - 8, 2 - 5 + 7 + 9
}

}  // namespace
}  // namespace sonnx::enclose
