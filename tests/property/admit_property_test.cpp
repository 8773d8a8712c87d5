// `sonnx admit` on the fuzzer's random graphs (issue 36): recipes at every ai.onnx opset from 7 to
// 17 are generated (conformance/fuzz, each operator in the form its version there takes), checked
// against the onnx profile and admitted into the sonnx profile (admit/admit.h). A graph is either
// admitted, every run of the original and the admitted model bitwise equal, or refused only for
// what admission cannot do yet: a step without an upgrade adapter, a rewrite that refuses its node,
// an operator outside the profile. A planted wrong adapter (admit::PlantedAdapter) is caught as
// "computes something else" and its recipe shrunk to a few operators.
#include <algorithm>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <optional>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "admit/admit.h"
#include "admit/prove.h"
#include "admit/upgrade.h"
#include "conformance/fuzz/graph_gen.h"
#include "generated_case_check.h"
#include "conformance/fuzz/shrink.h"
#include "reference/check/profile.h"
#include "reference/check/validator.h"

namespace sonnx::fuzz {
// How RapidCheck prints a counterexample: the recipe replays it (`parse_recipe`); defined in
// property_test.cpp, of the same binary.
void showValue(const Recipe& r, std::ostream& os);
}  // namespace sonnx::fuzz

namespace sonnx::admit {
namespace {

const std::shared_ptr<const Profile>& sonnx_profile() {
  static const std::shared_ptr<const Profile> p = std::make_shared<const Profile>(load_profile("sonnx"));
  return p;
}

// Admits a generated case. The original and the admitted model run on the case's own inputs (drawn
// so every operator stays finite) and on one set of seeded random inputs: admit_model gives every
// random set the inputs it is given, so with all of them given its samples would repeat that run;
// the random run is made here the way admit_model makes it (prove.h) and joins the verdict.
AdmitResult admit_case(const fuzz::GeneratedCase& g) {
  LoadedModel original{g.proto, g.model};
  AdmitOptions o;
  o.profile = sonnx_profile();
  o.inputs = g.inputs;
  o.samples = 0;
  AdmitResult r = admit_model(original, o);
  if (r.admitted && !r.unchanged) {
    uint64_t seed = g.recipe.seed + 1;
    r.runs.push_back(compare_runs(original.ir, r.model, random_inputs(r.model.graph, seed), {},
                                  "random inputs (seed " + std::to_string(seed) + ")"));
    r.admitted = r.reasons().empty();
  }
  return r;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// What an admission came to: admitted, or refused for what (the first reason decides the kind:
// "missing adapter", "rewrite refused", "outside the profile"); `problem` says what no admission of
// a generated graph may report.
struct Verdict {
  bool admitted = false;
  std::string kind;
  std::string problem;
};

Verdict judge(const AdmitResult& r) {
  Verdict v;
  v.admitted = r.admitted;
  const Profile& profile = *sonnx_profile();
  for (const std::string& why : r.reasons())
    if (contains(why, "computes something else") || contains(why, "nothing was compared")) v.problem += "\n  " + why;
  for (const Diagnostic& d : r.remaining) {
    bool outside = (d.rule == "SONNX-OPERATOR-SET" || d.rule == "SONNX-NO-CONTROL-FLOW") && !d.op_type.empty() &&
                   !profile.operators.count(d.op_type);
    // A refused rewrite leaves the model at its own opset: its operators' versions stay findings.
    bool after_refusal = !r.log.refused.empty() && d.rule == "SONNX-OPERATOR-SET";
    if (!outside && !after_refusal) v.problem += "\n  remaining: " + format_diagnostic(d);
  }
  if (r.admitted) v.kind = "admitted";
  else if (!r.log.refused.empty())
    v.kind = contains(r.log.refused.front(), "operator set and admit has no decomposition") ? "outside the profile"
             : contains(r.log.refused.front(), "has no upgrade adapter")                    ? "missing adapter"
                                                                                            : "rewrite refused";
  else if (!r.remaining.empty()) v.kind = "outside the profile";
  else v.kind = "not compared";
  return v;
}

// Whether a refusal or a remaining error names an operator the sonnx profile lacks (a step of it
// without an adapter, or its node left outside the profile).
bool refused_for_an_operator_the_profile_lacks(const AdmitResult& r) {
  const Profile& profile = *sonnx_profile();
  for (const std::string& why : r.log.refused) {
    if (contains(why, "operator set and admit has no decomposition")) return true;
    // "node: Op-v → Op-w has no upgrade adapter" (or a rewrite's refusal of that step)
    if (auto at = why.find(": "); at != std::string::npos && contains(why, " → ")) {
      std::string op = why.substr(at + 2, why.find('-', at + 2) - (at + 2));
      if (!profile.operators.count(op)) return true;
    }
  }
  for (const Diagnostic& d : r.remaining)
    if (d.rule == "SONNX-OPERATOR-SET" && !d.op_type.empty() && !profile.operators.count(d.op_type)) return true;
  return false;
}

// Recipes at an opset from 7 to 17 (uniform): operator choices uniform over the whole table from
// the first run on (RapidCheck scales gen::inRange by its size, which starts at 0: gen::resize
// fixes it, as oracle_recipe_gen.h does), up to 12 of them as the size grows.
rc::Gen<fuzz::Recipe> gen_low_opset_recipe() {
  constexpr uint32_t kMax = std::numeric_limits<uint32_t>::max();
  std::vector<int> opsets;
  for (int o = fuzz::kOldestFuzzOpset; o <= fuzz::kLegacyFuzzOpset; ++o) opsets.push_back(o);
  auto choice = rc::gen::build<fuzz::OpChoice>(
      rc::gen::set(&fuzz::OpChoice::op,
                   rc::gen::resize(100, rc::gen::inRange<uint32_t>(0, static_cast<uint32_t>(fuzz::op_generators().size())))),
      rc::gen::set(&fuzz::OpChoice::seed, rc::gen::resize(100, rc::gen::inRange<uint32_t>(0, kMax))));
  return rc::gen::build<fuzz::Recipe>(
      rc::gen::set(&fuzz::Recipe::seed, rc::gen::cast<uint64_t>(rc::gen::resize(100, rc::gen::inRange<uint32_t>(0, kMax)))),
      rc::gen::set(&fuzz::Recipe::max_dim, rc::gen::resize(100, rc::gen::inRange(1, 9))),
      rc::gen::set(&fuzz::Recipe::opset, rc::gen::elementOf(opsets)),
      rc::gen::set(&fuzz::Recipe::ops, rc::gen::scale(0.12, rc::gen::container<std::vector<fuzz::OpChoice>>(choice))));
}

// About 0.1 s a case (generate, check, rewrite, run both models twice): the binary's max_success.
RC_GTEST_PROP(AdmitProperty, GraphsAtOpsets7To17AreAdmittedOrRefusedForWhatAdmissionLacks, ()) {
  fuzz::Recipe recipe = *gen_low_opset_recipe();
  fuzz::GeneratedCase g = fuzz::generate(recipe);
  std::string errors = fuzz::onnx_check_errors(g);
  if (!errors.empty())
    RC_FAIL("the generated graph fails the check at opset " + std::to_string(recipe.opset) + ":" + errors + "\n" + g.describe());
  AdmitResult r = admit_case(g);
  Verdict v = judge(r);
  // The distribution printed: opset, then "admitted" or why not.
  RC_TAG(recipe.opset, v.kind);
  if (!v.problem.empty()) RC_FAIL("admission at opset " + std::to_string(recipe.opset) + ":" + v.problem + "\n" + g.describe());
}

// Fixed seeds over the opsets 7 to 17: every graph passes the check, no admission reports a
// difference, and of the graphs whose operators are all in the profile (or decomposed by admit)
// at least nine in ten are admitted (the counts are printed per opset and per kind of refusal).
// Most random graphs use an operator the profile lacks (Softsign, Tile, ReduceMax, ...): those are
// refused by name and not counted.
TEST(AdmitProperty, NineInTenGraphsOfProfileOperatorsAreAdmitted) {
  constexpr uint64_t kSeeds = 200;
  std::map<int, std::pair<int, int>> by_opset;  // opset -> (admitted, graphs)
  std::map<std::string, int> kinds;
  std::map<std::string, int> first_reasons;  // the refusal's first reason, its node name cut off
  int admitted = 0, refused_lacking = 0;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    int opset = fuzz::kOldestFuzzOpset + static_cast<int>(seed % (fuzz::kLegacyFuzzOpset - fuzz::kOldestFuzzOpset + 1));
    fuzz::GeneratedCase g = fuzz::generate(fuzz::random_recipe(seed, opset));
    std::string errors = fuzz::onnx_check_errors(g);
    EXPECT_TRUE(errors.empty()) << "the generated graph fails the check:" << errors << "\n" << g.describe();
    if (!errors.empty()) continue;
    AdmitResult r = admit_case(g);
    Verdict v = judge(r);
    EXPECT_TRUE(v.problem.empty()) << v.problem << "\n" << g.describe();
    ++by_opset[opset].second;
    ++kinds[v.kind];
    if (v.admitted) {
      ++admitted;
      ++by_opset[opset].first;
    } else {
      refused_lacking += refused_for_an_operator_the_profile_lacks(r);
      std::vector<std::string> why = r.reasons();
      std::string first = why.empty() ? "" : why.front();
      if (auto colon = first.find(": "); colon != std::string::npos && !r.log.refused.empty()) first = first.substr(colon + 2);
      ++first_reasons[first];
    }
  }
  std::cout << "admitted " << admitted << " of " << kSeeds << " graphs; of the " << kSeeds - admitted << " refused, "
            << refused_lacking << " for an operator the sonnx profile lacks\n";
  for (const auto& [opset, counts] : by_opset)
    std::cout << "  opset " << opset << ": " << counts.first << " of " << counts.second << "\n";
  for (const auto& [kind, n] : kinds) std::cout << "  " << kind << ": " << n << "\n";
  std::vector<std::pair<int, std::string>> common;
  for (const auto& [why, n] : first_reasons) common.emplace_back(n, why);
  std::sort(common.rbegin(), common.rend());
  for (size_t i = 0; i < std::min<size_t>(common.size(), 15); ++i)
    std::cout << "  " << common[i].first << " × " << common[i].second << "\n";
  const int in_profile = static_cast<int>(kSeeds) - refused_lacking;
  std::cout << "admitted " << admitted << " of the " << in_profile << " graphs of profile operators\n";
  EXPECT_GE(admitted, 20) << "too few graphs of profile operators to say anything";
  EXPECT_GE(10 * admitted, 9 * in_profile) << "fewer than nine in ten graphs of profile operators are admitted";
}

// The planted wrong adapter: Add 7 → 13 that makes the node a Sub.
void add_becomes_sub(Node& node, UpgradeContext&) { node.op_type = "Sub"; }

bool computes_something_else(const fuzz::Recipe& recipe) {
  AdmitResult r = admit_case(fuzz::generate(recipe));
  if (r.admitted) return false;
  for (const std::string& why : r.reasons())
    if (contains(why, "computes something else")) return true;
  return false;
}

// Fixed seeds at opsets 7 to 12 (which select Add-7) until an admission with the planted adapter
// reports a difference; the recipe shrinks to a few operators that still show it, and without the
// planted adapter (restored when it goes out of scope) the same recipe shows none.
TEST(AdmitPlantedAdapter, IsCaughtAndShrunk) {
  std::optional<fuzz::Recipe> found, shrunk;
  int tried = 0;
  {
    PlantedAdapter planted("", "Add", 7, add_becomes_sub);
    for (uint64_t seed = 1; seed <= 1000 && !found; ++seed, ++tried) {
      fuzz::Recipe r = fuzz::random_recipe(seed, 7 + static_cast<int>(seed % 6));
      if (computes_something_else(r)) found = r;
    }
    ASSERT_TRUE(found) << "no admission among " << tried << " recipes at opsets 7 to 12 caught the planted adapter";
    shrunk = fuzz::shrink_recipe(*found, computes_something_else);
    EXPECT_TRUE(computes_something_else(*shrunk)) << fuzz::recipe_str(*shrunk);
    EXPECT_LE(shrunk->ops.size(), 3u) << fuzz::recipe_str(*shrunk);
    std::cout << "caught after " << tried << " recipes: " << fuzz::recipe_str(*found) << "\nshrunk to:\n"
              << fuzz::generate(*shrunk).describe() << "\n";
  }
  AdmitResult r = admit_case(fuzz::generate(*shrunk));
  for (const std::string& why : r.reasons()) EXPECT_FALSE(contains(why, "computes something else")) << why;
}

// A planted adapter replaces the record's for its lifetime only, nested ones restore each other,
// and a step that does not exist is refused.
TEST(AdmitPlantedAdapter, IsInForceForItsLifetime) {
  fuzz::Recipe r;
  bool first = false;
  for (uint64_t seed = 1; seed <= 1000 && !first; ++seed) {
    r = fuzz::random_recipe(seed, 7 + static_cast<int>(seed % 6));
    {
      PlantedAdapter planted("", "Add", 7, add_becomes_sub);
      first = computes_something_else(r);
    }
  }
  ASSERT_TRUE(first);
  {
    PlantedAdapter outer("", "Add", 7, add_becomes_sub);
    {
      PlantedAdapter inner("", "Add", 7, nullptr);  // a relabel: Add-7 means what Add-13 means
      EXPECT_FALSE(computes_something_else(r)) << fuzz::recipe_str(r);
    }
    EXPECT_TRUE(computes_something_else(r)) << fuzz::recipe_str(r);
  }
  EXPECT_FALSE(computes_something_else(r)) << fuzz::recipe_str(r);
  EXPECT_THROW(PlantedAdapter("", "Add", 8, add_becomes_sub), std::invalid_argument);   // no Add-8
  EXPECT_THROW(PlantedAdapter("", "Add", 14, add_becomes_sub), std::invalid_argument);  // the last version
  EXPECT_THROW(PlantedAdapter("ai.onnx.ml", "Add", 7, add_becomes_sub), std::invalid_argument);
}

}  // namespace
}  // namespace sonnx::admit
