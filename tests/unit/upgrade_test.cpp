// Version upgrades (admit/upgrade.h): every adapter in a record goes to the operator's next
// version, every relabel is a step whose signature the catalogue shows unchanged and whose type
// lists only grow, and upgrading a model carries each node step by step, or refuses by name and
// leaves the model as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <set>

#include "admit/upgrade.h"
#include "reference/catalogue/catalogue.h"
#include "reference/check/profile.h"
#include "reference/infer/infer.h"
#include "reference/interp/interpreter.h"
#include "reference/model/text_syntax.h"

namespace sonnx {
namespace {

std::set<std::string> types_of(const catalogue::Schema& s, const catalogue::Formal& f) {
  if (const catalogue::TypeConstraint* c = s.constraint(f.type)) return {c->types.begin(), c->types.end()};
  return {f.type};
}

// Whether every node of `old` is a node of `next` (what a relabel needs besides the meaning, which
// spec/upgrade-steps.md and the comments of admit/adapters_reviewed.cpp record): each attribute kept
// with its type and, where it had one, its default, or made optional; new attributes optional; each
// input and output kept (or made optional) with its old types among its new ones; new ones
// optional. "" when so, else the first difference.
std::string relabel_evidence(const catalogue::Schema& old, const catalogue::Schema& next) {
  for (const auto& a : old.attributes) {
    const catalogue::AttributeSpec* b = next.attribute(a.name);
    if (!b || b->type != a.type || (b->required && !a.required) ||
        (a.default_value.has_value() && !b->default_value.has_value()))
      return "attribute " + a.name + " differs";
  }
  for (const auto& b : next.attributes)
    if (!old.attribute(b.name) && b.required) return "attribute " + b.name + " is new and required";
  using Option = catalogue::Formal::Option;
  for (auto [o, n] : {std::pair{&old.inputs, &next.inputs}, std::pair{&old.outputs, &next.outputs}}) {
    if (n->size() < o->size()) return "fewer inputs or outputs";
    for (size_t i = 0; i < n->size(); ++i) {
      const catalogue::Formal& f = (*n)[i];
      if (i >= o->size()) {
        if (f.option != Option::Optional) return "formal " + f.name + " is new and not optional";
        continue;
      }
      const catalogue::Formal& e = (*o)[i];
      if (e.name != f.name || (e.option != f.option && !(e.option == Option::Single && f.option == Option::Optional)))
        return "formal " + e.name + " differs";
      std::set<std::string> a = types_of(old, e), b = types_of(next, f);
      for (const auto& t : a)
        if (!b.count(t)) return "formal " + e.name + " loses " + t;
    }
  }
  return "";
}

TEST(Upgrade, EveryAdapterGoesToTheNextVersionAndEveryRelabelKeepsTheSignature) {
  int relabels = 0;
  for (const auto& [key, rec] : OpRecords::instance().all()) {
    if (!rec.upgrade) continue;
    SCOPED_TRACE(rec.op_type + "-" + std::to_string(rec.version));
    const catalogue::Schema* old = catalogue::exact(rec.domain, rec.op_type, rec.version);
    ASSERT_NE(old, nullptr) << "an adapter on a version the catalogue does not have";
    const catalogue::Schema* next = catalogue::exact(rec.domain, rec.op_type, rec.upgrade->to);
    ASSERT_NE(next, nullptr) << "an adapter to version " << rec.upgrade->to << ", which does not exist";
    EXPECT_EQ(catalogue::next_version(rec.domain, rec.op_type, rec.version), next) << "the adapter skips a version";
    if (rec.upgrade->rewrite) continue;
    ++relabels;
    EXPECT_EQ(relabel_evidence(*old, *next), "");
  }
  EXPECT_GE(relabels, 140) << "spec/upgrade-steps.md lists 98 type widenings, admit/adapters_reviewed.cpp 45 more";
}

// Every version step of the SONNX profile's operators, from the version opset 7 selects (or the
// operator's first) to the profile's pin, has an adapter or is in this list with the reason it has
// none yet. A new gap, or an adapter for a listed step, fails until the list says so.
TEST(Upgrade, EveryStepIntoTheProfileHasAnAdapterOrARecordedReason) {
  // None left: each step has a relabel or a rewrite; the rewrites refuse the nodes they cannot carry
  // (Softmax-11 rows over several axes, Erf-9 on integers, ..., tested below).
  const std::map<std::string, std::string> pending = {};
  Profile profile = load_profile("sonnx");
  std::set<std::string> gaps;
  for (const auto& [op, pins] : profile.operators)
    for (int64_t pin : pins) {
      const catalogue::Schema* first = catalogue::find("", op, 7);  // or the operator's first version, if later
      if (!first) first = catalogue::next_version("", op, 7);
      ASSERT_NE(first, nullptr) << op;
      for (int64_t v = first->version; v < pin;) {
        const OpRecord* rec = OpRecords::instance().find("", op, v);
        if (!rec || !rec->upgrade) {
          gaps.insert(op + "-" + std::to_string(v));
          v = catalogue::next_version("", op, v)->version;
        } else {
          v = rec->upgrade->to;
        }
      }
    }
  std::set<std::string> listed;
  for (const auto& [step, why] : pending) listed.insert(step);
  EXPECT_EQ(gaps, listed);
}

Tensor random_floats(const Shape& shape, std::mt19937& rng) {
  Tensor t(DType::Float, shape);
  std::uniform_real_distribution<float> u(-2, 2);
  for (int64_t i = 0; i < t.size(); ++i) t.data<float>()[i] = u(rng);
  return t;
}

bool same_bits(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() && std::memcmp(a.raw(), b.raw(), a.byte_size()) == 0;
}

TEST(Upgrade, CarriesAModelToTheProfileOpsetNodeByNode) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 11]>
g (float[1,2,5,5] X, float[3,2,3,3] W) => (float[1,27] Y) {
  c = Conv <pads = [0, 0, 0, 0]> (X, W)
  r = Relu (c)
  i = Identity (r)
  Y = Flatten <axis = 1> (i)
})");
  std::mt19937 rng(7);
  NamedValues in{{"X", Value(random_floats({1, 2, 5, 5}, rng))}, {"W", Value(random_floats({3, 2, 3, 3}, rng))}};
  Tensor before = Interpreter(m).run(in).at("Y").tensor;

  admit::UpgradeOutcome out = admit::upgrade_model(m, 25);
  ASSERT_TRUE(out.ok()) << out.refused.front();
  EXPECT_EQ(m.opset(""), 25);
  // Conv 11 → 22; Relu 6 → 13 → 14; Identity 1 → 13 → 14 → 16 → 19 → 21 → 23 → 24 → 25;
  // Flatten 11 → 13 → 21 → 23 → 24 → 25: 16 steps, each a relabel.
  EXPECT_EQ(out.steps.size(), 16u);
  EXPECT_EQ(out.steps.front(), "Conv-11 → Conv-22 (relabel): node (unnamed Conv)");
  Tensor after = Interpreter(m).run(in).at("Y").tensor;
  EXPECT_TRUE(same_bits(before, after)) << "the upgraded model computes something else";
}

