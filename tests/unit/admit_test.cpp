// sonnx admit's rewrites one at a time (admit/rewrites.h) and the whole admission (admit/admit.h):
// each rewrite on a small model, the model run before and after with bitwise-equal outputs, and
// the admission's check and comparison runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstring>
#include <random>

#include "admit/admit.h"
#include "admit/prove.h"
#include "admit/report.h"
#include "admit/rewrites.h"
#include "reference/check/validator.h"
#include "reference/interp/interpreter.h"
#include "reference/model/text_syntax.h"
#include "loaded_model_util.h"

namespace sonnx {
namespace {

using testing::loaded_model;

Tensor admit_random_floats(const Shape& shape, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-3, 3);
  Tensor t(DType::Float, shape);
  for (float& v : t.values<float>()) v = u(rng);
  return t;
}

bool has_node(const Model& m, const std::string& op) {
  return std::any_of(m.graph.nodes.begin(), m.graph.nodes.end(), [&](const Node& n) { return n.op_type == op; });
}

const ValueInfo* declared(const std::vector<ValueInfo>& list, const std::string& name) {
  auto it = std::find_if(list.begin(), list.end(), [&](const ValueInfo& v) { return v.name == name; });
  return it == list.end() ? nullptr : &*it;
}

// ---- fix_inputs ----

TEST(AdmitFixInputs, BindsSymbolicDimensionsEverywhereTheyAreDeclared) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[N,3] X) => (float[N,3] Y) { Y = Relu (X) })");
  admit::ChangeLog log;
  admit::fix_inputs(m, {{{"N", 2}}, {}, {}}, log);
  EXPECT_EQ(m.graph.inputs[0].type.str(), "tensor(float)[2,3]");
  EXPECT_EQ(m.graph.outputs[0].type.str(), "tensor(float)[2,3]");
  EXPECT_TRUE(log.refused.empty());
  ASSERT_EQ(log.changes.size(), 1u);
  EXPECT_EQ(log.changes[0].rewrite, "fix-dimension");
}

TEST(AdmitFixInputs, AnInputShapeBindsItsSymbolsAndMustMatchTheDeclaration) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[N,3] X, float[N] Z) => (float[N,3] Y) { Y = Relu (X) })";
  Model m = text::parse_model(text);
  admit::ChangeLog log;
  admit::fix_inputs(m, {{}, {{"X", {4, 3}}}, {}}, log);
  EXPECT_EQ(m.graph.inputs[1].type.str(), "tensor(float)[4]") << "N bound by X's shape, also in Z";
  for (auto shape : {std::vector<int64_t>{4}, std::vector<int64_t>{4, 5}}) {
    Model again = text::parse_model(text);
    EXPECT_THROW(admit::fix_inputs(again, {{}, {{"X", shape}}, {}}, log), admit::AdmitUsageError);
  }
  Model other = text::parse_model(text);
  EXPECT_THROW(admit::fix_inputs(other, {{{"M", 1}}, {}, {}}, log), admit::AdmitUsageError) << "no dimension M";
  EXPECT_THROW(admit::fix_inputs(other, {{}, {{"W", {1}}}, {}}, log), admit::AdmitUsageError) << "no input W";
}

TEST(AdmitFixInputs, AFixedInputBecomesAnInitializerAndAnUnfixedSymbolIsRefusedByName) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[B,2] X, int64[1] k) => (float[B,2] Y) { Y = Relu (X) })");
  admit::ChangeLog log;
  admit::fix_inputs(m, {{}, {}, {{"k", Tensor::from_vector<int64_t>({1}, {7})}}}, log);
  ASSERT_EQ(m.graph.inputs.size(), 1u);
  ASSERT_EQ(m.graph.initializers.size(), 1u);
  EXPECT_EQ(m.graph.initializers[0].first, "k");
  EXPECT_EQ(m.graph.initializers[0].second.to_int64_vector(), std::vector<int64_t>{7});
  ASSERT_EQ(log.refused.size(), 1u);
  EXPECT_NE(log.refused[0].find("--dim B="), std::string::npos) << log.refused[0];

  Model wrong = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] X, int64[1] k) => (float[2] Y) { Y = Relu (X) })");
  EXPECT_THROW(admit::fix_inputs(wrong, {{}, {}, {{"k", Tensor::from_vector<int32_t>({1}, {7})}}}, log), admit::AdmitUsageError)
      << "an int32 value for an int64 input";
}

