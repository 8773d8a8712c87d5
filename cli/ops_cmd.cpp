// sonnx ops [--missing] [--format text|json] [--since V]: every operator version of the catalogue
// and how sonnx runs it: a reference kernel, a function body, or not at all ("unsupported": check
// refuses it under OP-IMPLEMENTED, run and conform by name). Exit 0.
#include <iostream>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "reference/catalogue/catalogue.h"
#include "reference/ops/op_table.h"

namespace sonnx::cli {

namespace {
struct OpsArgs {
  bool missing = false;
  std::string format = "text";
  int64_t since = 0;
};

// "kernel", "function body" or "unsupported" for one schema version.
std::string how_it_runs(const catalogue::Schema& s) {
  Model model;
  model.opset_imports[s.domain] = s.version;
  Node node;
  node.op_type = s.name;
  node.domain = s.domain;
  OpResolution r = resolve_op(model, node, s.version);
  if (r.kernel) return "kernel";
  return r.has_function_body ? "function body" : "unsupported";
}
}  // namespace

void add_ops_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<OpsArgs>();
  auto* cmd = app.add_subcommand("ops", "List every operator version of the catalogue (opsets 1-27) and how sonnx runs it");
  cmd->add_flag("--missing", args->missing, "Only the versions sonnx cannot run yet");
  cmd->add_option("--since", args->since, "Only versions introduced at this opset or later");
  cmd->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->callback([args, &exit_code] {
    nlohmann::json list = nlohmann::json::array();
    std::map<std::string, int> counts;
    for (const auto& s : catalogue::all()) {
      if (s.version < args->since) continue;
      std::string how = how_it_runs(s);
      ++counts[how];
      if (args->missing && how != "unsupported") continue;
      if (args->format == "json")
        list.push_back({{"operator", s.id()}, {"domain", s.domain}, {"name", s.name}, {"version", s.version}, {"runs", how},
                        {"deprecated", s.deprecated}});
      else
        std::cout << s.id() << (s.deprecated ? " (deprecated)" : "") << ": " << how << "\n";
    }
    int total = 0;
    for (const auto& [how, n] : counts) total += n;
    if (args->format == "json") {
      std::cout << nlohmann::json{{"operators", list}, {"summary", counts}}.dump(1) << "\n";
    } else {
      std::cout << total << " operator versions: " << counts["kernel"] << " by a kernel, " << counts["function body"]
                << " by a function body, " << counts["unsupported"] << " unsupported\n";
    }
    exit_code = 0;
  });
}

}  // namespace sonnx::cli