TEST(Upgrade, RefusesAStepWithoutAnAdapterByNameAndLeavesTheModelAsItWas) {
  // TopK is not in the profile and its step 10 → 11 has no adapter (yet); the Unsqueeze before it
  // could be carried, but the model is left as it was.
  const char* text = R"(<ir_version: 8, opset_import: ["" : 10]>
g (float[2,3] X, int64[1] K) => (float[1,2,2] V, int64[1,2,2] I) {
  u = Unsqueeze <axes = [0]> (X)
  V, I = TopK (u, K)
})";
  Model m = text::parse_model(text);
  admit::UpgradeOutcome out = admit::upgrade_model(m, 21);
  ASSERT_EQ(out.refused.size(), 1u);
  EXPECT_EQ(out.refused[0], "(unnamed TopK): TopK-10 → TopK-11 has no upgrade adapter");
  EXPECT_EQ(m.opset(""), 10) << "a refused upgrade changes nothing";
  EXPECT_EQ(m.graph.nodes[0].attributes.size(), 1u) << "nor the nodes an adapter would rewrite";
  EXPECT_TRUE(m.graph.initializers.empty());

  EXPECT_EQ(admit::upgrade_model(m, 9).refused, std::vector<std::string>{"the model's ai.onnx opset 10 is past the target 9"});
  EXPECT_FALSE(admit::upgrade_model(m, 1000).ok());
}

