#include "structure_differential.h"

#include <map>

#include "reference/check/validator.h"
#include "structure_oracle.h"

namespace sonnx::oracle {

const Profile& structure_profile() {
  static const Profile p = [] {
    Profile q;
    q.name = "structure-oracle";
    q.rules = {"STRUCT-NAME",    "STRUCT-SSA",        "STRUCT-DEFINED", "STRUCT-OUTPUT",
               "STRUCT-ACYCLIC", "STRUCT-TOPO-ORDER", "SONNX-DEAD-NODE"};
    return q;
  }();
  return p;
}

Validator real_validator() {
  return [](const LoadedModel& m) { return validate(m, structure_profile()); };
}

namespace {

std::string yes_no(bool b) { return b ? "holds" : "fails"; }

}  // namespace

std::string compare_structure(const LoadedModel& model, const Validator& validator) {
  std::vector<LevelVerdict> levels = level_verdicts(model.ir.graph);
  std::vector<Diagnostic> diags = validator(model);

  // Levels that share a path (unnamed control-flow nodes) are folded together: a rule fails at a
  // path when it fails at one of its graphs.
  struct Folded {
    bool ssa = true, defined = true, output = true, outputs_present = true, topo_expected_ok = true, acyclic = true;
    int dead = 0;
  };
  std::map<std::string, Folded> at;
  bool model_ssa = true, model_defined = true;
  for (const auto& v : levels) {
    Folded& f = at[v.path];
    f.ssa = f.ssa && v.ssa;
    f.defined = f.defined && v.defined;
    f.output = f.output && v.output;
    for (const auto& o : v.graph->outputs) f.outputs_present = f.outputs_present && present(o.name);
    f.acyclic = f.acyclic && v.acyclic;
    f.topo_expected_ok = f.topo_expected_ok && (v.topo || !v.acyclic);
    f.dead += v.dead_nodes;
    model_ssa = model_ssa && v.ssa;
    model_defined = model_defined && v.defined && v.output;
  }
  std::map<std::string, std::map<std::string, int>> reported;  // rule -> path -> count
  for (const auto& d : diags) ++reported[d.rule][d.graph];
  auto count = [&](const std::string& rule, const std::string& path) {
    auto r = reported.find(rule);
    if (r == reported.end()) return 0;
    auto p = r->second.find(path);
    return p == r->second.end() ? 0 : p->second;
  };

  std::string out;
  auto disagree = [&](const std::string& rule, const std::string& path, const std::string& what) {
    out += rule + " at " + path + ": " + what + "\n";
  };
  for (const auto& [path, f] : at) {
    bool ssa_reported = count("STRUCT-SSA", path) > 0;
    if (ssa_reported == f.ssa)
      disagree("STRUCT-SSA", path, "ssa_flat " + yes_no(f.ssa) + ", validator " + (ssa_reported ? "reports" : "accepts"));
    bool output_reported = count("STRUCT-OUTPUT", path) > 0;
    if (f.outputs_present && output_reported == f.output)
      disagree("STRUCT-OUTPUT", path,
               "output_flat " + yes_no(f.output) + ", validator " + (output_reported ? "reports" : "accepts"));
    if (!model_ssa) continue;
    bool cycle_reported = count("STRUCT-ACYCLIC", path) > 0;
    if (cycle_reported == f.acyclic)
      disagree("STRUCT-ACYCLIC", path,
               "acyclic " + yes_no(f.acyclic) + ", validator " + (cycle_reported ? "reports" : "accepts"));
    int dead_reported = count("SONNX-DEAD-NODE", path);
    if (dead_reported != f.dead)
      disagree("SONNX-DEAD-NODE", path,
               std::to_string(f.dead) + " node(s) not useful, validator reports " + std::to_string(dead_reported));
    if (!model_defined) continue;
    bool topo_reported = count("STRUCT-TOPO-ORDER", path) > 0;
    if (topo_reported == f.topo_expected_ok)
      disagree("STRUCT-TOPO-ORDER", path,
               std::string("topo_flat ") +
                   (f.topo_expected_ok ? "holds (or the level is cyclic)" : "fails on an acyclic level") + ", validator " +
                   (topo_reported ? "reports" : "accepts"));
  }
  // well_defined (the inductive predicate) bundles defined_flat and output_flat at every level:
  // the validator's counterpart is STRUCT-DEFINED or STRUCT-OUTPUT reported somewhere.
  bool defined_reported = !reported["STRUCT-DEFINED"].empty() || !reported["STRUCT-OUTPUT"].empty();
  bool oracle_defined = well_defined({}, model.ir.graph);
  if (defined_reported == oracle_defined)
    disagree("STRUCT-DEFINED", "the model",
             "well_defined " + yes_no(oracle_defined) + ", validator " +
                 (defined_reported ? "reports STRUCT-DEFINED or STRUCT-OUTPUT"
                                   : "reports neither STRUCT-DEFINED nor STRUCT-OUTPUT"));
  // A finding at a path that is no level of the model is a disagreement too.
  for (const auto& [rule, paths] : reported)
    for (const auto& [path, k] : paths)
      if (!at.count(path)) disagree(rule, path, "reported at a graph the model does not have");
  return out;
}

}  // namespace sonnx::oracle
