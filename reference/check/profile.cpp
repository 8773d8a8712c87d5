#include "profile.h"

#include <fstream>

#include <nlohmann/json.hpp>

#include "reference/catalogue/catalogue.h"
#include "reference/model/data_dir.h"
#include "sonnx/errors.h"
#include "rules.h"

namespace sonnx {

std::filesystem::path profiles_dir() {
  if (const char* env = std::getenv("SONNX_PROFILES_DIR")) return env;
  return data_dir() / "spec" / "profiles";
}

namespace {
// "Op-N": version N of ai.onnx Op, which the catalogue must have as a since_version; "Op": any.
void add_operator(Profile& p, const std::string& entry, const std::filesystem::path& file) {
  auto dash = entry.rfind('-');
  bool versioned = dash != std::string::npos && dash + 1 < entry.size() &&
                   entry.find_first_not_of("0123456789", dash + 1) == std::string::npos && entry.size() - dash <= 4;
  if (!versioned) {
    p.operators[entry];
    return;
  }
  std::string op = entry.substr(0, dash);
  int64_t version = std::stoll(entry.substr(dash + 1));
  const catalogue::Schema* s = catalogue::find("", op, version);
  if (!s || s->version != version)
    throw LoadError("profile '" + file.string() + "': " + entry + " is not a version of an ai.onnx operator" +
                    (s ? " (" + op + " has " + s->id() + " at opset " + std::to_string(version) + ")" : ""));
  p.operators[op].insert(version);
}

Profile load_file(const std::filesystem::path& file, int depth) {
  if (depth > 8) throw LoadError("profile '" + file.string() + "': 'extends' chain too deep");
  std::ifstream in(file);
  if (!in) throw LoadError("cannot read profile '" + file.string() + "'");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    throw LoadError("profile '" + file.string() + "' is not valid JSON: " + e.what());
  }
  Profile p;
  try {
    if (j.contains("extends")) p = load_profile_named(j.at("extends").get<std::string>(), file.parent_path(), depth + 1);
    p.name = j.value("name", file.stem().string());
    for (const auto& r : j.at("rules")) {
      std::string id = r.get<std::string>();
      if (!find_rule(id)) throw LoadError("profile '" + file.string() + "': unknown rule '" + id + "'");
      p.rules.insert(id);
    }
    if (j.contains("severity")) {
      for (const auto& [id, level] : j.at("severity").items()) {
        if (!find_rule(id)) throw LoadError("profile '" + file.string() + "': severity for unknown rule '" + id + "'");
        std::string l = level.get<std::string>();
        if (l != "error" && l != "warning")
          throw LoadError("profile '" + file.string() + "': severity of " + id + " is '" + l + "', not error or warning");
        p.severity[id] = l == "error" ? Severity::Error : Severity::Warning;
      }
    }
    if (j.contains("operators")) {
      p.restricts_operators = true;
      p.operators.clear();
      for (const auto& o : j.at("operators")) add_operator(p, o.get<std::string>(), file);
    }
  } catch (const nlohmann::json::exception& e) {
    throw LoadError("profile '" + file.string() + "': " + e.what());
  }
  return p;
}
}  // namespace

Profile load_profile_named(const std::string& name, const std::filesystem::path& relative_to, int depth) {
  if (name == "onnx" || name == "sonnx") return load_file(profiles_dir() / (name + ".json"), depth);
  std::filesystem::path f(name);
  if (f.is_relative() && !relative_to.empty() && !std::filesystem::exists(f)) f = relative_to / f;
  return load_file(f, depth);
}

Profile load_profile(const std::string& name_or_file) { return load_profile_named(name_or_file, {}, 0); }

}  // namespace sonnx
