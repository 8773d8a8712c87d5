// The report of one admission (`sonnx admit --report F.json|F.md`): every change (what, where, the
// rule it removes), what was refused, the check's remaining errors, the runs that compare the two
// models and their results.
#pragma once
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "admit.h"

namespace sonnx::admit {

// How many changes of each rewrite ("upgrade": 412, "fold": 250, ...).
std::map<std::string, int> rewrite_counts(const AdmitResult& r);
// The findings `admit` removes: rules whose every finding is removable by a rewrite, and operators
// outside the profile it decomposes or removes.
bool removable(const Diagnostic& d, const Profile& profile);

nlohmann::json report_json(const AdmitResult& r, const std::string& model, const std::string& profile);
std::string report_markdown(const AdmitResult& r, const std::string& model, const std::string& profile);

}  // namespace sonnx::admit