// Attributes that became inputs (Unsqueeze 11 → 13, Split 11 → 13 → 18, ReduceMean 13 → 18; opset
// 21, since Unsqueeze 21 → 23 awaits its review in spec/upgrade-steps.md) are
// moved into initializers the newer versions read, and the model computes the same.
TEST(Upgrade, RewritesAttributesIntoInputs) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 11]>
g (float[2,3] X) => (float[2,1] A, float[1,2,2] B) {
  a, b = Split <axis = 1, split = [1, 2]> (X)
  A = ReduceMean <axes = [1]> (a)
  B = Unsqueeze <axes = [0]> (b)
})");
  std::mt19937 rng(3);
  NamedValues in{{"X", Value(random_floats({2, 3}, rng))}};
  NamedValues before = Interpreter(m).run(in);
  admit::UpgradeOutcome out = admit::upgrade_model(m, 21);
  ASSERT_TRUE(out.ok()) << out.refused.front();
  for (const Node& n : m.graph.nodes) {
    SCOPED_TRACE(n.op_type);
    ASSERT_EQ(n.inputs.size(), 2u) << "the attribute is input 1 now";
    auto it = std::find_if(m.graph.initializers.begin(), m.graph.initializers.end(),
                           [&](const auto& i) { return i.first == n.inputs[1]; });
    ASSERT_NE(it, m.graph.initializers.end());
    std::vector<int64_t> want = n.op_type == "Split"        ? std::vector<int64_t>{1, 2}
                                : n.op_type == "ReduceMean" ? std::vector<int64_t>{1}
                                                            : std::vector<int64_t>{0};
    EXPECT_EQ(it->second.to_int64_vector(), want);
    EXPECT_TRUE(std::none_of(n.attributes.begin(), n.attributes.end(),
                             [](const Attribute& a) { return a.name == "axes" || a.name == "split"; }));
  }
  NamedValues after = Interpreter(m).run(in);
  for (const char* y : {"A", "B"}) EXPECT_TRUE(same_bits(before.at(y).tensor, after.at(y).tensor)) << y;
}

// BatchNormalization before 14 trains exactly when it is asked for its statistics: such a node is
// refused, naming the reason, not carried to version 14's inference form.
TEST(Upgrade, RefusesATrainingBatchNormalization) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 9]>
g (float[2,2] X, float[2] s, float[2] b, float[2] mu, float[2] v) => (float[2,2] Y, float[2] M) {
  Y, M = BatchNormalization (X, s, b, mu, v)
})");
  admit::UpgradeOutcome out = admit::upgrade_model(m, 15);
  ASSERT_EQ(out.refused.size(), 1u);
  EXPECT_EQ(
      out.refused[0],
      "(unnamed BatchNormalization): BatchNormalization-9 → BatchNormalization-14: the node trains (it asks for output 1)");
}

// Nodes of subgraphs are carried with the graph that holds them, and a refusal inside one leaves
// the model's subgraphs untouched too.
TEST(Upgrade, CarriesTheNodesOfSubgraphs) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 13]>
g (bool c, float[2] X) => (float[2] Y) {
  Y = If (c) <then_branch = t () => (float[2] a) { a = Relu (X) }, else_branch = e () => (float[2] b) { b = Sigmoid (X) }>
})");
  admit::UpgradeOutcome out = admit::upgrade_model(m, 14);
  ASSERT_TRUE(out.ok()) << out.refused.front();
  // Relu 13 → 14 in the then branch; Sigmoid and If have no version between 13 and 14.
  EXPECT_EQ(out.steps, std::vector<std::string>{"Relu-13 → Relu-14 (relabel): node (unnamed Relu)"});
  EXPECT_EQ(m.opset(""), 14);
}

// ---- The rewrites of the version steps (admit/adapters_*.cpp): each model is run at its opset and
// after upgrading to the step's newer version, on seeded random inputs, bitwise equal ----

Tensor random_doubles(const Shape& shape, std::mt19937& rng) {
  Tensor t(DType::Double, shape);
  std::uniform_real_distribution<double> u(-2, 2);
  for (int64_t i = 0; i < t.size(); ++i) t.data<double>()[i] = u(rng);
  return t;
}

Tensor random_halves(const Shape& shape, std::mt19937& rng) {
  Tensor t(DType::Float16, shape);
  std::uniform_real_distribution<float> u(-2, 2);
  for (int64_t i = 0; i < t.size(); ++i) t.data<float16_t>()[i] = float16_t(u(rng));
  return t;
}

// Upgrades m to `target` with the types inferred at its opset; expects every step carried and
// every output of a run on `in` bitwise the same as before.
admit::UpgradeOutcome upgrade_and_compare(Model& m, int64_t target, const NamedValues& in) {
  NamedValues before = Interpreter(m).run(in);
  InferenceResult inferred = infer_model(m);
  admit::UpgradeOutcome out = admit::upgrade_model(m, target, &inferred.types);
  EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.refused.front());
  if (!out.ok()) return out;
  EXPECT_EQ(m.opset(""), target);
  NamedValues after = Interpreter(m).run(in);
  for (const auto& [name, value] : before) {
    auto it = after.find(name);
    EXPECT_TRUE(it != after.end() && same_bits(value.tensor, it->second.tensor))
        << "output " << name << " differs after the upgrade";
  }
  return out;
}

// The refusals of upgrading the model `text` to `target`, with the types inferred at its opset
// or, when `with_types` is false, none.
std::vector<std::string> refusals(const char* text, int64_t target, bool with_types = true) {
  Model m = text::parse_model(text);
  InferenceResult inferred = infer_model(m);
  return admit::upgrade_model(m, target, with_types ? &inferred.types : nullptr).refused;
}