// ---- remove_identities, remove_dead ----

TEST(AdmitRemoveCopies, IdentityAndInferenceDropoutGoTheOutputsStay) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2,3] X) => (float[2,3] Y, float[2,3] Z) {
  a = Identity (X)
  b = Relu (a)
  d = Dropout (b)
  Y = Identity (d)
  Z = Sigmoid (a)
})");
  NamedValues in{{"X", Value(admit_random_floats({2, 3}, 1))}};
  NamedValues before = Interpreter(m).run(in);
  admit::ChangeLog log;
  admit::remove_identities(m, log);
  EXPECT_FALSE(has_node(m, "Identity"));
  EXPECT_FALSE(has_node(m, "Dropout"));
  EXPECT_EQ(m.graph.nodes.size(), 2u);
  EXPECT_EQ(m.graph.outputs[0].name, "Y") << "the graph's outputs keep their names";
  NamedValues after = Interpreter(m).run(in);
  for (const char* y : {"Y", "Z"}) EXPECT_EQ(before.at(y).tensor, after.at(y).tensor) << y;
}

TEST(AdmitRemoveCopies, ATrainingDropoutOrAReadMaskStays) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] X) => (float[2] Y, bool[2] M) {
  r = Constant <value = float {0.5}> ()
  t = Constant <value = bool {1}> ()
  Y = Dropout (X, r, t)
  a, M = Dropout (X)
})");
  admit::ChangeLog log;
  admit::remove_identities(m, log);
  EXPECT_EQ(std::count_if(m.graph.nodes.begin(), m.graph.nodes.end(), [](const Node& n) { return n.op_type == "Dropout"; }), 2);
  ASSERT_EQ(log.refused.size(), 2u);
  EXPECT_NE(log.refused[0].find("training_mode is not a constant"), std::string::npos) << log.refused[0];
  EXPECT_NE(log.refused[1].find("its mask is read"), std::string::npos) << log.refused[1];
}

TEST(AdmitRemoveDead, NodesAndInitializersNoOutputNeedsGo) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] X) => (float[2] Y) <float[2] w = {1, 2}, float[2] unused = {3, 4}> {
  Y = Mul (X, w)
  dead = Sigmoid (X)
  deader = Relu (dead)
})");
  admit::ChangeLog log;
  admit::remove_dead(m, log);
  ASSERT_EQ(m.graph.nodes.size(), 1u);
  EXPECT_EQ(m.graph.nodes[0].op_type, "Mul");
  ASSERT_EQ(m.graph.initializers.size(), 1u);
  EXPECT_EQ(m.graph.initializers[0].first, "w");
  EXPECT_EQ(log.changes.size(), 3u);
}

// An input no node reads (an expanded CastLike's `like`) goes: the admitted model does not take it,
// and the comparison runs give the original a value for it.
TEST(AdmitRemoveDead, AnInputNoNodeReadsGoesAndTheChecksGiveTheOriginalAValue) {
  LoadedModel original = loaded_model(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] X, double[3] like) => (double[2] Y) {
  Y = Cast <to = 11> (X)
})");
  admit::AdmitResult r = admit::admit_model(original, {});
  for (const std::string& why : r.reasons()) ADD_FAILURE() << why;
  ASSERT_TRUE(r.admitted);
  ASSERT_EQ(r.model.graph.inputs.size(), 1u);
  EXPECT_EQ(r.model.graph.inputs[0].name, "X");
  EXPECT_EQ(admit::rewrite_counts(r)["remove-input"], 1);
  ASSERT_EQ(r.runs.size(), 3u);
  for (const admit::ProofRun& run : r.runs) EXPECT_TRUE(run.equal && !run.skipped) << run.inputs << ": " << run.detail;
  // Given inputs: `like` goes to the original alone.
  NamedValues given{{"X", Value(admit_random_floats({2}, 3))}, {"like", Value(Tensor(DType::Double, Shape{3}))}};
  admit::ProofRun run = admit::compare_runs(original.ir, r.model, given, {}, "given");
  EXPECT_TRUE(run.equal) << run.detail;
}

