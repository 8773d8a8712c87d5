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

}  // namespace sonnx
