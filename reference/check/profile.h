// A profile: which rules are enabled, at which severity, and (optionally) the operator set allowed.
// Profiles are data files (spec/profiles/*.json): {"name", "extends"?, "rules": [IDs],
// "severity"?: {ID: "error"|"warning"}, "operators"?: ["Op-N" | "Op"]}. "Op-N" allows the ai.onnx
// operator Op at version N (its since_version) only; a bare "Op" allows every version. A severity given for a rule
// overrides the rule's own (rules.cpp) for that profile and the profiles extending it.
#pragma once
#include <filesystem>
#include <map>
#include <set>
#include <cstdint>
#include <string>

#include "sonnx/diagnostic.h"

namespace sonnx {

struct Profile {
  std::string name;
  std::set<std::string> rules;
  std::map<std::string, Severity> severity;  // per-profile overrides of a rule's severity
  bool restricts_operators = false;
  // ai.onnx operators allowed when restricts_operators: op type -> allowed versions (empty: any).
  std::map<std::string, std::set<int64_t>> operators;
};

// "onnx", "sonnx", or a path to a JSON file. Throws LoadError on an unknown name, a bad file or an
// unknown rule ID.
Profile load_profile(const std::string& name_or_file);
// The same, resolving a relative file name against `relative_to` (used for "extends").
Profile load_profile_named(const std::string& name, const std::filesystem::path& relative_to, int depth);
std::filesystem::path profiles_dir();

}  // namespace sonnx
