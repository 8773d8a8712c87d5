// Every validator rule against its fixture: the model breaks the rule exactly once, the diagnostic
// names the expected node or value, and no other error fires. Good models pass both profiles.
// Fixtures come from tests/fixtures/make_rule_fixtures.py (run by ctest before this test).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "reference/catalogue/catalogue.h"
#include "tests/unit/catalogue_test_util.h"
#include "reference/check/rules.h"
#include "reference/check/validator.h"
#include "reference/interp/inliner.h"
#include "reference/interp/interpreter.h"
#include "sonnx/errors.h"

namespace sonnx {
namespace {

std::string fixtures_dir() {
  const char* d = std::getenv("SONNX_RULE_FIXTURES");
  return d ? d : "";
}

nlohmann::json expected() {
  std::ifstream in(fixtures_dir() + "/expected.json");
  if (!in) return nullptr;
  return nlohmann::json::parse(in);
}

class RuleFixture : public ::testing::TestWithParam<std::string> {};

// Checks one fixture against its expectation: `rule` fires exactly once, naming the expected node,
// value and graph, at the expected severity; no other rule gives an error unless listed in "also".
void expect_breaks_exactly(const std::string& file, const std::string& rule, const nlohmann::json& e) {
  auto lm = load_model(fixtures_dir() + "/" + file + ".onnx");
  auto ds = validate(*lm, load_profile(e["profile"].get<std::string>()));
  int hits = 0;
  for (const auto& d : ds) {
    if (d.rule == rule) {
      ++hits;
      if (!e["node"].is_null()) {
        EXPECT_EQ(d.node, e["node"].get<std::string>()) << d.message;
      }
      if (!e["value"].is_null()) {
        EXPECT_EQ(d.value, e["value"].get<std::string>()) << d.message;
      }
      if (e.contains("graph") && !e["graph"].is_null()) {
        EXPECT_EQ(d.graph, e["graph"].get<std::string>()) << d.message;
      }
      if (e.contains("severity")) {
        EXPECT_EQ(severity_name(d.severity), e["severity"].get<std::string>()) << d.message;
      }
      EXPECT_EQ(d.message.rfind(rule + ":", 0), 0u) << "message must start with the rule: " << d.message;
    } else if (std::find(e["also"].begin(), e["also"].end(), d.rule) == e["also"].end()) {
      EXPECT_NE(d.severity, Severity::Error) << "unexpected " << d.rule << ": " << d.message;
    }
  }
  EXPECT_EQ(hits, 1) << rule << " fired " << hits << " times on " << file;
}

// OP-IMPLEMENTED is unreachable while every operator version of the catalogue has a kernel or a
// function body (make_rule_fixtures.py): the claim itself is checked, so that the day a version
// lacks both this test fails and the fixture can break the rule with that version.
void expect_rule_unreachable(const std::string& rule) {
  ASSERT_EQ(rule, "OP-IMPLEMENTED") << "only OP-IMPLEMENTED may be without a fixture model";
  for (const catalogue::Schema& s : catalogue::all()) {
    std::string why;
    EXPECT_TRUE(testing::schema_runnable(s, why)) << s.id() << ": " << why;
  }
}

TEST_P(RuleFixture, BreaksExactlyItsRule) {
  auto all = expected();
  ASSERT_FALSE(all.is_null()) << "fixtures missing: set SONNX_RULE_FIXTURES (ctest does)";
  const std::string rule = GetParam();
  ASSERT_TRUE(all["rules"].contains(rule)) << "no fixture for rule " << rule;
  if (all["rules"][rule].contains("unreachable")) return expect_rule_unreachable(rule);
  expect_breaks_exactly(rule, rule, all["rules"][rule]);
}

// The corners: function bodies (what inlining produces), subgraphs, the onnx-profile severity.
TEST(RuleFixtures, CornersBreakExactlyTheirRule) {
  auto all = expected();
  ASSERT_FALSE(all.is_null());
  ASSERT_GE(all["corners"].size(), 16u);
  for (const auto& [name, e] : all["corners"].items()) {
    SCOPED_TRACE(name);
    expect_breaks_exactly(name, e["rule"].get<std::string>(), e);
  }
}

std::vector<std::string> rule_ids() {
  std::vector<std::string> ids;
  for (const auto& r : all_rules()) ids.push_back(r.id);
  return ids;
}

INSTANTIATE_TEST_SUITE_P(AllRules, RuleFixture, ::testing::ValuesIn(rule_ids()), [](const auto& info) {
  std::string n = info.param;
  for (auto& ch : n)
    if (ch == '-') ch = '_';
  return n;
});

TEST(RuleFixtures, GoodModelsPassBothProfiles) {
  auto all = expected();
  ASSERT_FALSE(all.is_null());
  for (const auto& name : all["good"]) {
    auto lm = load_model(fixtures_dir() + "/" + name.get<std::string>() + ".onnx");
    bool sonnx_clean = name.get<std::string>().rfind("good_sonnx", 0) == 0;
    for (std::string profile : {"onnx", "sonnx"}) {
      if (profile == "sonnx" && !sonnx_clean) continue;
      auto ds = validate(*lm, load_profile(profile));
      for (const auto& d : ds) ADD_FAILURE() << name << " under " << profile << ": " << d.rule << ": " << d.message;
    }
  }
}

// The SONNX operator set lists versions ("Relu-14"); a profile naming a version the catalogue lacks
// is refused when loaded, and a bare name allows every version.
TEST(Profiles, OperatorSetEntriesAreCatalogueVersions) {
  Profile sonnx = load_profile("sonnx");
  ASSERT_TRUE(sonnx.operators.count("Relu"));
  EXPECT_EQ(sonnx.operators.at("Relu"), std::set<int64_t>{14});
  EXPECT_EQ(sonnx.operators.at("Range"), std::set<int64_t>{11});
  auto dir = std::filesystem::temp_directory_path() / ("sonnx_profile_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& ops) {
    std::ofstream(dir / name) << R"({"name": "p", "rules": ["SONNX-OPERATOR-SET"], "operators": [)" << ops << "]}";
    return (dir / name).string();
  };
  try {
    load_profile(write("bad.json", R"("Relu-12")"));
    ADD_FAILURE() << "Relu-12 is not a version of Relu";
  } catch (const LoadError& e) {
    EXPECT_NE(std::string(e.what()).find("Relu-12 is not a version"), std::string::npos) << e.what();
  }
  Profile any = load_profile(write("any.json", R"("Relu")"));
  EXPECT_TRUE(any.operators.at("Relu").empty());
  std::filesystem::remove_all(dir);
}

TEST(Validator, ReportsEveryViolationNotJustTheFirst) {
  // STRUCT-DEFINED and OP-EXISTS and STRUCT-OUTPUT, all in one model.
  auto lm = load_model(fixtures_dir() + "/STRUCT-DEFINED.onnx");
  lm->ir.graph.nodes.push_back(lm->ir.graph.nodes[0]);
  lm->ir.graph.nodes.back().op_type = "Frobnicate";
  lm->ir.graph.nodes.back().outputs = {"Z"};
  lm->ir.graph.nodes.back().name = "second";
  auto ds = validate(*lm, load_profile("onnx"));
  int defined = 0, exists = 0;
  for (const auto& d : ds) {
    defined += d.rule == "STRUCT-DEFINED";
    exists += d.rule == "OP-EXISTS";
  }
  EXPECT_EQ(defined, 2);
  EXPECT_EQ(exists, 1);
}

// FUNC-RECURSION names the call cycle Kahn's algorithm leaves unscheduled: f calls g, g calls f.
TEST(Validator, RecursionNamesTheCallCycle) {
  auto lm = load_model(fixtures_dir() + "/FUNC-RECURSION.onnx");
  auto ds = validate(*lm, load_profile("onnx"));
  ASSERT_EQ(ds.size(), 1u);
  const std::string& msg = ds[0].message;
  EXPECT_TRUE(msg.find("local.f -> local.g -> local.f") != std::string::npos ||
              msg.find("local.g -> local.f -> local.g") != std::string::npos)
      << msg;
}

// A local function named like a standard operator is a fallback of that operator (IR.md): the model
// means the standard Relu, not the function's Neg, and sonnx runs Relu — as the warning says.
TEST(Validator, ShadowingFunctionRunsTheStandardOperator) {
  auto lm = load_model(fixtures_dir() + "/FUNC-SHADOWS-STANDARD.onnx");
  NamedValues in;
  in["X"] = Value(Tensor::from_vector<float>({2}, {-1.5f, 2}));
  NamedValues out = Interpreter(lm->ir).run(in);
  const float* y = out.at("Y").tensor.data<float>();
  EXPECT_EQ(y[0], 0.0f);  // Relu(-1.5); the body would give 1.5
  EXPECT_EQ(y[1], 2.0f);  // Relu(2); the body would give -2
  EXPECT_TRUE(Interpreter(inline_model(lm->ir)).run(in) == out);
}

// An input with an initializer (allowed under onnx): the caller's tensor overrides the default.
TEST(Validator, InputDefaultIsOverriddenByTheCaller) {
  auto lm = load_model(fixtures_dir() + "/good_onnx_input_default.onnx");
  NamedValues in;
  in["X"] = Value(Tensor::from_vector<float>({2}, {1, 2}));
  EXPECT_EQ(Interpreter(lm->ir).run(in).at("Y").tensor.data<float>()[1], 3.0f);  // 2 + default 1
  in["W"] = Value(Tensor::from_vector<float>({2}, {10, 20}));
  EXPECT_EQ(Interpreter(lm->ir).run(in).at("Y").tensor.data<float>()[1], 22.0f);  // 2 + given 20
}

// No implicit conversion at the boundary either: a tensor of another element type than the declared
// one is refused, not converted.
TEST(Validator, RunRefusesAnInputOfAnotherElementType) {
  auto lm = load_model(fixtures_dir() + "/good_sonnx_function.onnx");
  NamedValues in;
  in["X"] = Value(Tensor::from_vector<int64_t>({2}, {1, 2}));
  EXPECT_THROW(Interpreter(lm->ir).run(in), Trap);
  in["X"] = Value(Tensor::from_vector<float>({2}, {1, -2}));
  NamedValues out = Interpreter(lm->ir).run(in);
  const float* y = out.at("Y").tensor.data<float>();
  EXPECT_EQ(y[0], -1.0f);  // Neg(Relu(1))
  EXPECT_EQ(y[1], 0.0f);   // Neg(Relu(-2)) is -0
}

}  // namespace
}  // namespace sonnx