const Node& node_writing(const Model& m, const std::string& output) {
  for (const Node& n : m.graph.nodes)
    if (!n.outputs.empty() && n.outputs[0] == output) return n;
  throw std::runtime_error("no node writes " + output);
}

const Tensor& initializer_of(const Model& m, const std::string& name) {
  for (const auto& [n, t] : m.graph.initializers)
    if (n == name) return t;
  throw std::runtime_error("no initializer " + name);
}

std::string string_attribute(const Node& n, const std::string& name) {
  const Attribute* a = n.attr(name);
  return a ? a->s : "(absent)";
}

// Clip 6 → 11: min and max become inputs of X's type, rounded as version 6 rounds them; an absent
// bound stays absent on float only (version 11's default on double is double's lowest, on float16
// ±65504 where version 6's rounds to ±inf).
TEST(Upgrade, RewritesClipBoundsIntoInputsOfTheInputsType) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 6]>
g (float[3,4] X, double[3,4] D, float16[3,4] H) => (float[3,4] A, float[3,4] B, double[3,4] C, float16[3,4] E, float16[3,4] F) {
  A = Clip <min = -0.5> (X)
  B = Clip (X)
  C = Clip <max = 1.25> (D)
  E = Clip <min = -0.3, max = 0.7> (H)
  F = Clip (H)
})");
  std::mt19937 rng(11);
  Tensor x = random_floats({3, 4}, rng), d = random_doubles({3, 4}, rng), h = random_halves({3, 4}, rng);
  const float inf = std::numeric_limits<float>::infinity();
  x.data<float>()[0] = inf;
  x.data<float>()[1] = -inf;
  x.data<float>()[2] = std::numeric_limits<float>::quiet_NaN();
  d.data<double>()[0] = 1e300;
  d.data<double>()[1] = -1e300;
  d.data<double>()[2] = -std::numeric_limits<double>::infinity();
  h.data<float16_t>()[0] = float16_t(inf);
  h.data<float16_t>()[1] = float16_t(-inf);
  admit::UpgradeOutcome out = upgrade_and_compare(m, 11, {{"X", Value(x)}, {"D", Value(d)}, {"H", Value(h)}});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out.steps.front(), "Clip-6 → Clip-11 (rewrite): node (unnamed Clip)");
  for (const Node& n : m.graph.nodes) EXPECT_TRUE(n.attributes.empty()) << n.outputs[0];
  EXPECT_EQ(node_writing(m, "A").inputs.size(), 2u);
  EXPECT_EQ(initializer_of(m, node_writing(m, "A").inputs[1]).data<float>()[0], -0.5f);
  EXPECT_EQ(node_writing(m, "B").inputs, std::vector<std::string>{"X"});
  const Node& c = node_writing(m, "C");
  ASSERT_EQ(c.inputs.size(), 3u);
  EXPECT_EQ(initializer_of(m, c.inputs[1]).data<double>()[0], static_cast<double>(std::numeric_limits<float>::lowest()));
  EXPECT_EQ(initializer_of(m, c.inputs[2]).data<double>()[0], 1.25);
  const Node& f = node_writing(m, "F");
  ASSERT_EQ(f.inputs.size(), 3u);
  EXPECT_EQ(static_cast<float>(initializer_of(m, f.inputs[1]).data<float16_t>()[0]), -inf);
  EXPECT_EQ(initializer_of(m, f.inputs[1]).shape(), Shape{}) << "a scalar";
}

TEST(Upgrade, RefusesAClipWhoseInputTypeIsUnknown) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 6]>
g (float[3] X) => (float[3] Y) {
  r = Relu (X)
  Y = Clip <min = 0.0> (r)
})";
  EXPECT_EQ(refusals(text, 11, false),
            std::vector<std::string>{"(unnamed Clip): Clip-6 → Clip-11: needs the element type of input r"});
  EXPECT_TRUE(refusals(text, 11).empty()) << "the inferred types tell it";
}

// Softmax, LogSoftmax and Hardmax 11 → 13: a row of version 11 that is a line along one axis of
// the input (the axis is the last, or every other dimension after it is 1) keeps its meaning with
// the axis written for version 13 (whose default is -1, not 1).
TEST(Upgrade, CarriesSoftmaxRowsThatAreLinesAlongOneAxis) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 10]>
g (float[2,5] X, float[2,1,3,1] Y, float[2,3,4] Z) => (float[2,5] A, float[2,1,3,1] B, float[2,3,4] C, float[2,3,4] D) {
  A = Softmax (X)
  B = LogSoftmax <axis = 1> (Y)
  C = Hardmax <axis = -1> (Z)
  D = Softmax <axis = 2> (Z)
})");
  std::mt19937 rng(13);
  NamedValues in{{"X", Value(random_floats({2, 5}, rng))},
                 {"Y", Value(random_floats({2, 1, 3, 1}, rng))},
                 {"Z", Value(random_floats({2, 3, 4}, rng))}};
  admit::UpgradeOutcome out = upgrade_and_compare(m, 13, in);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out.steps.front(), "Softmax-1 → Softmax-11 (relabel): node (unnamed Softmax)");
  auto axis = [&](const char* y) {
    const Attribute* a = node_writing(m, y).attr("axis");
    return a ? a->i : -100;
  };
  EXPECT_EQ(axis("A"), 1) << "version 11's default, written";
  EXPECT_EQ(axis("B"), 2) << "the one axis of the row [1, 3, 1] with more than one element";
  EXPECT_EQ(axis("C"), -1);
  EXPECT_EQ(axis("D"), 2);
}

