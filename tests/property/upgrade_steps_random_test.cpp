// Every upgrade adapter the fuzzer's operators reach, checked on seeded random inputs (issue 36:
// "per adapter: the node at version v and the adapted node(s) at v+1 on seeded random inputs ...
// bitwise equal"; the ONNX node suite's half is tests/conformance/upgrade_suite.cpp). For each
// operator generator of conformance/fuzz and each ai.onnx opset from 7 to 17 at which the operator's
// version changes (the first opset the generator exists at, then each opset that selects a newer
// version of its operator; every opset for a generator that emits several operators), a
// one-operator graph is generated from fixed seeds, checked against the onnx profile, and carried
// to opset 25 by upgrade_model (admit/upgrade.h) with the types inferred at its own opset. A carried
// graph and the original run on the case's own inputs (drawn so every operator stays finite) and on
// seeded random inputs (admit/prove.h: both signs, several magnitudes, small integers): every output
// must be bitwise equal. A refused graph is counted by the reason it is refused for. The log lists
// the steps exercised, the adapters the fuzzer does not reach and the refusals; the test asserts
// that no run differs, that every step applied was compared, and a floor on the number of distinct
// steps exercised argued from the generators' operators and the adapters in their records.
//
// Why: an adapter is a claim that version v+1's node means what version v's node means. The unit
// tests (tests/unit/upgrade_test.cpp) check each rewrite on hand-written nodes, the node suite on
// ONNX's own data; here each step meets the attribute values, shapes and element types the
// generators choose, and inputs nobody picked.
#include <algorithm>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "admit/prove.h"
#include "admit/upgrade.h"
#include "conformance/fuzz/graph_gen.h"
#include "generated_case_check.h"
#include "reference/catalogue/catalogue.h"
#include "reference/check/profile.h"
#include "reference/check/validator.h"
#include "reference/infer/infer.h"
#include "reference/model/loader.h"
#include "reference/ops/op_record.h"