// ---- fold_constants ----

TEST(AdmitFold, ShapeComputationsAndConstantsBecomeInitializers) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2,3,4] X) => (float[2,12] Y) <float[1] two = {2}> {
  s = Shape (X)
  i = Constant <value = int64[1] {0}> ()
  b = Gather <axis = 0> (s, i)
  m = Constant <value = int64[1] {-1}> ()
  shape = Concat <axis = 0> (b, m)
  sq = Mul (two, two)
  r = Reshape (X, shape)
  Y = Mul (r, sq)
})");
  NamedValues in{{"X", Value(admit_random_floats({2, 3, 4}, 2))}};
  Tensor before = Interpreter(m).run(in).at("Y").tensor;
  admit::ChangeLog log;
  admit::fold_constants(m, log);
  admit::remove_dead(m, log);
  ASSERT_EQ(m.graph.nodes.size(), 2u) << "only Reshape and the last Mul read X";
  auto shape = std::find_if(m.graph.initializers.begin(), m.graph.initializers.end(),
                            [](const auto& i) { return i.first == "shape"; });
  ASSERT_NE(shape, m.graph.initializers.end());
  EXPECT_EQ(shape->second.to_int64_vector(), (std::vector<int64_t>{2, -1}));
  auto sq = std::find_if(m.graph.initializers.begin(), m.graph.initializers.end(),
                         [](const auto& i) { return i.first == "sq"; });
  ASSERT_NE(sq, m.graph.initializers.end());
  EXPECT_EQ(sq->second.data<float>()[0], 4.0f);
  EXPECT_EQ(Interpreter(m).run(in).at("Y").tensor, before);
}

// Size as exporters write it (a Size of an activation feeding arithmetic): with static shapes it is
// the element count, folded with what reads it.
TEST(AdmitFold, SizeOfAStaticValueIsItsElementCount) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2,3,4] X) => (float[2,3,4] Y) {
  n = Size (X)
  f = Cast <to = 1> (n)
  Y = Div (X, f)
})");
  admit::ChangeLog log;
  admit::fold_constants(m, log);
  admit::remove_dead(m, log);
  ASSERT_EQ(m.graph.nodes.size(), 1u);
  EXPECT_EQ(m.graph.nodes[0].op_type, "Div");
  auto f = std::find_if(m.graph.initializers.begin(), m.graph.initializers.end(), [](const auto& i) { return i.first == "f"; });
  ASSERT_NE(f, m.graph.initializers.end());
  EXPECT_EQ(f->second.data<float>()[0], 24.0f) << "2 × 3 × 4 elements";
}

TEST(AdmitFold, AGraphOutputAndARandomNodeStayNodes) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] X) => (float[2] Y, float[2] C) <float[2] w = {1, 2}> {
  C = Neg (w)
  n = RandomNormal <shape = [2], seed = 1.0> ()
  Y = Add (X, n)
})");
  admit::ChangeLog log;
  admit::fold_constants(m, log);
  EXPECT_EQ(m.graph.nodes.size(), 3u);
  EXPECT_TRUE(log.changes.empty());
}

// ---- specialise_control_flow ----

TEST(AdmitSpecialise, AnIfOnAFixedInputBecomesItsBranch) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[3] X, int64 sr) => (float[3] Y, float[3] Z) <int64 k = {16000}> {
  c = Equal (sr, k)
  Y, Z = If (c) <
    then_branch = t () => (float[3] y, float[3] X2) { y = Relu (X) X2 = Identity (X) },
    else_branch = e () => (float[3] y2, float[3] X3) { y2 = Sigmoid (X) X3 = Neg (X) }>
})";
  for (int64_t rate : {16000, 8000}) {
    SCOPED_TRACE(rate);
    Model m = text::parse_model(text);
    NamedValues in{{"X", Value(admit_random_floats({3}, 6))}, {"sr", Value(Tensor::scalar<int64_t>(rate))}};
    NamedValues before = Interpreter(m).run(in);
    admit::ChangeLog log;
    admit::fix_inputs(m, {{}, {}, {{"sr", Tensor::scalar<int64_t>(rate)}}}, log);
    admit::fold_constants(m, log);
    ASSERT_TRUE(admit::specialise_control_flow(m, log));
    admit::remove_dead(m, log);
    EXPECT_FALSE(has_node(m, "If"));
    EXPECT_FALSE(has_node(m, "Equal")) << "folded";
    EXPECT_TRUE(has_node(m, rate == 16000 ? "Relu" : "Sigmoid"));
    EXPECT_FALSE(admit::specialise_control_flow(m, log)) << "no If left";
    in.erase("sr");
    NamedValues after = Interpreter(m).run(in);
    for (const char* y : {"Y", "Z"}) EXPECT_EQ(before.at(y).tensor, after.at(y).tensor) << y;
  }
}