// A row of several axes: Flatten at the axis before a version-13 node along axis 1, and Reshape
// back after it, carried to the profile's opset with the node.
TEST(Upgrade, CarriesSoftmaxRowsOfSeveralAxesBetweenAFlattenAndAReshape) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 11]>
g (float[2,3,4] X) => (float[2,3,4] A, float[2,3,4] B, float[2,3,4] C) {
  A = Softmax <axis = 1> (X)
  B = LogSoftmax <axis = 0> (X)
  C = Hardmax <axis = -2> (X)
})");
  std::mt19937 rng(31);
  Tensor x = random_floats({2, 3, 4}, rng);
  Tensor a = Interpreter(m).run({{"X", Value(x)}}).at("A").tensor;
  for (int row = 0; row < 2; ++row) {  // version 11's rows: 12 elements each, summing to 1
    double sum = 0;
    for (int k = 0; k < 12; ++k) sum += a.data<float>()[row * 12 + k];
    EXPECT_NEAR(sum, 1.0, 1e-5);
  }
  admit::UpgradeOutcome out = upgrade_and_compare(m, 25, {{"X", Value(x)}});
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(m.graph.nodes.size(), 9u) << "three Flatten, normalize, Reshape triples";
  for (size_t k = 0; k < 9; k += 3) {
    const Node &flatten = m.graph.nodes[k], &norm = m.graph.nodes[k + 1], &reshape = m.graph.nodes[k + 2];
    EXPECT_EQ(flatten.op_type, "Flatten");
    EXPECT_EQ(norm.inputs[0], flatten.outputs[0]);
    EXPECT_EQ(norm.attr("axis")->i, 1);
    EXPECT_EQ(reshape.op_type, "Reshape");
    EXPECT_EQ(reshape.inputs[0], norm.outputs[0]);
    EXPECT_EQ(initializer_of(m, reshape.inputs[1]).to_int64_vector(), (std::vector<int64_t>{2, 3, 4}));
  }
  EXPECT_EQ(m.graph.nodes[0].attr("axis")->i, 1);
  EXPECT_EQ(m.graph.nodes[3].attr("axis")->i, 0);
  EXPECT_EQ(m.graph.nodes[6].attr("axis")->i, 1) << "-2 of rank 3";
  EXPECT_NE(std::find(out.steps.begin(), out.steps.end(), "Flatten-13 → Flatten-21 (relabel): node Softmax_flatten"),
            out.steps.end())
      << "the added nodes are carried from opset 13";
}

TEST(Upgrade, RefusesASoftmaxOfSeveralAxesWhoseShapeOrRankIsUnknown) {
  EXPECT_EQ(refusals(R"(<ir_version: 8, opset_import: ["" : 11]>
g (float[N,3,4] X) => (float[N,3,4] Y) {
  Y = Softmax <axis = 1> (X)
})",
                     13),
            std::vector<std::string>{"(unnamed Softmax): Softmax-11 → Softmax-13: its rows span several axes: flattening them "
                                     "and reshaping back needs input X's static shape"});
  const char* unranked = R"(<ir_version: 8, opset_import: ["" : 11]>
g (float[2,3] X) => (float[2,3] Y) {
  r = Relu (X)
  Y = Softmax (r)
})";
  EXPECT_EQ(refusals(unranked, 13, false),
            std::vector<std::string>{"(unnamed Softmax): Softmax-11 → Softmax-13: needs the rank of input r"});
  EXPECT_TRUE(refusals(unranked, 13).empty()) << "the inferred types tell it";
}

