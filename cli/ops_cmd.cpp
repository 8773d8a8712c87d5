// sonnx ops [--missing] [--without PART] [--format text|json] [--since V]: every operator version of
// the catalogue, how sonnx runs it (a reference kernel, a function body, or not at all:
// "unsupported", which check refuses under OP-IMPLEMENTED and run and conform refuse by name), and
// which parts of its record are filled: parameter struct, shape rule, fast kernel, enclosure,
// upgrade adapter, C emitter. Exit 0.
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "sonnx/sonnx.hpp"

namespace sonnx::cli {

namespace {
struct OpsArgs {
  bool missing = false;
  std::string without;
  std::string format = "text";
  int64_t since = 0;
};

// The parts of a record beside the kernel, by the names the options and the JSON use.
struct Part {
  const char* name;   // --without and JSON
  const char* label;  // text
  bool OperatorVersion::*has;
};
constexpr Part kParts[] = {
    {"params", "parameter struct", &OperatorVersion::params},      {"shape_rule", "shape rule", &OperatorVersion::shape_rule},
    {"fast_kernel", "fast kernel", &OperatorVersion::fast_kernel}, {"enclosure", "enclosure", &OperatorVersion::enclosure},
    {"upgrade", "upgrade adapter", &OperatorVersion::upgrade},     {"emit_c", "C emitter", &OperatorVersion::emit_c},
};

const Part* part_named(const std::string& name) {
  for (const Part& p : kParts)
    if (name == p.name) return &p;
  return nullptr;
}

std::string describe(const OperatorVersion& v) {
  std::string line = v.id() + (v.deprecated ? " (deprecated)" : "") + ": " + v.runs;
  if (v.kernel_version)
    line += " (" + v.accuracy + (v.kernel_version != v.version ? ", version " + std::to_string(v.kernel_version) + "'s" : "") +
            ")";
  std::string parts;
  for (const Part& p : kParts)
    if (v.*p.has) parts += std::string(parts.empty() ? "" : ", ") + p.label;
  return parts.empty() ? line : line + " with " + parts;
}

nlohmann::json to_json(const OperatorVersion& v) {
  nlohmann::json parts = {{"kernel", v.kernel_version != 0}};
  for (const Part& p : kParts) parts[p.name] = v.*p.has;
  nlohmann::json j = {{"operator", v.id()}, {"domain", v.domain},         {"name", v.name},  {"version", v.version},
                      {"runs", v.runs},     {"deprecated", v.deprecated}, {"record", parts}, {"attributes", v.attributes}};
  if (v.kernel_version) {
    j["kernel_version"] = v.kernel_version;
    j["accuracy"] = v.accuracy;
  }
  return j;
}
}  // namespace

void add_ops_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<OpsArgs>();
  auto* cmd = app.add_subcommand(
      "ops", "List every operator version of the catalogue (opsets 1-27), how sonnx runs it and which "
             "parts of its record (parameter struct, shape rule, fast kernel, enclosure, upgrade adapter, C emitter) it has");
  cmd->add_flag("--missing", args->missing, "Only the versions sonnx cannot run yet");
  std::vector<std::string> part_names;
  for (const Part& p : kParts) part_names.push_back(p.name);
  cmd->add_option("--without", args->without,
                  "Only the versions sonnx runs whose record lacks this part (params: only those with attributes)")
      ->check(CLI::IsMember(part_names));
  cmd->add_option("--since", args->since, "Only versions introduced at this opset or later");
  cmd->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->callback([args, &exit_code] {
    nlohmann::json list = nlohmann::json::array();
    std::map<std::string, int> counts, filled;
    int total = 0;
    const Part* without = part_named(args->without);
    for (const OperatorVersion& v : operator_versions()) {
      if (v.version < args->since) continue;
      ++total;
      ++counts[v.runs];
      for (const Part& p : kParts) filled[p.name] += v.*p.has;
      if (args->missing && v.runs != "unsupported") continue;
      // A version without attributes needs no parameter struct.
      bool needs = without && (without->has != &OperatorVersion::params || v.attributes);
      if (without && (v.runs == "unsupported" || v.*without->has || !needs)) continue;
      if (args->format == "json") list.push_back(to_json(v));
      else std::cout << describe(v) << "\n";
    }
    if (args->format == "json") {
      nlohmann::json summary = counts;
      summary["record"] = filled;
      std::cout << nlohmann::json{{"operators", list}, {"summary", summary}}.dump(1) << "\n";
    } else {
      std::cout << total << " operator versions: " << counts["kernel"] << " by a kernel, " << counts["function body"]
                << " by a function body, " << counts["unsupported"] << " unsupported\n";
      const char* sep = "records with a part beside the kernel: ";
      for (const Part& p : kParts) {
        std::cout << sep << p.label << " " << filled[p.name];
        sep = ", ";
      }
      std::cout << "\n";
    }
    exit_code = 0;
  });
}

}  // namespace sonnx::cli