// Admission changes its copy of the model, nested graphs included: the original still runs as
// before (a Model copy shares its nested graphs).
TEST(Admit, LeavesTheOriginalAndItsNestedGraphsAsTheyWere) {
  LoadedModel original = loaded_model(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[3] X, int64 sr) => (float[3] Y) <int64 k = {16000}> {
  c = Equal (sr, k)
  a = Identity (X)
  Y = If (c) <
    then_branch = t () => (float[3] y) {
      d = Greater (sr, k)
      y = If (d) <then_branch = t2 () => (float[3] p) { p = Relu (a) }, else_branch = e2 () => (float[3] q) { q = Neg (a) }>
    },
    else_branch = e () => (float[3] y2) { y2 = Sigmoid (a) }>
})");
  NamedValues in{{"X", Value(admit_random_floats({3}, 11))}, {"sr", Value(Tensor::scalar<int64_t>(16000))}};
  Tensor before = Interpreter(original.ir).run(in).at("Y").tensor;
  admit::AdmitOptions o;
  o.fixes.values = {{"sr", Tensor::scalar<int64_t>(16000)}};
  admit::AdmitResult r = admit::admit_model(original, o);
  for (const std::string& why : r.reasons()) ADD_FAILURE() << why;
  EXPECT_TRUE(r.admitted);
  EXPECT_FALSE(has_node(r.model, "If")) << "both Ifs specialised";
  EXPECT_EQ(Interpreter(original.ir).run(in).at("Y").tensor, before);
}

// A model already in the profile is still rewritten when the user fixes an input: the fixed input
// becomes a constant (what `sonnx emit-c` needs of Slice's starts), the others stay inputs.
TEST(Admit, FixesAnInputOfAModelAlreadyInTheProfile) {
  LoadedModel original = loaded_model(R"(<ir_version: 10, opset_import: ["" : 25]>
g (float[4] X, int64[1] starts) => (float[2] Y) <int64[1] ends = {3}, int64[1] axes = {0}, int64[1] steps = {1}> {
  Y = Slice (X, starts, ends, axes, steps)
})");
  admit::AdmitOptions o;
  o.fixes.values = {{"starts", Tensor::from_vector<int64_t>({1}, {1})}};
  admit::AdmitResult r = admit::admit_model(original, o);
  for (const std::string& why : r.reasons()) ADD_FAILURE() << why;
  EXPECT_TRUE(r.admitted);
  EXPECT_FALSE(r.unchanged) << "a fix asked for is a change";
  ASSERT_EQ(r.model.graph.inputs.size(), 1u);
  EXPECT_EQ(r.model.graph.inputs[0].name, "X");
  const Tensor x = Tensor::from_vector<float>({4}, {1.f, 2.f, 3.f, 4.f});
  EXPECT_EQ(Interpreter(r.model).run({{"X", Value(x)}}).at("Y").tensor, Tensor::from_vector<float>({2}, {2.f, 3.f}));
}

// ---- write_omitted_inputs, trim_unused_outputs ----

