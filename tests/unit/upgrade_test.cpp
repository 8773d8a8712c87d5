// Version upgrades (admit/upgrade.h): every adapter in a record goes to the operator's next
// version, every relabel is a step whose signature the catalogue shows unchanged and whose type
// lists only grow, and upgrading a model carries each node step by step, or refuses by name and
// leaves the model as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <set>

#include "admit/upgrade.h"
#include "reference/catalogue/catalogue.h"
#include "reference/check/profile.h"
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
  const std::map<std::string, std::string> pending = {
      {"AveragePool-10", "the text of 11 changes the output size with pads; to read"},
      {"AveragePool-19", "22 ignores windows that start in the right padding (ceil_mode); to read"},
      {"Cast-6", "casts from strings are defined from 9; to read"},
      {"Cast-9", "13 defines out-of-range conversions; to read against the kernels"},
      {"Clip-6", "min and max become inputs of X's element type: the rewrite needs the types"},
      {"Clip-12", "13 defines min > max; to check the version-12 kernel agrees"},
      {"Conv-1", "11 details auto_pad and group; to read"},
      {"ConvTranspose-1", "11 changes the auto_pad condition and output_padding; to read"},
      {"Erf-9", "13 drops the integer types: a node on integers has no version-13 form"},
      {"Gather-11", "13 rewrites the text as a table; to read"},
      {"MaxPool-10", "11 details dilations and pads; to read"},
      {"MaxPool-11", "12 changes the output-size text; to read"},
      {"MaxPool-12", "22 ignores windows that start in the right padding; to read"},
      {"Mod-10", "13 states fmod's types and semantics; to read"},
      {"Pad-2", "pads and value become inputs, value of X's element type: the rewrite needs the types"},
      {"Pad-13", "18 adds the axes input; to write"},
      {"Resize-10", "11 adds the coordinate modes and roi: to write"},
      {"Resize-11", "13 makes roi and scales optional: to write"},
      {"Resize-13", "18 adds antialias, axes, keep_aspect_ratio_policy: to write"},
      {"Resize-18", "19 adds half_pixel_symmetric and changes the text; to read"},
      {"ScatterND-16", "18 adds max and min reductions; to read"},
      {"Slice-10", "11 allows negative axes and steps' text; to read"},
      {"Slice-11", "13 rewrites the text as an algorithm; to read"},
      {"Softmax-1", "11 changes the text; to read"},
      {"Softmax-11", "13 normalizes along one axis, not the input coerced to 2-D: the rewrite needs the rank"},
  };
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
  // Softmax-11 normalizes the input coerced to 2-D at the axis, Softmax-13 along the one axis: no
  // adapter (yet); the Unsqueeze before it could be carried, but the model is left as it was.
  const char* text = R"(<ir_version: 8, opset_import: ["" : 11]>
g (float[2,3] X) => (float[1,2,3] Y) {
  u = Unsqueeze <axes = [0]> (X)
  Y = Softmax <axis = 1> (u)
})";
  Model m = text::parse_model(text);
  admit::UpgradeOutcome out = admit::upgrade_model(m, 21);
  ASSERT_EQ(out.refused.size(), 1u);
  EXPECT_EQ(out.refused[0], "(unnamed Softmax): Softmax-11 → Softmax-13 has no upgrade adapter");
  EXPECT_EQ(m.opset(""), 11) << "a refused upgrade changes nothing";
  EXPECT_EQ(m.graph.nodes[0].attributes.size(), 1u) << "nor the nodes an adapter would rewrite";
  EXPECT_TRUE(m.graph.initializers.empty());

  EXPECT_EQ(admit::upgrade_model(m, 10).refused, std::vector<std::string>{"the model's ai.onnx opset 11 is past the target 10"});
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

}  // namespace
}  // namespace sonnx