// Pad 2 → 11: pads becomes an int64 input; the constant, converted to X's type as version 2 converts
// it, an input when the mode reads it and it is not +0.
TEST(Upgrade, RewritesPadAttributesIntoInputs) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 10]>
g (float[2,3] X, double[2,3] D, float16[2,3] H) => (float[3,6] A, double[2,2] B, float16[4,3] C, float[2,5] E) {
  A = Pad <pads = [1, 0, 0, 3], value = 1.5> (X)
  B = Pad <pads = [0, 1, 0, -2], value = -0.0> (D)
  C = Pad <pads = [1, 0, 1, 0], value = 0.1> (H)
  E = Pad <mode = "reflect", pads = [0, 1, 0, 1], value = 7.0> (X)
})");
  std::mt19937 rng(17);
  NamedValues in{{"X", Value(random_floats({2, 3}, rng))},
                 {"D", Value(random_doubles({2, 3}, rng))},
                 {"H", Value(random_halves({2, 3}, rng))}};
  admit::UpgradeOutcome out = upgrade_and_compare(m, 11, in);
  ASSERT_TRUE(out.ok());
  const Node& a = node_writing(m, "A");
  ASSERT_EQ(a.inputs.size(), 3u);
  EXPECT_EQ(initializer_of(m, a.inputs[1]).to_int64_vector(), (std::vector<int64_t>{1, 0, 0, 3}));
  EXPECT_EQ(initializer_of(m, a.inputs[2]).data<float>()[0], 1.5f);
  const Node& b = node_writing(m, "B");
  ASSERT_EQ(b.inputs.size(), 3u) << "a -0 constant is not version 11's default +0";
  EXPECT_TRUE(std::signbit(initializer_of(m, b.inputs[2]).data<double>()[0]));
  EXPECT_EQ(node_writing(m, "E").inputs.size(), 2u) << "reflect reads no constant";
  EXPECT_EQ(string_attribute(a, "mode"), "(absent)");
  for (const Node& n : m.graph.nodes) EXPECT_FALSE(n.attr("pads") || n.attr("value"));
}

TEST(Upgrade, RefusesAPadConstantWhoseTypeIsUnknown) {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 10]>
g (float[2] X) => (float[4] Y) {
  r = Relu (X)
  Y = Pad <pads = [1, 1], value = 2.0> (r)
})";
  EXPECT_EQ(refusals(text, 11, false),
            std::vector<std::string>{
                "(unnamed Pad): Pad-2 → Pad-11: needs the element type of input r (the type of the constant)"});
  EXPECT_TRUE(refusals(text, 11).empty());
}

// Resize 10 → 11: an empty roi, asymmetric coordinates and, for nearest, the rounding version 10
// applies to the scales given (down when enlarging, up when shrinking).
TEST(Upgrade, RewritesResize10IntoAsymmetricCoordinates) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 10]>
g (float[1,1,5,9] X, float[4] S) => (float[1,1,10,22] A, float[1,1,2,3] B, float[1,1,12,22] C) <float[4] up = {1, 1, 2, 2.5}, float[4] down = {1, 1, 0.5, 0.4}> {
  A = Resize (X, up)
  B = Resize (X, down)
  C = Resize <mode = "linear"> (X, S)
})");
  std::mt19937 rng(19);
  NamedValues in{{"X", Value(random_floats({1, 1, 5, 9}, rng))},
                 {"S", Value(Tensor::from_vector<float>({4}, {1, 1, 2.5f, 2.5f}))}};
  admit::UpgradeOutcome out = upgrade_and_compare(m, 11, in);
  ASSERT_TRUE(out.ok());
  for (const Node& n : m.graph.nodes) {
    ASSERT_EQ(n.inputs.size(), 3u);
    EXPECT_EQ(initializer_of(m, n.inputs[1]).size(), 0) << "an empty roi";
    EXPECT_EQ(string_attribute(n, "coordinate_transformation_mode"), "asymmetric");
  }
  EXPECT_EQ(string_attribute(node_writing(m, "A"), "nearest_mode"), "floor");
  EXPECT_EQ(string_attribute(node_writing(m, "B"), "nearest_mode"), "ceil");
  EXPECT_EQ(string_attribute(node_writing(m, "C"), "nearest_mode"), "(absent)");
}

// Nearest resizing that enlarges some axes and shrinks others: two version-11 nodes, the first
// rounding down on the enlarged axes, the second up on the shrunk ones.
TEST(Upgrade, SplitsANearestResize10ThatRoundsBothWays) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 10]>
g (float[1,1,3,9] X) => (float[1,1,6,3] Y) <float[4] mixed = {1, 1, 2, 0.4}> {
  Y = Resize (X, mixed)
})");
  std::vector<float> x(27);
  for (int i = 0; i < 27; ++i) x[i] = static_cast<float>(i);
  NamedValues in{{"X", Value(Tensor::from_vector<float>({1, 1, 3, 9}, x))}};
  // Rows o / 2 rounded down (0 0 1 1 2 2), columns o / 0.4 = 0, 2.5, 5 rounded up (0 3 5).
  std::vector<float> want;
  for (int row : {0, 0, 1, 1, 2, 2})
    for (int col : {0, 3, 5}) want.push_back(static_cast<float>(9 * row + col));
  EXPECT_TRUE(Interpreter(m).run(in).at("Y").tensor == Tensor::from_vector<float>({1, 1, 6, 3}, want));
  admit::UpgradeOutcome out = upgrade_and_compare(m, 19, in);
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(m.graph.nodes.size(), 2u);
  const Node &enlarge = m.graph.nodes[0], &shrink = m.graph.nodes[1];
  EXPECT_EQ(shrink.inputs[0], enlarge.outputs[0]);
  EXPECT_EQ(string_attribute(enlarge, "nearest_mode"), "floor");
  EXPECT_EQ(string_attribute(shrink, "nearest_mode"), "ceil");
  EXPECT_TRUE(initializer_of(m, enlarge.inputs[2]) == Tensor::from_vector<float>({4}, {1, 1, 2, 1}));
  EXPECT_TRUE(initializer_of(m, shrink.inputs[2]) == Tensor::from_vector<float>({4}, {1, 1, 1, 0.4f}));
}

