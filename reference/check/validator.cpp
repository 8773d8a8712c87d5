#include "validator.h"

#include "rules.h"

namespace sonnx {

std::vector<Diagnostic> validate(const LoadedModel& model, const Profile& profile) {
  std::vector<Diagnostic> out;
  CheckContext ctx{model, profile, out};
  for (const auto& rule : all_rules())
    if (profile.rules.count(rule.id)) rule.check(ctx);
  return out;
}

bool has_errors(const std::vector<Diagnostic>& ds) {
  for (const auto& d : ds)
    if (d.severity == Severity::Error) return true;
  return false;
}

}  // namespace sonnx
