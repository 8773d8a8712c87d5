// sonnx check MODEL... : validate models against a profile (the C++ API's load and check); text, JSON
// or SARIF 2.1.0 output.
#include <iostream>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "sonnx/admit.hpp"

namespace sonnx::cli {

namespace {
struct CheckArgs {
  std::vector<std::string> models;
  std::string profile = "onnx";
  std::string format = "text";
  bool quiet = false;
};

struct ModelResult {
  std::string model;
  std::string status;  // passed, failed, unreadable
  std::string load_error;
  std::vector<Diagnostic> diagnostics;
  std::string admit;  // the admit command that removes every error, when one does
};

nlohmann::json diagnostic_json(const Diagnostic& d) {
  return {{"rule", d.rule},      {"severity", severity_name(d.severity)},
          {"node", d.node},      {"op_type", d.op_type},
          {"value", d.value},    {"graph", d.graph},
          {"message", d.message}};
}

nlohmann::json result_json(const ModelResult& r, const std::string& profile) {
  nlohmann::json ds = nlohmann::json::array();
  for (const auto& d : r.diagnostics) ds.push_back(diagnostic_json(d));
  nlohmann::json j{{"model", r.model}, {"profile", profile}, {"status", r.status}, {"diagnostics", ds}};
  if (!r.load_error.empty()) j["error"] = r.load_error;
  if (!r.admit.empty()) j["admit"] = r.admit;
  return j;
}

nlohmann::json sarif(const std::vector<ModelResult>& results, const ProfileRules& profile) {
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& r : profile.rules)
    rules.push_back({{"id", r.id},
                     {"shortDescription", {{"text", r.summary}}},
                     {"helpUri", "spec/restrictions.md#" + r.id},
                     {"defaultConfiguration", {{"level", severity_name(r.severity)}}}});
  nlohmann::json out = nlohmann::json::array();
  for (const auto& m : results) {
    auto location = [&](const std::string& logical) {
      nlohmann::json loc{{"physicalLocation", {{"artifactLocation", {{"uri", m.model}}}}}};
      if (!logical.empty()) loc["logicalLocations"] = nlohmann::json::array({{{"fullyQualifiedName", logical}}});
      return loc;
    };
    if (!m.load_error.empty())
      out.push_back(
          {{"ruleId", "LOAD"}, {"level", "error"}, {"message", {{"text", m.load_error}}}, {"locations", {location("")}}});
    for (const auto& d : m.diagnostics)
      out.push_back({{"ruleId", d.rule},
                     {"level", severity_name(d.severity)},
                     {"message", {{"text", d.message}}},
                     {"locations", {location(d.graph + (d.node.empty() ? "" : "/" + d.node))}}});
  }
  return {{"version", "2.1.0"},
          {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"runs", {{{"tool", {{"driver", {{"name", "sonnx"}, {"version", version()}, {"rules", rules}}}}}, {"results", out}}}}};
}
}  // namespace

void add_check_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<CheckArgs>();
  auto* cmd = app.add_subcommand(
      "check", "Validate models against the graph rules and a profile (exit 0 clean, 1 violations, 2 unreadable)");
  cmd->add_option("models", args->models, "Model files (.onnx, or .onnxtxt text syntax)")->required();
  cmd->add_option("--profile", args->profile, "onnx, sonnx, or a profile JSON file")->capture_default_str();
  cmd->add_option("--format", args->format, "text, json or sarif")
      ->check(CLI::IsMember({"text", "json", "sarif"}))
      ->capture_default_str();
  cmd->add_flag("--quiet,-q", args->quiet,
                "Text format: print only the summary line (and, when admit removes every error, its command)");
  cmd->callback([args, &exit_code] {
    ProfileRules profile = profile_rules(args->profile);
    std::vector<ModelResult> results;
    int passed = 0, failed = 0, unreadable = 0;
    for (const auto& path : args->models) {
      ModelResult r;
      r.model = path;
      try {
        ModelHandle model = load(path);
        r.diagnostics = check(model, args->profile);
        r.status = has_errors(r.diagnostics) ? "failed" : "passed";
        r.admit = admit_suggestion(model, r.diagnostics, args->profile);
      } catch (const LoadError& e) {
        r.status = "unreadable";
        r.load_error = e.what();
      }
      (r.status == "passed" ? passed : r.status == "failed" ? failed : unreadable)++;
      if (args->format == "text") {
        if (!r.load_error.empty()) std::cerr << path << ": unreadable: " << r.load_error << "\n";
        if (!args->quiet)
          for (const auto& d : r.diagnostics) std::cout << path << ": " << format_diagnostic(d) << "\n";
        if (!r.admit.empty()) std::cout << path << ": " << r.admit << "\n";
      }
      results.push_back(std::move(r));
    }
    if (args->format == "json") {
      if (results.size() == 1) std::cout << result_json(results[0], profile.name).dump(2) << "\n";
      else {
        nlohmann::json all = nlohmann::json::array();
        for (const auto& r : results) all.push_back(result_json(r, profile.name));
        std::cout << all.dump(2) << "\n";
      }
    } else if (args->format == "sarif") {
      std::cout << sarif(results, profile).dump(2) << "\n";
    } else {
      std::cout << "profile " << profile.name << ": " << results.size() << " models, " << passed << " passed, " << failed
                << " failed, " << unreadable << " unreadable\n";
    }
    exit_code = unreadable ? 2 : failed ? 1 : 0;
  });
}

}  // namespace sonnx::cli