TEST(Upgrade, RefusesANearestResize10WhoseScalesAreNotConstant) {
  EXPECT_EQ(refusals(R"(<ir_version: 8, opset_import: ["" : 10]>
g (float[1,1,3,4] X, float[4] S) => (float[1,1,3,4] B) {
  B = Resize (X, S)
})",
                     11),
            std::vector<std::string>{
                "(unnamed Resize): Resize-10 → Resize-11: needs scales (S) as a constant: version 10 rounds down where it "
                "enlarges and up where it shrinks, version 11 has one nearest_mode"});
}

// Resize 11 → 13: tf_half_pixel_for_nn leaves the coordinate modes; with nearest_mode
// round_prefer_floor or floor it is half_pixel with ceil or round_prefer_ceil.
TEST(Upgrade, RewritesTfHalfPixelForNearestIntoHalfPixel) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 11]>
g (float[1,2,5,7] X) => (float[1,2,8,4] A, float[1,2,8,4] B, float[1,2,16,23] C, float[1,2,16,23] D) <float[0] roi = {}, float[4] s = {1, 1, 1.7, 0.6}, float[4] t = {1, 1, 3.3, 3.37}> {
  A = Resize <coordinate_transformation_mode = "tf_half_pixel_for_nn"> (X, roi, s)
  B = Resize <coordinate_transformation_mode = "tf_half_pixel_for_nn", nearest_mode = "floor"> (X, roi, s)
  C = Resize <coordinate_transformation_mode = "tf_half_pixel_for_nn"> (X, roi, t)
  D = Resize <coordinate_transformation_mode = "tf_half_pixel_for_nn", nearest_mode = "floor"> (X, roi, t)
})");
  std::mt19937 rng(23);
  admit::UpgradeOutcome out = upgrade_and_compare(m, 13, {{"X", Value(random_floats({1, 2, 5, 7}, rng))}});
  ASSERT_TRUE(out.ok());
  for (const Node& n : m.graph.nodes) EXPECT_EQ(string_attribute(n, "coordinate_transformation_mode"), "half_pixel");
  EXPECT_EQ(string_attribute(node_writing(m, "A"), "nearest_mode"), "ceil");
  EXPECT_EQ(string_attribute(node_writing(m, "B"), "nearest_mode"), "round_prefer_ceil");
}

TEST(Upgrade, RefusesTfHalfPixelForNearestWithoutAHalfPixelForm) {
  std::vector<std::string> why = refusals(R"(<ir_version: 8, opset_import: ["" : 11]>
g (float[1,1,5,7] X) => (float[1,1,8,4] A, float[1,1,8,4] B) <float[0] roi = {}, float[4] s = {1, 1, 1.7, 0.6}> {
  A = Resize <coordinate_transformation_mode = "tf_half_pixel_for_nn", nearest_mode = "round_prefer_ceil"> (X, roi, s)
  B = Resize <coordinate_transformation_mode = "tf_half_pixel_for_nn", mode = "linear"> (X, roi, s)
})",
                                          13);
  EXPECT_EQ(why, (std::vector<std::string>{
                     "(unnamed Resize): Resize-11 → Resize-13: coordinate_transformation_mode tf_half_pixel_for_nn with "
                     "nearest_mode round_prefer_ceil has no version-13 form",
                     "(unnamed Resize): Resize-11 → Resize-13: coordinate_transformation_mode tf_half_pixel_for_nn with mode "
                     "linear has no version-13 form"}));
}

// Erf 9 → 13: version 13 has no integer types; a node on floats is carried as it is, one on
// integers between casts to double and back, one of unknown type refused.
TEST(Upgrade, CarriesErfOnFloatsAsItIsAndOnIntegersInDouble) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 9]>
g (float[6] X) => (float[6] Y) {
  Y = Erf (X)
})");
  std::mt19937 rng(29);
  admit::UpgradeOutcome out = upgrade_and_compare(m, 13, {{"X", Value(random_floats({6}, rng))}});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out.steps, std::vector<std::string>{"Erf-9 → Erf-13 (rewrite): node (unnamed Erf)"});

  Model ints = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 9]>