TEST(AdmitOptionalIO, ARecurrentNodesOmittedInputsAreWrittenAsTheirDefaults) {
  // LSTM with B, sequence_lens and initial_h omitted (initial_c given), its Y read, Y_h not, Y_c read.
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 14]>
g (float[3,2,4] X, float[1,20,4] W, float[1,20,5] R, float[1,2,5] c0) => (float[3,1,2,5] Y, float[1,2,5] C) {
  Y, h, C = LSTM <hidden_size = 5> (X, W, R, , , , c0)
})");
  NamedValues in{{"X", Value(admit_random_floats({3, 2, 4}, 7))},
                 {"W", Value(admit_random_floats({1, 20, 4}, 8))},
                 {"R", Value(admit_random_floats({1, 20, 5}, 9))},
                 {"c0", Value(admit_random_floats({1, 2, 5}, 10))}};
  NamedValues before = Interpreter(m).run(in);
  admit::ChangeLog log;
  admit::write_omitted_inputs(m, log);
  ASSERT_TRUE(log.refused.empty()) << log.refused.front();
  const Node& n = m.graph.nodes[0];
  for (size_t i : {3, 4, 5}) EXPECT_FALSE(n.inputs[i].empty()) << i;
  auto value = [&](const std::string& name) {
    return std::find_if(m.graph.initializers.begin(), m.graph.initializers.end(), [&](const auto& i) { return i.first == name; })
        ->second;
  };
  EXPECT_EQ(value(n.inputs[4]).to_int64_vector(), (std::vector<int64_t>{3, 3})) << "every sequence has the full length 3";
  EXPECT_EQ(value(n.inputs[3]).shape(), (Shape{1, 40}));
  EXPECT_EQ(value(n.inputs[5]).shape(), (Shape{1, 2, 5}));
  NamedValues after = Interpreter(m).run(in);
  for (const char* y : {"Y", "C"}) EXPECT_EQ(before.at(y).tensor, after.at(y).tensor) << y;

  // Y_h is read by no node but Y_c after it is: refused, unless exposed.
  admit::trim_unused_outputs(m, false, log);
  ASSERT_EQ(log.refused.size(), 1u);
  EXPECT_NE(log.refused[0].find("--expose-unused"), std::string::npos) << log.refused[0];
  admit::ChangeLog exposed;
  admit::trim_unused_outputs(m, true, exposed);
  EXPECT_TRUE(exposed.refused.empty());
  EXPECT_EQ(m.graph.outputs.back().name, "h");
}

// Clip without max (from 11) clips at its type's highest value: +inf becomes float's max.
TEST(AdmitOptionalIO, AClipWithoutMaxClipsAtTheTypesHighestValue) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[4] X) => (float[4] Y) {
  Y = Clip (X, , )
})");
  Tensor x = Tensor::from_vector<float>({4}, {-INFINITY, -1.5f, 3e38f, INFINITY});
  NamedValues before = Interpreter(m).run({{"X", Value(x)}});
  admit::ChangeLog log;
  admit::write_omitted_inputs(m, log);
  ASSERT_TRUE(log.refused.empty()) << log.refused.front();
  EXPECT_EQ(before.at("Y").tensor, Interpreter(m).run({{"X", Value(x)}}).at("Y").tensor);
  EXPECT_EQ(before.at("Y").tensor.data<float>()[3], std::numeric_limits<float>::max());
}

// An output omitted by an empty name before one that is read (a GRU's Y, its Y_h read): refused,
// unless exposed, when it is named and becomes a graph output.
TEST(AdmitOptionalIO, AnOmittedOutputBeforeAReadOneIsNamedWhenExposed) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 14]>
g (float[3,2,4] X, float[1,15,4] W, float[1,15,5] R) => (float[1,2,5] H) {
  Y, H = GRU <hidden_size = 5> (X, W, R)
})");
  m.graph.nodes[0].outputs[0] = "";  // omitted (the text syntax has no empty output name)
  admit::ChangeLog log;
  admit::trim_unused_outputs(m, false, log);
  ASSERT_EQ(log.refused.size(), 1u);
  EXPECT_NE(log.refused[0].find("output 0 is omitted"), std::string::npos) << log.refused[0];
  admit::ChangeLog exposed;
  admit::trim_unused_outputs(m, true, exposed);
  EXPECT_TRUE(exposed.refused.empty());
  const std::string y = m.graph.nodes[0].outputs[0];
  EXPECT_FALSE(y.empty());
  ASSERT_EQ(m.graph.outputs.size(), 2u);
  EXPECT_EQ(m.graph.outputs[0].name, "H") << "the model's own outputs first";
  EXPECT_EQ(m.graph.outputs[1].name, y);
}

