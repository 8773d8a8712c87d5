#include "admit.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <stdexcept>

#include "decompose.h"
#include "prove.h"
#include "reference/catalogue/catalogue.h"
#include "reference/check/validator.h"
#include "reference/infer/infer.h"
#include "reference/model/writer.h"
#include "upgrade.h"

namespace sonnx::admit {
namespace {

std::vector<Diagnostic> errors_of(const LoadedModel& m, const Profile& profile) {
  std::vector<Diagnostic> errors;
  for (Diagnostic& d : validate(m, profile))
    if (d.severity == Severity::Error) errors.push_back(std::move(d));
  return errors;
}

// The admitted model as it will be written, read back: what `sonnx check` will see.
std::unique_ptr<LoadedModel> written(const Model& m, const LoadedModel& original) {
  std::string bytes;
  model_to_proto(m, &original.proto).SerializeToString(&bytes);
  return load_model_bytes(bytes, "the admitted model",
                          original.ir.path.empty() ? "" : std::filesystem::path(original.ir.path).parent_path());
}

// Calls f on every node of n's subgraphs, at any depth.
template <class F>
void for_each_nested_node(const Node& n, const F& f) {
  for (const Attribute& a : n.attributes) {
    std::vector<const Graph*> graphs;
    if (a.g) graphs.push_back(a.g.get());
    for (const auto& sub : a.graphs)
      if (sub) graphs.push_back(sub.get());
    for (const Graph* g : graphs)
      for (const Node& inner : g->nodes) {
        f(inner);
        for_each_nested_node(inner, f);
      }
  }
}

}  // namespace

std::vector<std::string> AdmitResult::reasons() const {
  std::vector<std::string> out = log.refused;
  // Errors left because a rewrite was refused are its consequence: counted, listed in the report.
  if (!log.refused.empty() && !remaining.empty())
    out.push_back(std::to_string(remaining.size()) + " errors of the profile check remain (listed in the report)");
  else
    for (const Diagnostic& d : remaining) out.push_back(format_diagnostic(d));
  for (const ProofRun& r : runs)
    if (!r.equal && !r.skipped) out.push_back("the admitted model computes something else on " + r.inputs + ": " + r.detail);
  if (!runs.empty() && std::all_of(runs.begin(), runs.end(), [](const ProofRun& r) { return r.skipped; }))
    out.push_back("nothing was compared: " + runs.front().detail + " (give inputs it runs on with --input)");
  return out;
}

int64_t profile_opset(const Profile& profile) {
  for (int64_t opset = 1; opset <= catalogue::max_opset(""); ++opset) {
    bool all = true;
    for (const auto& [op, versions] : profile.operators) {
      const catalogue::Schema* s = catalogue::find("", op, opset);
      if (!versions.empty() && (!s || !versions.count(s->version))) {
        all = false;
        break;
      }
    }
    if (all) return opset;
  }
  throw std::invalid_argument("profile " + profile.name + ": no ai.onnx opset selects the versions it lists");
}

AdmitResult admit_model(const LoadedModel& original, const AdmitOptions& options) {
  auto start = std::chrono::steady_clock::now();
  std::shared_ptr<const Profile> profile = options.profile;
  if (!profile) profile = std::make_shared<Profile>(load_profile("sonnx"));
  AdmitResult r;
  r.opset_from = original.ir.opset("");
  r.errors_before = errors_of(original, *profile).size();
  auto finish = [&]() -> AdmitResult {
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::move(r);
  };
  r.model = original.ir;
  own_subgraphs(r.model.graph);  // the rewrites change nested graphs too; the original's stay as they are
  const InputFixes& f = options.fixes;
  const bool fixes_asked = !f.dims.empty() || !f.input_shapes.empty() || !f.values.empty();
  if (r.errors_before == 0 && !fixes_asked) {  // already in the profile, and nothing to fix
    r.admitted = r.unchanged = true;
    r.opset_to = r.opset_from;
    return finish();
  }
  r.opset_to = profile->restricts_operators ? profile_opset(*profile) : r.opset_from;
  Model& m = r.model;
  ChangeLog& log = r.log;

  // At the model's own opset: what the user fixes, then what needs no operator of a newer version.
  fix_inputs(m, options.fixes, log);
  // Folding makes conditions constant, specialising exposes more to fold: until neither changes.
  do {
    remove_identities(m, log);
    fold_constants(m, log);
    remove_dead(m, log);
  } while (specialise_control_flow(m, log) || unroll_loops(m, log));
  decompose_operators(m.graph, m.opset(""), infer_model(m).types, log);
  // An operator the profile lacks that is still here has no rewrite: refused by name (and not again
  // for its missing upgrade steps, nor for the nodes of its subgraphs); control flow with what
  // keeps it.
  std::set<std::string> outside;
  if (profile->restricts_operators)
    for (const Node& n : m.graph.nodes)
      if (canonical_domain(n.domain).empty() && !profile->operators.count(n.op_type)) {
        std::string name = node_name(n);
        outside.insert(name);
        for_each_nested_node(n, [&](const Node& inner) { outside.insert(node_name(inner)); });
        std::string why = control_flow_refusal(m.graph, n);
        if (why.empty())
          why = n.op_type + " is not in the " + profile->name + " operator set and admit has no decomposition of it";
        log.refused.push_back(name + ": " + why);
      }
  // Then every node to the profile's version, written out in full and declared.
  if (r.opset_to > r.opset_from) {
    const auto types = infer_model(m).types;
    UpgradeOutcome up = upgrade_model(m, r.opset_to, &types);
    if (up.ok())
      for (const std::string& step : up.steps)
        log.add("upgrade", step.substr(step.find(": node ") + 7), "SONNX-OPERATOR-SET", step.substr(0, step.find(": node ")));
    for (const std::string& why : up.refused)
      if (!outside.count(why.substr(0, why.find(": ")))) log.refused.push_back(why);
  }
  write_omitted_inputs(m, log);
  trim_unused_outputs(m, options.expose_unused, log);
  write_default_attributes(m, log);
  declare_types(m, log);
  remove_dead(m, log);

  r.remaining = errors_of(*written(m, original), *profile);
  if (!log.refused.empty() || !r.remaining.empty()) return finish();

  NamedValues fixed;
  for (const auto& [name, t] : options.fixes.values) fixed[name] = Value(t);
  // An inexact rewrite is judged by the original's admissible enclosure, exact ones bitwise.
  const bool exact = std::all_of(log.changes.begin(), log.changes.end(), [](const Change& c) { return c.exact; });
  if (!exact && !options.within_enclosure) {
    log.refused.push_back("a rewrite applied is only admissibly bounded and no enclosure judge was given");
    return finish();
  }
  const EnclosureJudge* judge = exact ? nullptr : &options.within_enclosure;
  if (!options.inputs.empty()) r.runs.push_back(compare_runs(original.ir, m, options.inputs, fixed, "the given inputs", judge));
  for (int k = 0; k < options.samples; ++k) {
    uint64_t seed = options.seed + static_cast<uint64_t>(k);
    NamedValues in = random_inputs(m.graph, seed);
    for (const auto& [name, v] : options.inputs) in[name] = v;  // inputs the user gives stay as given
    r.runs.push_back(compare_runs(original.ir, m, in, fixed, "random inputs (seed " + std::to_string(seed) + ")", judge));
  }
  r.admitted = r.reasons().empty();
  return finish();
}

}  // namespace sonnx::admit