g (int32[7] X, uint8[3] U) => (int32[7] Y, uint8[3] V) {
  Y = Erf (X)
  V = Erf (U)
})");
  // erf(6) rounds to 1 in double (1 - 2e-17), erf(3) = 0.99998 and erf(1) = 0.84 go toward zero.
  NamedValues in{{"X", Value(Tensor::from_vector<int32_t>({7}, {-7, -3, -1, 0, 1, 3, 6}))},
                 {"U", Value(Tensor::from_vector<uint8_t>({3}, {0, 5, 200}))}};
  NamedValues before = Interpreter(ints).run(in);
  EXPECT_EQ(before.at("Y").tensor.to_int64_vector(), (std::vector<int64_t>{-1, 0, 0, 0, 0, 0, 1}));
  EXPECT_EQ(before.at("V").tensor.to_int64_vector(), (std::vector<int64_t>{0, 0, 1}));
  ASSERT_TRUE(upgrade_and_compare(ints, 25, in).ok());
  std::vector<std::string> ops;
  for (const Node& n : ints.graph.nodes) ops.push_back(n.op_type);
  EXPECT_EQ(ops, (std::vector<std::string>{"Cast", "Erf", "Cast", "Cast", "Erf", "Cast"}));
  EXPECT_EQ(ints.graph.nodes[0].attr("to")->i, static_cast<int64_t>(DType::Double));
  EXPECT_EQ(ints.graph.nodes[2].attr("to")->i, static_cast<int64_t>(DType::Int32));
  EXPECT_EQ(ints.graph.nodes[5].attr("to")->i, static_cast<int64_t>(DType::UInt8));

  EXPECT_EQ(refusals(R"(<ir_version: 8, opset_import: ["" : 9]>
g (float[6] X) => (float[6] Y) {
  r = Relu (X)
  Y = Erf (r)
})",
                     13, false),
            std::vector<std::string>{"(unnamed Erf): Erf-9 → Erf-13: needs the element type of input r"});
}

// ConvTranspose 1 → 11: with output_shape and auto_pad NOTSET or VALID version 1 puts an odd total
// padding's extra element at the end, version 11 at the beginning unless SAME_UPPER: the node
// becomes SAME_UPPER, and an output_shape with N and C gives its spatial lengths only.
TEST(Upgrade, RewritesConvTransposeOutputShapeIntoSameUpper) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 10]>
g (float[1,2,3,3] X, float[2,3,3,3] W) => (float[1,3,6,6] A, float[1,3,6,6] B, float[1,3,7,7] C) {
  A = ConvTranspose <strides = [2, 2], output_shape = [6, 6], pads = [1, 1, 1, 1]> (X, W)
  B = ConvTranspose <strides = [2, 2], output_shape = [1, 3, 6, 6], auto_pad = "VALID"> (X, W)
  C = ConvTranspose <strides = [2, 2]> (X, W)
})");
  std::mt19937 rng(31);
  NamedValues in{{"X", Value(random_floats({1, 2, 3, 3}, rng))}, {"W", Value(random_floats({2, 3, 3, 3}, rng))}};
  admit::UpgradeOutcome out = upgrade_and_compare(m, 11, in);
  ASSERT_TRUE(out.ok());
  for (const char* y : {"A", "B"}) {
    const Node& n = node_writing(m, y);
    EXPECT_EQ(string_attribute(n, "auto_pad"), "SAME_UPPER") << y;
    EXPECT_EQ(n.attr("output_shape")->ints, (std::vector<int64_t>{6, 6})) << y;
    EXPECT_EQ(n.attr("pads"), nullptr) << y;
  }
  EXPECT_EQ(string_attribute(node_writing(m, "C"), "auto_pad"), "(absent)") << "no output_shape: nothing to change";
}

TEST(Upgrade, RefusesAConvTransposeWhoseOutputPaddingVersion11Forbids) {
  EXPECT_EQ(refusals(R"(<ir_version: 8, opset_import: ["" : 10]>
g (float[1,2,3,3] X, float[2,3,3,3] W) => (float[1,3,9,9] Y) {
  Y = ConvTranspose <strides = [2, 2], output_padding = [2, 2]> (X, W)
})",
                     11),
            std::vector<std::string>{"(unnamed ConvTranspose): ConvTranspose-1 → ConvTranspose-11: output_padding 2 on spatial "
                                     "axis 0 is not less than its stride or its dilation, as version 11 requires"});
}

}  // namespace
}  // namespace sonnx
