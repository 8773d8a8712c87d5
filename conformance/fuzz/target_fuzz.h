// Fuzzing another implementation (`sonnx fuzz --backend/--backend-cmd/--devices`): random valid
// graphs run on the target and are judged by their admissible enclosures (spec/accuracy.md), so a
// failure is a result no implementation meeting every operator's allowance may produce. Graphs the
// target declines, and graphs whose enclosure cannot be had (an operator without one, a value the
// bounds leave undetermined), are skipped and counted by reason. A failure is localized to the
// first node that fails alone on the reference's values for its inputs (a one-node repro); one
// that no node shows alone is shrunk as a whole graph. Failures are grouped into defects by
// (operator version, attribute pattern, kind of deviation); each group keeps its smallest repro.
#pragma once
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "conformance/certify/target.h"
#include "conformance/test_selection.h"

namespace sonnx::fuzz {

struct TargetFuzzOptions {
  double seconds = 60;     // stop after this long (0: no time limit)
  int64_t max_graphs = 0;  // stop after this many graphs (0: no limit)
  uint64_t seed = 1;
  Shard shard;             // graph i uses seed + i·shard.count + shard.index
  int opset = 0;           // 17 or 27 (0: each recipe draws one)
  bool sonnx_ops = false;  // the SONNX profile's operators only (Recipe::sonnx_ops)
  std::filesystem::path out = "fuzz-repros";
  int max_groups = 0;  // stop once this many distinct defects are found (0: no limit)
  std::function<void(int64_t graphs, size_t groups, double seconds)> progress;
};

// One distinct defect: the key it is grouped by, how often it was hit, and its smallest repro.
struct DefectGroup {
  std::string op;  // the operator version ("Sub-14"), or "graph: Add+Tanh" for a failure no node shows alone
  std::string
      pattern;  // input element types, unequal input shapes, the int and string attributes ("float,float; unequal shapes")
  std::string
      deviation;  // outside-enclosure, nan, wrong-value, wrong-shape, wrong-type, missing-output, crashed, timeout, errored, garbage
  int64_t hits = 0;
  uint64_t seed = 0;    // the graph its repro comes from
  std::string recipe;   // that graph's recipe (shrunk when the repro is the graph)
  std::string message;  // what the repro shows ("element 3: 0.731 outside [0.7310581, 0.7310588]")
  std::string repro;    // the repro directory (an ONNX test directory)
  int repro_nodes = 0;
  std::string key() const { return op + " | " + pattern + " | " + deviation; }
};

struct TargetCampaign {
  std::string target, target_version;
  int64_t graphs = 0, passed = 0, skipped = 0, failed = 0;
  std::map<std::string, int64_t> skip_reasons;  // why graphs were skipped, with counts
  std::vector<DefectGroup> groups;              // in the order found
  double seconds = 0;
  std::string shard;  // "K/N"
  uint64_t seed = 0;
};

TargetCampaign fuzz_target(CertTarget& target, const TargetFuzzOptions& options);

// The campaign as report JSON, and back (for `sonnx report merge`).
nlohmann::json campaign_json(const TargetCampaign& c);
TargetCampaign campaign_from_json(const nlohmann::json& j);
// Adds `part`'s counts and groups to `into` (same target; a group found in both keeps the smaller
// repro and the sum of the hits). Throws LoadError for campaigns of different targets.
void merge_campaign(TargetCampaign& into, const TargetCampaign& part, const std::string& part_name);
// The campaign for people: the counts, one line per defect group, the skip reasons.
std::string campaign_text(const TargetCampaign& c);

}  // namespace sonnx::fuzz