TEST(AdmitOptionalIO, TrailingUnreadOptionalOutputsAreNotProduced) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 22]>
g (float[1,1,4,4] X) => (float[1,1,2,2] Y) {
  Y, indices = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (X)
})");
  admit::ChangeLog log;
  admit::trim_unused_outputs(m, false, log);
  EXPECT_EQ(m.graph.nodes[0].outputs, std::vector<std::string>{"Y"});
  EXPECT_TRUE(log.refused.empty());
}

// ---- write_default_attributes, declare_types ----

TEST(AdmitDefaults, EveryAttributeWithADefaultIsWrittenAndMeansTheSame) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 22]>
g (float[1,1,4,4] X, float[1,1,3,3] W) => (float[1,1,2,2] Y) {
  c = Conv (X, W)
  Y = LeakyRelu (c)
})");
  NamedValues in{{"X", Value(admit_random_floats({1, 1, 4, 4}, 3))}, {"W", Value(admit_random_floats({1, 1, 3, 3}, 4))}};
  Tensor before = Interpreter(m).run(in).at("Y").tensor;
  admit::ChangeLog log;
  admit::write_default_attributes(m, log);
  const Attribute* pad = m.graph.nodes[0].attr("auto_pad");
  ASSERT_NE(pad, nullptr);
  EXPECT_EQ(pad->s, "NOTSET");
  const Attribute* alpha = m.graph.nodes[1].attr("alpha");
  ASSERT_NE(alpha, nullptr);
  EXPECT_EQ(alpha->f, 0.01f);
  EXPECT_EQ(log.changes.size(), 2u);
  EXPECT_EQ(Interpreter(m).run(in).at("Y").tensor, before);
}

TEST(AdmitDeclare, EveryValueGetsItsStaticType) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2,3] X) => (float[a,b] Y) {
  t = Transpose (X)
  Y = Relu (t)
})");
  admit::ChangeLog log;
  admit::declare_types(m, log);
  EXPECT_EQ(m.graph.outputs[0].type.str(), "tensor(float)[3,2]");
  const ValueInfo* t = declared(m.graph.value_info, "t");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->type.str(), "tensor(float)[3,2]");
}

// ---- the whole admission ----

const char* kExported = R"(<ir_version: 7, opset_import: ["" : 11]>
g (float[N,2,5,5] X) => (float[N,3] Y) <float[3,2,3,3] W = {1,0,2,1,0,1,1,1,0,0,2,1,1,0,1,2,1,0,1,1,0,1,0,2,1,1,1,0,1,2,0,1,1,1,0,1,
  2,1,0,1,1,0,1,2,1,0,1,1,1,2,0,1,1,0}, float[3] B = {0.5, -1, 0.25}> {
  c = Conv <pads = [1, 1, 1, 1]> (X, W, B)
  i = Identity (c)
  r = Relu (i)
  p = GlobalAveragePool (r)
  s = Shape (p)
  z = Constant <value = int64[1] {0}> ()
  n = Gather <axis = 0> (s, z)
  m = Constant <value = int64[1] {-1}> ()
  shape = Concat <axis = 0> (n, m)
  f = Reshape (p, shape)
  Y = Softmax <axis = 1> (f)
})";

TEST(Admit, AnExportedModelIsAdmittedChecksCleanAndComputesTheSame) {
  LoadedModel original = loaded_model(kExported);
  admit::AdmitOptions o;
  o.fixes.dims = {{"N", 2}};
  admit::AdmitResult r = admit::admit_model(original, o);
  for (const std::string& why : r.reasons()) ADD_FAILURE() << why;
  ASSERT_TRUE(r.admitted);
  EXPECT_GT(r.errors_before, 10u);
  EXPECT_EQ(r.opset_from, 11);
  EXPECT_EQ(r.opset_to, admit::profile_opset(load_profile("sonnx")));
  EXPECT_EQ(r.model.opset(""), r.opset_to);
  LoadedModel admitted;
  admitted.ir = r.model;
  admitted.proto = original.proto;
  admitted.proto.mutable_opset_import(0)->set_version(r.opset_to);
  for (const Diagnostic& d : validate(admitted, load_profile("sonnx")))
    EXPECT_NE(d.severity, Severity::Error) << format_diagnostic(d);
  ASSERT_EQ(r.runs.size(), 3u);
  for (const admit::ProofRun& run : r.runs) EXPECT_TRUE(run.equal) << run.inputs << ": " << run.detail;
  auto counts = admit::rewrite_counts(r);
  EXPECT_EQ(counts["remove-copy"], 1);
  EXPECT_GE(counts["fold"], 5) << "Shape, the Constants, Gather, Concat";
  EXPECT_GE(counts["upgrade"], 5);

  // What the report says of it.
  nlohmann::json j = admit::report_json(r, "exported", "sonnx");
  EXPECT_TRUE(j["admitted"].get<bool>());
  EXPECT_EQ(j["checks"].size(), 3u);
  EXPECT_EQ(j["checks"][0]["result"], "bitwise equal");
}

