#include "report.h"

#include <set>
#include <sstream>

namespace sonnx::admit {

std::map<std::string, int> rewrite_counts(const AdmitResult& r) {
  std::map<std::string, int> counts;
  for (const Change& c : r.log.changes) ++counts[c.rewrite];
  return counts;
}

bool removable(const Diagnostic& d, const Profile& profile) {
  static const std::set<std::string> rules{"SONNX-STATIC-TYPE", "SONNX-EXPLICIT-ATTR", "SONNX-DEAD-NODE", "SONNX-UNUSED-VALUE",
                                           "SONNX-UNUSED-INPUT"};
  // Operators admit decomposes into profile operators, or removes.
  static const std::set<std::string> replaced{"HardSigmoid", "Gelu", "Mish", "Selu", "Elu", "Size", "Dropout", "Identity"};
  if (rules.count(d.rule)) return true;
  if (d.rule != "SONNX-OPERATOR-SET") return false;
  return profile.operators.count(d.op_type) || replaced.count(d.op_type);
}

namespace {

const char* run_result(const ProofRun& r) {
  if (r.skipped) return "skipped";
  if (!r.equal) return r.bounded ? "outside the enclosure" : "differs";
  return r.bounded ? "within the admissible enclosure" : "bitwise equal";
}

}  // namespace

nlohmann::json report_json(const AdmitResult& r, const std::string& model, const std::string& profile) {
  nlohmann::json changes = nlohmann::json::array(), runs = nlohmann::json::array(), remaining = nlohmann::json::array();
  for (const Change& c : r.log.changes)
    changes.push_back(
        {{"rewrite", c.rewrite}, {"target", c.target}, {"rule", c.rule}, {"detail", c.detail}, {"exact", c.exact}});
  for (const ProofRun& p : r.runs) runs.push_back({{"inputs", p.inputs}, {"result", run_result(p)}, {"detail", p.detail}});
  for (const Diagnostic& d : r.remaining) remaining.push_back({{"rule", d.rule}, {"message", d.message}});
  return {{"model", model},
          {"profile", profile},
          {"admitted", r.admitted},
          {"unchanged", r.unchanged},
          {"opset", {{"from", r.opset_from}, {"to", r.opset_to}}},
          {"errors_before", r.errors_before},
          {"errors_after", r.remaining.size()},
          {"seconds", r.seconds},
          {"rewrites", rewrite_counts(r)},
          {"changes", changes},
          {"refused", r.log.refused},
          {"remaining", remaining},
          {"checks", runs}};
}

std::string report_markdown(const AdmitResult& r, const std::string& model, const std::string& profile) {
  std::ostringstream md;
  md << "# sonnx admit: " << model << "\n\n";
  md << "- profile: " << profile << "\n- result: "
     << (r.unchanged  ? "already in the profile, unchanged"
         : r.admitted ? "admitted"
                      : "not admitted")
     << "\n";
  md << "- ai.onnx opset: " << r.opset_from << " → " << r.opset_to << "\n";
  md << "- profile errors: " << r.errors_before << " before, " << r.remaining.size() << " after\n";
  md << "- time: " << r.seconds << " s\n\n";
  md << "## Rewrites\n\n| rewrite | changes |\n|---|---|\n";
  for (const auto& [name, n] : rewrite_counts(r)) md << "| " << name << " | " << n << " |\n";
  if (!r.log.refused.empty() || !r.remaining.empty()) {
    md << "\n## Not removed\n\n";
    for (const std::string& why : r.log.refused) md << "- " << why << "\n";
    for (const Diagnostic& d : r.remaining) md << "- " << d.message << "\n";
  }
  md << "\n## Checks\n\n| inputs | result | detail |\n|---|---|---|\n";
  for (const ProofRun& p : r.runs) md << "| " << p.inputs << " | " << run_result(p) << " | " << p.detail << " |\n";
  md << "\n## Changes\n\n| rewrite | target | rule | detail |\n|---|---|---|---|\n";
  for (const Change& c : r.log.changes)
    md << "| " << c.rewrite << " | " << c.target << " | " << c.rule << " | " << c.detail << (c.exact ? "" : " (bounded)")
       << " |\n";
  return md.str();
}

}  // namespace sonnx::admit
