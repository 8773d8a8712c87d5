// Version upgrades (admit/upgrade.h): every adapter in a record goes to the operator's next
// version, every relabel is a step whose signature the catalogue shows unchanged and whose type
// lists only grow, and upgrading a model carries each node step by step, or refuses by name and
// leaves the model as it was.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <set>

#include "admit/upgrade.h"
#include "reference/catalogue/catalogue.h"
#include "reference/interp/interpreter.h"
#include "reference/model/text_syntax.h"

namespace sonnx {
namespace {

std::set<std::string> types_of(const catalogue::Schema& s, const catalogue::Formal& f) {
  if (const catalogue::TypeConstraint* c = s.constraint(f.type)) return {c->types.begin(), c->types.end()};
  return {f.type};
}

// Whether a node of `old` means the same read as `next`: the same attributes (name, type,
// requiredness, default), the same inputs and outputs (name, option), and each one's types among
// the newer version's.
std::string relabel_evidence(const catalogue::Schema& old, const catalogue::Schema& next) {
  if (old.attributes.size() != next.attributes.size()) return "the attributes differ in number";
  for (const auto& a : old.attributes) {
    const catalogue::AttributeSpec* b = next.attribute(a.name);
    if (!b || b->type != a.type || b->required != a.required || a.default_value.has_value() != b->default_value.has_value())
      return "attribute " + a.name + " differs";
  }
  for (auto [o, n] : {std::pair{&old.inputs, &next.inputs}, std::pair{&old.outputs, &next.outputs}}) {
    if (o->size() != n->size()) return "the inputs or outputs differ in number";
    for (size_t i = 0; i < o->size(); ++i) {
      if ((*o)[i].name != (*n)[i].name || (*o)[i].option != (*n)[i].option) return "formal " + (*o)[i].name + " differs";
      std::set<std::string> a = types_of(old, (*o)[i]), b = types_of(next, (*n)[i]);
      for (const auto& t : a)
        if (!b.count(t)) return "formal " + (*o)[i].name + " loses " + t;
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
    for (int64_t v = rec.version + 1; v < rec.upgrade->to; ++v)
      EXPECT_EQ(catalogue::exact(rec.domain, rec.op_type, v), nullptr) << "the adapter skips version " << v;
    if (rec.upgrade->rewrite) continue;
    ++relabels;
    EXPECT_EQ(relabel_evidence(*old, *next), "");
  }
  EXPECT_GE(relabels, 90) << "spec/upgrade-steps.md lists 98 type widenings";
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
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2,3] X) => (float[2,1] Y) {
  s = Sigmoid (X)
  Y = ReduceMean <axes = [1]> (s)
})";
  Model m = text::parse_model(text);
  admit::UpgradeOutcome out = admit::upgrade_model(m, 25);
  ASSERT_EQ(out.refused.size(), 1u);
  EXPECT_EQ(out.refused[0], "(unnamed ReduceMean): ReduceMean-13 → ReduceMean-18 has no upgrade adapter");
  EXPECT_EQ(m.opset(""), 13) << "a refused upgrade changes nothing";

  EXPECT_EQ(admit::upgrade_model(m, 12).refused, std::vector<std::string>{"the model's ai.onnx opset 13 is past the target 12"});
  EXPECT_FALSE(admit::upgrade_model(m, 1000).ok());
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