TEST(Admit, AModelAlreadyInTheProfileComesBackUnchanged) {
  LoadedModel original = loaded_model(R"(<ir_version: 10, opset_import: ["" : 25]>
g (float[2,3] X) => (float[2,3] Y) { Y = Relu (X) })");
  admit::AdmitResult r = admit::admit_model(original, {});
  EXPECT_TRUE(r.admitted);
  EXPECT_TRUE(r.unchanged);
  EXPECT_TRUE(r.log.changes.empty());
}

TEST(Admit, WhatCannotBeRemovedIsListedAndNothingIsAdmitted) {
  LoadedModel original = loaded_model(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[N,3] X) => (float[N,3] Y) {
  Y = Relu (X)
})");
  admit::AdmitResult r = admit::admit_model(original, {});
  EXPECT_FALSE(r.admitted);
  std::vector<std::string> why = r.reasons();
  ASSERT_FALSE(why.empty());
  EXPECT_NE(why[0].find("--dim N="), std::string::npos) << why[0];
  EXPECT_TRUE(r.runs.empty()) << "nothing is compared when the check fails";
}

// An inexact decomposition (Elu on double: expm1 composed, within a few ulps) is judged by the
// original's admissible enclosure: refused without a judge, admitted or not as the judge says.
TEST(Admit, AnInexactRewriteIsJudgedByTheEnclosure) {
  LoadedModel original = loaded_model(R"(<ir_version: 8, opset_import: ["" : 13]>
g (double[256] X) => (double[256] Y) { Y = Elu <alpha = 0.75> (X) })");
  admit::AdmitResult none = admit::admit_model(original, {});
  EXPECT_FALSE(none.admitted);
  ASSERT_FALSE(none.log.refused.empty());
  EXPECT_NE(none.log.refused.back().find("no enclosure judge"), std::string::npos) << none.log.refused.back();

  for (bool inside : {true, false}) {
    int calls = 0;
    admit::AdmitOptions o;
    o.samples = 4;
    o.within_enclosure = [&](const NamedValues&, const NamedValues& outputs) -> std::string {
      ++calls;
      EXPECT_EQ(outputs.count("Y"), 1u);
      return inside ? "" : "Y is outside";
    };
    admit::AdmitResult r = admit::admit_model(original, o);
    ASSERT_GT(calls, 0) << "256 random doubles: some element differs in its last bits";
    EXPECT_EQ(r.admitted, inside);
    for (const admit::ProofRun& run : r.runs) {
      if (run.bounded) {
        EXPECT_EQ(run.equal, inside);
      }
    }
  }
}

// The comparison catches a rewrite that changes the meaning, and names the first differing value.
TEST(AdmitProve, AChangedNodeIsCaughtAndLocalized) {
  Model original = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[4] X) => (float[4] Y) {
  a = Neg (X)
  b = Relu (a)
  Y = Sigmoid (b)
})");
  Model wrong = original;
  wrong.graph.nodes[1].op_type = "Abs";  // a planted wrong rewrite
  NamedValues in = admit::random_inputs(wrong.graph, 5);
  ASSERT_EQ(in.size(), 1u);
  admit::ProofRun run = admit::compare_runs(original, wrong, in, {}, "random");
  EXPECT_FALSE(run.equal);
  EXPECT_NE(run.detail.find("value 'b'"), std::string::npos) << run.detail;
  EXPECT_TRUE(admit::compare_runs(original, original, in, {}, "random").equal);
}

}  // namespace
}  // namespace sonnx