namespace sonnx::admit {
namespace {

constexpr int64_t kTarget = 25;
// Seeds tried per (generator, opset) until the graph holds the generator's operator (a generator
// that does not apply to the first input — Log on negatives, Conv on a rank below 3 — adds nothing,
// and the graph is a lone Relu).
constexpr int kAttempts = 8;

// "Conv-11 → Conv-22 (relabel): node conv0" → "Conv-11 → Conv-22 (relabel)".
std::string step_of(const std::string& line) { return line.substr(0, line.find(": node ")); }

// "Conv-11 → Conv-22 (relabel)" → ("Conv", 11).
std::pair<std::string, int64_t> step_from(const std::string& step) {
  std::string from = step.substr(0, step.find(" → "));
  size_t dash = from.rfind('-');
  return {from.substr(0, dash), std::stoll(from.substr(dash + 1))};
}

// "node: Op-v → Op-w has no upgrade adapter" → "Op-v → Op-w has no upgrade adapter".
std::string reason_of(const std::string& refusal) {
  size_t colon = refusal.find(": ");
  return colon == std::string::npos ? refusal : refusal.substr(colon + 2);
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += "\n  " + l;
  return out;
}

// The ai.onnx operator a generator emits, or "" for a generator that emits several operators under
// a name of its own (LayerNormNodes, Attention as MatMul, Softmax, ...), known by the catalogue not
// having its name at the generator's first opset.
std::string operator_of(const fuzz::OpGenerator& gen, int first) { return catalogue::find("", gen.name, first) ? gen.name : ""; }

// The opsets a generator is tried at: its first (7, or its `since`), then each that selects a
// newer version of its operator (the forms a generator emits change with its operator's version;
// the graphs at the opsets between would repeat the same steps). Every opset for a generator of
// several operators.
std::vector<int> opsets_for(const fuzz::OpGenerator& gen) {
  int first = std::max(fuzz::kOldestFuzzOpset, gen.since);
  std::vector<int> out;
  std::string op = operator_of(gen, first);
  for (int o = first; o <= fuzz::kLegacyFuzzOpset; ++o)
    if (op.empty() || o == first || catalogue::find("", op, o) != catalogue::find("", op, o - 1)) out.push_back(o);
  return out;
}

// Whether the node of `op` at the version opset `o` selects is carried to opset kTarget by
// relabels only, each in the record of its version: nothing can refuse such a node, and a graph of
// it that is carried applies at least one step named after `op` when its version changes.
bool relabels_all_the_way(const std::string& op, int o) {
  const catalogue::Schema* at = catalogue::find("", op, o);
  const catalogue::Schema* target = catalogue::find("", op, kTarget);
  if (!at || !target || at->version >= target->version) return false;
  for (int64_t v = at->version; v < target->version;) {
    const OpRecord* rec = OpRecords::instance().find("", op, v);
    const catalogue::Schema* next = catalogue::next_version("", op, v);
    if (!rec || !rec->upgrade || rec->upgrade->rewrite || !next || rec->upgrade->to != next->version) return false;
    v = next->version;
  }
  return true;
}

uint64_t case_seed(size_t k, int opset, int attempt) {
  return 1000003ull * (k + 1) + 1009ull * static_cast<uint64_t>(opset) + static_cast<uint64_t>(attempt);
}

// The generated case of generator k (index into the whole table) at `opset`: the first of
// kAttempts seeds whose graph holds the generator's operator (or, for a generator of several
// operators, is more than the lone Relu of a generator that added nothing); the last tried when
// none does.
fuzz::GeneratedCase generate_case(size_t k, int opset, bool& applied) {
  const fuzz::OpGenerator& gen = fuzz::op_generators()[k];
  const auto& table = fuzz::op_generators(opset);  // what a recipe's choice indexes at this opset
  uint32_t index = 0;
  while (index < table.size() && table[index].plan != gen.plan) ++index;
  std::string op = operator_of(gen, opset);
  fuzz::GeneratedCase g;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    uint64_t seed = case_seed(k, opset, attempt);
    fuzz::Recipe recipe{
        seed, 2 + static_cast<int>(seed % 5), opset, {fuzz::OpChoice{index, static_cast<uint32_t>(seed * 2654435761u)}}};
    g = fuzz::generate(recipe);
    applied = op.empty() ? g.op_types != std::vector<std::string>{"Relu"}
                         : std::find(g.op_types.begin(), g.op_types.end(), op) != g.op_types.end();
    if (applied) break;
  }
  return g;
}

TEST(UpgradeSteps, EveryStepTheFuzzerReachesComputesTheSameOnRandomInputs) {
  const auto& generators = fuzz::op_generators();
  int cases = 0, failing_check = 0, not_applied = 0, upgraded = 0, refused = 0, random_skipped = 0;
  std::map<std::string, int> refusals;        // reason (node name cut off) -> cases
  std::map<std::string, int> applied_steps;   // "Op-v → Op-w (kind)" -> cases it was applied in
  std::map<std::string, int> compared_steps;  // ... -> cases whose runs compared equal
  std::set<std::string> ops_with_steps;       // operators some applied step is named after
  std::set<std::string> changing, certain;    // generator operators (see the floor below)

  for (size_t k = 0; k < generators.size(); ++k) {
    const fuzz::OpGenerator& gen = generators[k];
    if (std::max(fuzz::kOldestFuzzOpset, gen.since) > fuzz::kLegacyFuzzOpset) continue;  // newer than 17
    std::string op = operator_of(gen, std::max(fuzz::kOldestFuzzOpset, gen.since));
    for (int opset : opsets_for(gen)) {
      if (!op.empty()) {
        const catalogue::Schema* at = catalogue::find("", op, opset);
        if (at && at != catalogue::find("", op, kTarget)) changing.insert(op);
        if (relabels_all_the_way(op, opset)) certain.insert(op);
      }
      ++cases;
      bool applied = false;
      fuzz::GeneratedCase g;
      try {
        g = generate_case(k, opset, applied);
      } catch (const std::exception& e) {
        ADD_FAILURE() << "generator " << gen.name << " at opset " << opset << " throws: " << e.what();
        continue;
      }
      SCOPED_TRACE(g.describe());
      not_applied += !applied;
      if (!fuzz::onnx_check_errors(g).empty()) {
        ++failing_check;
        continue;
      }
      try {
        InferenceResult inferred = infer_model(g.model);
        Model after = g.model;
        UpgradeOutcome out = upgrade_model(after, kTarget, &inferred.types);
        if (!out.ok()) {
          ++refused;
          for (const std::string& why : out.refused) ++refusals[reason_of(why)];
          continue;
        }
        ++upgraded;
        SCOPED_TRACE("steps:" + joined(out.steps));
        EXPECT_EQ(after.opset(""), kTarget);
        ProofRun own = compare_runs(g.model, after, g.inputs, {}, "the case's own inputs");
        EXPECT_TRUE(own.equal) << "on the case's own inputs: " << own.detail;
        uint64_t seed = g.recipe.seed + 1;
        ProofRun random = compare_runs(g.model, after, random_inputs(after.graph, seed), {},
                                       "random inputs (seed " + std::to_string(seed) + ")");
        // The original may trap on random values (an index out of range): nothing to compare then.
        EXPECT_TRUE(random.equal || random.skipped) << "on random inputs (seed " << seed << "): " << random.detail;
        random_skipped += random.skipped;
        std::set<std::string> steps;
        for (const std::string& line : out.steps) steps.insert(step_of(line));
        for (const std::string& s : steps) {
          ++applied_steps[s];
          ops_with_steps.insert(step_from(s).first);
          if (own.equal || random.equal) ++compared_steps[s];
        }
      } catch (const std::exception& e) {
        ADD_FAILURE() << "upgrading or running throws: " << e.what();
      }
    }
  }

  // Every step applied was compared on at least one case (its graph was carried, and a run of both
  // models compared equal: a difference fails above).
  for (const auto& [step, n] : applied_steps) EXPECT_GE(compared_steps[step], 1) << step << " was applied but never compared";

  // The adapters in the records, and those no carried graph applied.
  std::set<std::pair<std::string, int64_t>> exercised;
  for (const auto& [step, n] : applied_steps) exercised.insert(step_from(step));
  int slots = 0;
  std::vector<std::string> unexercised;
  for (const auto& [key, rec] : OpRecords::instance().all()) {
    if (!rec.upgrade || !rec.domain.empty()) continue;
    ++slots;
    if (!exercised.count({rec.op_type, rec.version}))
      unexercised.push_back(rec.op_type + "-" + std::to_string(rec.version) + " → " + rec.op_type + "-" +
                            std::to_string(rec.upgrade->to) + (rec.upgrade->rewrite ? " (rewrite)" : " (relabel)"));
  }

  std::cout << cases << " cases (generator × opset): " << upgraded << " carried to opset " << kTarget << " and compared, "
            << refused << " refused, " << failing_check << " failing the onnx check at their opset (skipped); " << not_applied
            << " without the generator's operator after " << kAttempts << " seeds; " << random_skipped
            << " random-input runs skipped (the original traps)\n";
  std::cout << applied_steps.size() << " distinct steps exercised of " << slots << " records with an upgrade adapter:\n";
  for (const auto& [step, n] : applied_steps) std::cout << "  " << step << " × " << n << "\n";
  std::cout << unexercised.size() << " adapters not exercised:\n";
  for (const std::string& s : unexercised) std::cout << "  " << s << "\n";
  std::vector<std::pair<int, std::string>> common;
  for (const auto& [why, n] : refusals) common.emplace_back(n, why);
  std::sort(common.rbegin(), common.rend());
  std::cout << "refusals by reason:\n";
  for (const auto& [n, why] : common) std::cout << "  " << n << " × " << why << "\n";

  // The floor. Of the generators' operators, `changing` have a version at some opset tried that
  // differs from their version at 25, and `certain` of them are carried from such an opset by
  // relabels only, each in its version's record: nothing refuses a node of one of those, so every
  // such graph that holds it is carried and applies at least one step named after it. The steps
  // of different operators are distinct, hence at least |certain| distinct steps (as long as each
  // generator applies at least once in kAttempts seeds; the ones that did not are printed). The
  // other changing operators may be refused: a step without an adapter (ReduceMax, If, ...) or a
  // rewrite that cannot carry the node (Softmax rows over several axes, ...).
  std::vector<std::string> certain_without_steps;
  for (const std::string& op : certain)
    if (!ops_with_steps.count(op)) certain_without_steps.push_back(op);
  std::cout << changing.size() << " generator operators change version between their opsets and " << kTarget << "; "
            << certain.size() << " of them are carried by relabels only (the floor); " << certain_without_steps.size()
            << " of those applied no step:";
  for (const std::string& op : certain_without_steps) std::cout << " " << op;
  std::cout << "\n";
  // 80 and 49 when this test was written: a floor that fell much lower would say little.
  EXPECT_GE(certain.size(), 40u) << "the floor rests on the relabel chains of the generators' operators";
  EXPECT_GE(applied_steps.size(), certain.size()) << "fewer distinct steps than operators carried by relabels only";
}

}  // namespace
}  // namespace sonnx::admit
