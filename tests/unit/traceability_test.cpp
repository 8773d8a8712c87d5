// Traceability: spec/restrictions.md, the rule table in the code, the profiles and the fixtures list
// the same rule IDs. A rule added in one place and not the others fails here.
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "reference/check/profile.h"
#include "reference/check/rules.h"

namespace sonnx {
namespace {

std::set<std::string> spec_rule_ids(const std::string& text) {
  std::set<std::string> ids;
  std::regex heading(R"(^### ([A-Z][A-Z0-9-]+))");
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, heading)) ids.insert(m[1]);
  }
  return ids;
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::set<std::string> code_rule_ids() {
  std::set<std::string> ids;
  for (const auto& r : all_rules()) ids.insert(r.id);
  return ids;
}

// The comparison itself, so that it can be shown to fail on an unmapped rule.
std::vector<std::string> traceability_gaps(const std::set<std::string>& spec, const std::set<std::string>& code,
                                           const std::set<std::string>& profiled, const std::set<std::string>& fixtures) {
  std::vector<std::string> gaps;
  for (const auto& id : spec) {
    if (!code.count(id)) gaps.push_back(id + " is in spec/restrictions.md but has no check");
    if (!fixtures.count(id)) gaps.push_back(id + " has no fixture model");
    if (!profiled.count(id)) gaps.push_back(id + " is in no profile");
  }
  for (const auto& id : code)
    if (!spec.count(id)) gaps.push_back(id + " is checked but has no paragraph in spec/restrictions.md");
  return gaps;
}

std::set<std::string> fixture_rule_ids() {
  std::set<std::string> ids;
  const char* d = std::getenv("SONNX_RULE_FIXTURES");
  if (!d) return ids;
  std::ifstream in(std::string(d) + "/expected.json");
  if (!in) return ids;
  auto all = nlohmann::json::parse(in);
  for (const auto& [k, v] : all["rules"].items()) ids.insert(k);
  return ids;
}

std::set<std::string> profiled_rule_ids() {
  auto ids = load_profile("sonnx").rules;  // sonnx extends onnx
  return ids;
}

TEST(Traceability, SpecCodeProfilesAndFixturesAgree) {
  auto spec = spec_rule_ids(read(std::string(SONNX_SOURCE_DIR) + "/spec/restrictions.md"));
  ASSERT_GE(spec.size(), 20u);
  auto gaps = traceability_gaps(spec, code_rule_ids(), profiled_rule_ids(), fixture_rule_ids());
  for (const auto& g : gaps) ADD_FAILURE() << g;
}

TEST(Traceability, FailsOnARuleWithoutACheck) {
  auto spec = spec_rule_ids("### STRUCT-SSA\n### NEW-RULE-WITHOUT-CHECK\n");
  auto gaps = traceability_gaps(spec, code_rule_ids(), profiled_rule_ids(), fixture_rule_ids());
  bool found = false;
  for (const auto& g : gaps)
    found = found || g.find("NEW-RULE-WITHOUT-CHECK is in spec/restrictions.md but has no check") != std::string::npos;
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace sonnx
